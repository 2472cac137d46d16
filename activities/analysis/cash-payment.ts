/**
 * Whether a printed row is a cash payment, read from where the filing prints it rather than
 * from its words. A statement of cash flows lists gross receipts and payments in its investing
 * and financing parts (ASC 230; IAS 7), so an outflow there ("Dividends to shareholders
 * (11,682)") is a payment whatever its label says; its operating part (indirect method) lists
 * adjustments and changes in balances, which are not. A supplemental list under "Cash paid
 * during the year for:" is payments by its caption. A non-cash caption is never one.
 */

/** A caption: a line with no figure but, perhaps, a year ("Cash paid during 2022 for:"). */
function isCaption(line: string): boolean {
  const t = line.trim();
  return t.length > 0 && !/\d/.test(t.replace(/\b(?:19|20)\d\d\b/g, ''));
}

const NON_CASH = /\bnon-?\s?cash\b/i;
const PAID_CAPTION = /\bcash paid\b|\bpaid during\b|\bcash payments? (?:for|made)\b/i;
const RECEIPTS_AND_PAYMENTS = /\b(?:investing|financing) activities\b/i;
const ADJUSTMENTS = /\boperating activities\b/i;

/** A cell printed as an outflow: in parentheses or with a minus sign. */
export function isOutflow(printed: string): boolean {
  const t = printed.replace(/[$\s]/g, '');
  return /^\(.*\d.*\)$/.test(t) || /^[-–−]\d/.test(t);
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/**
 * The row whose line on the page is `quote` (as cited) is a cash payment: the first caption
 * above it decides. False when the line is not found on the page.
 */
export function isCashPayment(pageText: string, quote: string, printed: string | null): boolean {
  const lines = pageText.split('\n');
  const wanted = squash(quote);
  if (wanted === '') return false;
  const at = lines.findIndex((l) => squash(l) === wanted || squash(l).includes(wanted));
  if (at < 0) return false;
  for (let i = at - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (!isCaption(line)) continue;
    if (NON_CASH.test(line)) return false;
    if (PAID_CAPTION.test(line)) return true;
    if (RECEIPTS_AND_PAYMENTS.test(line)) return printed !== null && isOutflow(printed);
    if (ADJUSTMENTS.test(line)) return false;
  }
  return false;
}
