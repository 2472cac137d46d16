import { minorDigits } from '../../workflows/bills/minor-units';
/**
 * Money on a printed bill: amount tokens in any of the common number formats (1.234,56 /
 * 1,234.56 / 1 234,56 / 1'234.56 / 1234,5) read into integer hundredths, never a float, and
 * the currency markers printed next to them. A bare integer is an amount only when a currency
 * marker touches it ("Rs 1939", "0 €"): otherwise quantities, years and days would pass.
 */

const CURRENCY_SYMBOLS: Record<string, string> = {
  '€': 'EUR',
  '£': 'GBP',
  '₹': 'INR',
  '₽': 'RUB',
  '₺': 'TRY',
  '₩': 'KRW',
  '₪': 'ILS',
  '₫': 'VND',
  '฿': 'THB',
  '₱': 'PHP',
  '₴': 'UAH',
  zł: 'PLN',
  zl: 'PLN',
  rs: 'INR',
  'rs.': 'INR',
  inr: 'INR',
  kč: 'CZK',
  ft: 'HUF',
  lei: 'RON',
  fr: 'CHF',
  'fr.': 'CHF',
  'sfr.': 'CHF',
  us$: 'USD',
  c$: 'CAD',
  ca$: 'CAD',
  a$: 'AUD',
  au$: 'AUD',
  nz$: 'NZD',
  hk$: 'HKD',
  s$: 'SGD',
  r$: 'BRL',
};
/** Symbols shared by several currencies: `$` is read by the document's cues (see currency.ts). */
export const AMBIGUOUS_SYMBOLS = new Set(['$', '¥', 'kr', 'kr.']);

const ISO = new Set(Intl.supportedValuesOf('currency'));
export function isIsoCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && ISO.has(code);
}

/** The currency a marker names: an ISO code, a symbol, or `?$`-style ambiguous markers. */
export function currencyOfMarker(marker: string): string | null {
  const m = marker.trim();
  if (/^[A-Z]{3}$/.test(m) && ISO.has(m)) return m;
  const lower = m.toLowerCase();
  if (CURRENCY_SYMBOLS[lower]) return CURRENCY_SYMBOLS[lower];
  if (AMBIGUOUS_SYMBOLS.has(lower)) return `?${lower}`;
  return null;
}

const SYMBOL_CHARS = '€£₹₽₺₩₪₫฿₱₴$¥';

export interface AmountToken {
  /** Integer hundredths (cents); negative for credits. */
  cents: bigint;
  /** The currency marker attached to the token (ISO code, or `?$` when ambiguous). */
  currency: string | null;
  /** The token as printed. */
  raw: string;
  /** Whether the token carried decimals (a bare integer needs a currency marker). */
  decimals: boolean;
}

/**
 * Reads a printed number into hundredths. Both separators present: the last one is the
 * decimal mark. One kind only: followed by exactly three digits (or repeated) it groups
 * thousands, else it is the decimal mark (at most two decimals: a third decimal is not money).
 */
export function parseNumber(text: string): { cents: bigint; decimals: boolean } | null {
  let s = text.replace(/[\u00a0\u202f' ]/g, (c) => (c === ' ' ? ' ' : ' ')).trim();
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (/^[-−–]/.test(s)) {
    negative = true;
    s = s.slice(1).trim();
  }
  if (/[-−]$/.test(s)) {
    negative = true;
    s = s.slice(0, -1).trim();
  }
  if (!/^\d[\d., '\u00a0]*$/.test(s) || /[., ']$/.test(s)) return null;
  // Space/apostrophe grouping only in groups of three.
  if (/[ ']/.test(s) && !/^\d{1,3}(?:[ ']\d{3})+(?:[.,]\d{1,2})?$/.test(s)) return null;
  s = s.replace(/[ ']/g, '');
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let intPart: string;
  let frac = '';
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    const group = dec === '.' ? ',' : '.';
    const [i, f] = [s.slice(0, s.lastIndexOf(dec)), s.slice(s.lastIndexOf(dec) + 1)];
    if (!new RegExp(`^\\d{1,3}(?:\\${group}\\d{3})*$`).test(i) || !/^\d{1,2}$/.test(f)) return null;
    intPart = i.split(group).join('');
    frac = f;
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = s.split(sep);
    if (parts.length > 2 || parts[parts.length - 1]!.length === 3) {
      if (!new RegExp(`^\\d{1,3}(?:\\${sep}\\d{3})+$`).test(s)) return null;
      intPart = parts.join('');
    } else {
      if (!/^\d{1,2}$/.test(parts[1]!)) return null;
      intPart = parts[0]!;
      frac = parts[1]!;
    }
  } else intPart = s;
  if (!/^\d{1,13}$/.test(intPart)) return null;
  const cents = BigInt(intPart) * 100n + BigInt((frac + '00').slice(0, 2));
  return { cents: negative ? -cents : cents, decimals: frac.length > 0 };
}

const TOKEN = new RegExp(
  // optional sign, optional prefix marker, the number, optional suffix marker
  `(?<![\\w.,/:-])(-|−)?\\s?` +
    `((?:[${SYMBOL_CHARS}]|\\b[A-Z]{3}\\b|\\bRs\\.?|\\b[A-Za-z]{1,2}\\$)\\s?)?` +
    `(-?\\d[\\d.,]*(?:[ \\u00a0']\\d{3})*(?:[.,]\\d{1,2})?)` +
    `(\\s?(?:[${SYMBOL_CHARS}]|\\b[A-Z]{3}\\b|zł|zl\\b|Kč|kr\\.?|Ft\\b|lei\\b|-))?` +
    `(?![\\w%/°'’])(?![.,]\\d)`,
  'gu',
);

/** Every amount token on a line, left to right (percentages, dates and ids excluded). */
export function amountsIn(line: string): (AmountToken & { index: number; end: number })[] {
  const out: (AmountToken & { index: number; end: number })[] = [];
  for (const m of line.matchAll(TOKEN)) {
    const [whole, sign, pre, num, post] = m;
    if (!num) continue;
    // A date (12.05.2014, 01/02/2020) or an id glued to letters is no amount.
    if (/^\d{1,4}[./-]\d{1,2}[./-]\d{2,4}$/.test(num)) continue;
    const prefix = pre?.trim();
    const suffix = post?.trim();
    const trailingMinus = suffix === '-';
    const marker = prefix || (suffix && !trailingMinus ? suffix : undefined);
    const currency = marker ? currencyOfMarker(marker) : null;
    if (marker && !currency) continue; // "ABC 12.00": an unknown three-letter word is not money
    const parsed = parseNumber(num);
    if (!parsed) continue;
    if (!parsed.decimals && !currency) continue;
    const negative = (sign !== undefined && sign !== '') || trailingMinus;
    out.push({
      cents: negative && parsed.cents > 0n ? -parsed.cents : parsed.cents,
      currency,
      raw: whole.trim(),
      decimals: parsed.decimals,
      index: m.index ?? 0,
      end: (m.index ?? 0) + whole.length,
    });
  }
  return out;
}

/** Hundredths as a decimal string ("-12.50"). */
export function centsToDecimal(c: bigint): string {
  const neg = c < 0n;
  const a = neg ? -c : c;
  return `${neg ? '-' : ''}${a / 100n}.${(a % 100n).toString().padStart(2, '0')}`;
}

/** Minor-unit digits of an ISO currency: one definition, shared with agents and workflows. */
export { minorDigits };

/** Hundredths in a currency's minor units; null when the amount has finer precision. */
export function centsToMinor(c: bigint, currency: string): bigint | null {
  const d = minorDigits(currency);
  if (d === 2) return c;
  if (d > 2) return c * 10n ** BigInt(d - 2);
  const f = 10n ** BigInt(2 - d);
  return c % f === 0n ? c / f : null;
}
