/**
 * Does a cited text really contain a number? Printed forms differ — 1,577 / (1,577) /
 * 1577.0 / $1,577 / 12.5% — so both sides are normalized to a canonical magnitude first.
 * The sign is respected: a negative figure must be printed negative (parentheses or a minus
 * sign) in the cited text; a bare 38 does not back a claim of −38. A positive claim may match
 * a parenthesized figure, since filings print costs and outflows in parentheses.
 */
const NUMBER_IN_TEXT = /(?<![\w.])(?:[-−–]\s?)?\(?[-−–]?\$?\s?\(?\d[\d,]*(?:\.\d+)?\)?%?/g;

export function canonicalMagnitude(printed: string): string | null {
  const digits = printed.replace(/[()$%\s,]/g, '').replace(/^[-−–]/, '');
  if (!/^\d+(\.\d+)?$/.test(digits)) return null;
  const [int = '0', frac = ''] = digits.split('.');
  const intPart = int.replace(/^0+(?=\d)/, '');
  const fracPart = frac.replace(/0+$/, '');
  return fracPart ? `${intPart}.${fracPart}` : intPart;
}

/** "(38)", "($38)", "-38", "−38", "$(38)": printed as a negative figure. */
export function printedAsNegative(printed: string): boolean {
  const t = printed.trim();
  return /^[-−–]/.test(t) || (/\(/.test(t) && /\)%?$/.test(t));
}

export interface NumberOccurrence {
  magnitude: string;
  negative: boolean;
}

export function signedNumbersIn(text: string): NumberOccurrence[] {
  const out: NumberOccurrence[] = [];
  for (const m of text.matchAll(NUMBER_IN_TEXT)) {
    const c = canonicalMagnitude(m[0].replace(/^[-−–]\s/, '-'));
    if (c !== null) out.push({ magnitude: c, negative: printedAsNegative(m[0]) });
  }
  return out;
}

export function numbersIn(text: string): string[] {
  return signedNumbersIn(text).map((o) => o.magnitude);
}

/**
 * True when `text` prints the number. `negative` (the claim's value is below zero) or a
 * negative printed form requires a negative occurrence.
 */
export function textContainsNumber(
  text: string,
  printed: string,
  opts: { negative?: boolean } = {},
): boolean {
  const wanted = canonicalMagnitude(printed);
  if (wanted === null) return false;
  const mustBeNegative = opts.negative === true || printedAsNegative(printed);
  return signedNumbersIn(text).some(
    (o) => o.magnitude === wanted && (!mustBeNegative || o.negative),
  );
}
