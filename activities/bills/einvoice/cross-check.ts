import type {
  StructuredInvoice,
  StructuredReading,
} from '../../../workflows/bills/structured-invoice';
import { amountsIn } from '../amounts';
import { scaled } from './arithmetic';

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
    (text
      .split(/\r?\n/)
      .some((line) =>
        amountsIn(line).some((a) => a.cents === grossCents || a.cents === -grossCents),
      ) ||
      printedGrouped(text, grossCents < 0n ? -grossCents : grossCents));
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

/**
 * The invoice number as a whole token of the text. Whitespace is not part of the comparison:
 * a page layout may split "test decimal 1" into cells or break "RE 2024 001" differently.
 */
function containsToken(text: string, token: string): boolean {
  const chars = [...token.replace(/\s+/g, '')];
  if (chars.length === 0) return false;
  const body = chars.map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/**
 * An amount printed with its thousands groups apart — "10 555,30", "10.555,30", "10'555.30",
 * or split into cells by the layout ("10   555,30") — matched digit group by digit group, with
 * exactly its two decimals.
 */
function printedGrouped(text: string, cents: bigint): boolean {
  const units = (cents / 100n).toString();
  const dec = (cents % 100n).toString().padStart(2, '0');
  const groups: string[] = [];
  for (let end = units.length; end > 0; end -= 3)
    groups.unshift(units.slice(Math.max(0, end - 3), end));
  const body = groups.join("[\\s.,'’\u00a0\u202f]*");
  return new RegExp(`(?<![\\d.,])${body}\\s*[.,]\\s*${dec}(?!\\d)`).test(text);
}

/** A decimal with at most two places as hundredths; finer amounts cannot match a page. */
export function toCents(v: string | null): bigint | null {
  const s = scaled(v);
  if (s === null || s % 100n !== 0n) return null;
  return s / 100n;
}
