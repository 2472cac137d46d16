import { centsToDecimal, centsToMinor } from '../amounts';
import { BillExtractionSchema, type BillExtraction } from '../../../workflows/bills/extraction';
import { NOT_A_BILL } from '../labels';
import type { BillDates } from './bill-dates';
import type { CheckLog } from './check-log';
import type { Contacts } from './contacts';
import type { CurrencyReading } from './currency';
import type { InvoiceNumber } from './invoice-number';
import { cells, type Line } from './layout';
import type { LineItems, Totals } from './totals';

/**
 * What keeps a bill from posting whatever its checks say: a gross finer than its
 * currency's minor unit (checks currency_known again), a gross that is not positive, and a
 * title that says it is no bill.
 */
export function refuseUnpostable(
  lines: readonly Line[],
  g: bigint | null,
  currency: string | null,
  log: CheckLog,
): void {
  const gm = g === null || !currency ? null : centsToMinor(g, currency);
  if (g !== null && currency && gm === null)
    log.check(
      'currency_known',
      'fail',
      `${centsToDecimal(g)} has more decimals than ${currency} allows`,
    );
  if (g !== null && g <= 0n) log.refuse('gross: not positive');
  // A credit note, a correction or a pro forma prints positive totals too: posting it as a
  // bill would book it the wrong way round (or book what is not owed).
  const kind = lines
    .filter((l) => !l.synthetic)
    .flatMap((l) => cells(l.text))
    .map((c) => NOT_A_BILL.exec(c))
    .find((m) => m !== null);
  if (kind) log.refuse(`document_kind: "${kind[1]}" is printed as the document's title`);
}

/** Everything the steps read from a bill. */
export interface BillReading {
  issuer: string | null;
  number: InvoiceNumber;
  dates: BillDates;
  currency: CurrencyReading;
  totals: Totals;
  taxRate: number | null;
  items: LineItems;
  contacts: Contacts;
  language: string | null;
}

/**
 * The result: ready to post only when nothing was refused and the gross, number,
 * issue date, currency and issuer are all found; else to a person, with the reasons.
 */
export function assembleExtraction(reading: BillReading, log: CheckLog): BillExtraction {
  const { issuer, language, taxRate } = reading;
  const { invoiceNumber, numberSet } = reading.number;
  const { issueDate, dueDate, issueSet } = reading.dates;
  const { currency, candidates: currencyList } = reading.currency;
  const { gross: g, net: n, tax: x, allGross } = reading.totals;
  const { lines: lines_, basis: linesBasis } = reading.items;
  const { emails, taxIds } = reading.contacts;
  const { checks, reasons } = log;
  const toMinor = (c: bigint | null) =>
    c === null || !currency ? null : centsToMinor(c, currency);
  const gm = toMinor(g);
  const outcome =
    reasons.length === 0 && g !== null && invoiceNumber && issueDate && currency && issuer
      ? 'ready'
      : 'human_review';
  if (outcome === 'human_review' && reasons.length === 0) log.refuse('a required field is missing');
  return BillExtractionSchema.parse({
    outcome,
    reasons,
    issuer,
    invoiceNumber,
    issueDate,
    dueDate,
    currency,
    amount: g === null ? null : centsToDecimal(g),
    amountUntaxed: n === null ? null : centsToDecimal(n),
    amountTax: x === null ? null : centsToDecimal(x),
    minor:
      gm === null
        ? null
        : {
            gross: gm.toString(),
            net: toMinor(n)?.toString() ?? null,
            tax: toMinor(x)?.toString() ?? null,
          },
    taxRatePercent: taxRate === null ? null : String(taxRate),
    lines: lines_.map((l) => ({
      description: l.description.slice(0, 500),
      amount: centsToDecimal(l.cents),
    })),
    linesBasis,
    checks,
    candidates: {
      invoiceNumber: numberSet.map((v) => v.value),
      gross: allGross.map(centsToDecimal),
      issueDate: issueSet,
      currency: currencyList,
    },
    contacts: { emails, taxIds },
    language,
  });
}
