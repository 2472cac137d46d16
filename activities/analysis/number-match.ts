/**
 * Does a cited text really contain a number? Printed forms differ — 1,577 / (1,577) /
 * 1577.0 / $1,577 / 12.5% — so both sides are normalized to a canonical magnitude first.
 */
const NUMBER_IN_TEXT = /\(?-?\$?\s?\d[\d,]*(?:\.\d+)?\)?%?/g;

export function canonicalMagnitude(printed: string): string | null {
  const digits = printed.replace(/[()$%\s,]/g, '').replace(/^[-−–]/, '');
  if (!/^\d+(\.\d+)?$/.test(digits)) return null;
  const [int = '0', frac = ''] = digits.split('.');
  const intPart = int.replace(/^0+(?=\d)/, '');
  const fracPart = frac.replace(/0+$/, '');
  return fracPart ? `${intPart}.${fracPart}` : intPart;
}

export function numbersIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(NUMBER_IN_TEXT)) {
    const c = canonicalMagnitude(m[0]);
    if (c !== null) out.push(c);
  }
  return out;
}

export function textContainsNumber(text: string, printed: string): boolean {
  const wanted = canonicalMagnitude(printed);
  if (wanted === null) return false;
  return numbersIn(text).includes(wanted);
}
