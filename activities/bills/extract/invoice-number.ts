import type { CheckLog } from './check-log';
import type { NumberHit } from './labelled-values';

/** The bill's invoice number, when exactly one is printed, and every candidate. */
export interface InvoiceNumber {
  invoiceNumber: string | null;
  numberSet: NumberHit[];
}

/**
 * One invoice number: those under a number label win over those after the title;
 * several, or one with spaces (where it starts is ambiguous), leave it to a person. Checks
 * invoice_number_unique.
 */
export function settleInvoiceNumber(numbers: NumberHit[], log: CheckLog): InvoiceNumber {
  const strong = numbers.filter((v) => v.strong);
  const chosen = strong.length > 0 ? strong : numbers;
  const norm = (v: string) => v.replace(/\s+/g, '').replace(/^#/, '').toUpperCase();
  const numberSet = [...new Map(chosen.map((v) => [norm(v.value), v])).values()];
  let invoiceNumber: string | null = null;
  if (numberSet.length === 1 && !numberSet[0]!.spaced) {
    invoiceNumber = numberSet[0]!.value;
    log.check('invoice_number_unique', 'pass', invoiceNumber);
  } else
    log.check(
      'invoice_number_unique',
      'fail',
      numberSet.length === 0
        ? 'no invoice number is printed under an invoice-number label'
        : numberSet.length > 1
          ? `several candidates: ${numberSet.map((v) => v.value).join(', ')}`
          : `"${numberSet[0]!.value}" contains spaces: where the number starts is ambiguous`,
    );
  return { invoiceNumber, numberSet };
}
