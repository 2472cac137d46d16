/**
 * Money in a currency's minor units (ISO 4217 exponent: JPY 0, EUR 2, KWD 3), from exact
 * decimal text; never through a float. Pure, so workflows, activities and agents share it.
 */
export function minorDigits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/** "1234.5" EUR → 123450n; null when the text is no decimal or is finer than the currency. */
export function decimalToMinor(decimal: string, currency: string): bigint | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(decimal);
  if (!m) return null;
  const digits = minorDigits(currency);
  const frac = m[3] ?? '';
  if (frac.replace(/0+$/, '').length > digits) return null;
  const v = BigInt(m[2]! + frac.padEnd(digits, '0').slice(0, digits));
  return m[1] ? -v : v;
}
