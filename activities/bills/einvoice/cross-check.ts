import type {
  StructuredInvoice,
  StructuredReading,
} from '../../../workflows/bills/structured-invoice';
import { amountsIn } from '../amounts';
import { scaled } from './en16931-validation';

/**
 * The XML of a PDF/A-3 invoice against the page a person sees: the page must show the XML's
 * invoice number and its gross total (in any number format; a credit note's total may be
 * printed with or without its sign). Either missing is a disagreement: the bill goes to a
 * person with both readings, never posted on one of them alone.
 */
export function crossCheckVisibleText(
  invoice: StructuredInvoice,
  pages: readonly string[],
): StructuredReading['crossCheck'] {
  const text = pages.join('\n');
  if (text.trim() === '')
    return {
      status: 'disagrees',
      invoiceNumberOnPage: false,
      grossOnPage: false,
      detail: 'the PDF has no visible text to compare the XML with',
    };
  const number = invoice.invoiceNumber;
  const numberOnPage = number !== null && containsToken(text, number);
  const grossCents = toCents(invoice.totals.gross);
  const grossOnPage =
    grossCents !== null &&
    text
      .split(/\r?\n/)
      .some((line) =>
        amountsIn(line).some((a) => a.cents === grossCents || a.cents === -grossCents),
      );
  const problems = [
    numberOnPage ? null : `the page does not show the XML's invoice number ${number ?? '(none)'}`,
    grossOnPage
      ? null
      : `the page does not show the XML's gross total ${invoice.totals.gross ?? '(none)'} ${invoice.currency ?? ''}`.trim(),
  ].filter((p): p is string => p !== null);
  return {
    status: problems.length ? 'disagrees' : 'agrees',
    invoiceNumberOnPage: numberOnPage,
    grossOnPage,
    detail: problems.length
      ? problems.join('; ')
      : `the page shows invoice ${number} and gross ${invoice.totals.gross}`,
  };
}

/** The invoice number as a whole token of the text; spaces inside either are ignored. */
function containsToken(text: string, token: string): boolean {
  const chars = [...token.replace(/\s+/g, '')];
  if (chars.length === 0) return false;
  const body = chars.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s?');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/** A decimal with at most two places as hundredths; finer amounts cannot match a page. */
export function toCents(v: string | null): bigint | null {
  const s = scaled(v);
  if (s === null || s % 100n !== 0n) return null;
  return s / 100n;
}
