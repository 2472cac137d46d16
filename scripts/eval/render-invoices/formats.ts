/**
 * How amounts, quantities, unit prices and VAT rates are printed: the number and currency
 * styles and their formatters. Dates, which need a language's month names, are formatted in
 * languages.ts.
 */

import { cents } from './gold';

export type NumberStyle = 'dot-comma' | 'space-comma' | 'comma-dot' | 'plain-comma' | 'plain-dot';
export type CurrencyStyle =
  'symbol-after' | 'symbol-before' | 'code-after' | 'code-before' | 'note';
export type DateStyle = 'numeric' | 'words' | 'iso';

const SYMBOLS: Record<string, string> = { EUR: '€', GBP: '£', USD: '$' };

export function formatNumber(c: bigint, style: NumberStyle): string {
  const neg = c < 0n;
  const a = neg ? -c : c;
  const int = (a / 100n).toString();
  const frac = (a % 100n).toString().padStart(2, '0');
  const group = (sep: string) => int.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
  const body =
    style === 'dot-comma'
      ? `${group('.')},${frac}`
      : style === 'space-comma'
        ? `${group(' ')},${frac}`
        : style === 'comma-dot'
          ? `${group(',')}.${frac}`
          : style === 'plain-comma'
            ? `${int},${frac}`
            : `${int}.${frac}`;
  return neg ? `-${body}` : body;
}

export function formatMoney(
  c: bigint,
  currency: string,
  style: NumberStyle,
  cur: CurrencyStyle,
): string {
  const n = formatNumber(c, style);
  const sym = SYMBOLS[currency];
  switch (cur) {
    case 'symbol-after':
      return sym ? `${n} ${sym}` : `${n} ${currency}`;
    case 'symbol-before':
      return sym ? `${sym} ${n}` : `${currency} ${n}`;
    case 'code-after':
      return `${n} ${currency}`;
    case 'code-before':
      return `${currency} ${n}`;
    default:
      return n;
  }
}
/** Quantities as printed: "2", "1,5" / "1.5" (never grouped). */
export function formatQty(q: string, style: NumberStyle): string {
  const v = q.replace(/\.?0+$/, (z) => (q.includes('.') ? '' : z));
  return style.endsWith('comma') ? v.replace('.', ',') : v;
}
export function formatPrice(p: string | null, style: NumberStyle): string {
  if (p === null) return '';
  const c = cents(p);
  if (c !== null) return formatNumber(c, style);
  return style.endsWith('comma') ? p.replace('.', ',') : p;
}
export function formatRate(r: string | null, style: NumberStyle): string {
  if (r === null) return '0';
  const v = r.includes('.') ? r.replace(/0+$/, '').replace(/\.$/, '') : r;
  return style.endsWith('comma') ? v.replace('.', ',') : v;
}
