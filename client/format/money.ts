import { minorDigits } from '../../workflows/bills/minor-units';

/**
 * Money as people read it: integer minor units (as stored: strings or bigints, never floats)
 * turned into an exact decimal string by string arithmetic, then laid out by Intl.NumberFormat
 * with the currency's symbol, exponent and grouping. Intl formats a decimal *string* exactly
 * (no rounding through a double), so 12345678901234567.89 stays what it is.
 */
export const DEFAULT_LOCALE = 'en-US';

/** "7500000" USD → "75000.00"; "-5" USD → "-0.05"; "1200" JPY → "1200". */
export function minorToDecimal(minor: string | bigint, currency: string): string {
  const text = typeof minor === 'bigint' ? minor.toString() : minor.trim();
  const m = /^(-?)(\d+)$/.exec(text);
  if (!m) throw new TypeError(`Not an amount in minor units: "${text}"`);
  const digits = minorDigits(currency);
  const abs = m[2]!.replace(/^0+(?=\d)/, '');
  if (digits === 0) return `${m[1]}${abs}`;
  const padded = abs.padStart(digits + 1, '0');
  const sign = m[1] && /[1-9]/.test(abs) ? '-' : '';
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

function formatter(currency: string, locale: string, symbol: boolean): Intl.NumberFormat {
  const digits = minorDigits(currency);
  return new Intl.NumberFormat(locale, {
    ...(symbol ? { style: 'currency', currency, currencyDisplay: 'narrowSymbol' } : {}),
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** "7500000" USD → "$75,000.00" (en-US); "7500000" EUR → "€75,000.00"; de-DE → "75.000,00 €". */
export function formatMoney(
  minor: string | bigint,
  currency: string,
  locale: string = DEFAULT_LOCALE,
): string {
  // Intl.NumberFormat.format takes a decimal string as an exact value (ES2023).
  return formatter(currency, locale, true).format(
    minorToDecimal(minor, currency) as unknown as number,
  );
}

/** The number alone, grouped, with the currency's exponent: "75,000.00" (columns with a header). */
export function formatMinorNumber(
  minor: string | bigint,
  currency: string,
  locale: string = DEFAULT_LOCALE,
): string {
  return formatter(currency, locale, false).format(
    minorToDecimal(minor, currency) as unknown as number,
  );
}

/** A zero amount in a debit/credit column reads as empty, not "0.00". */
export function isZeroMinor(minor: string): boolean {
  return /^-?0*$/.test(minor.trim());
}

/**
 * A decimal amount in major units ("1250.00" EUR, a claim's "9447000000" USD) as people read
 * it, exact like formatMoney: "€1,250.00"; null when the text is no plain decimal.
 */
export function formatDecimalMoney(
  decimal: string,
  currency: string,
  locale: string = DEFAULT_LOCALE,
): string | null {
  if (!/^-?\d+(?:\.\d+)?$/.test(decimal.trim())) return null;
  return formatter(currency, locale, true).format(decimal.trim() as unknown as number);
}

/** An ISO 4217 code Intl knows ("USD"), as opposed to a unit such as "shares" or "%". */
export function isCurrencyCode(unit: string): boolean {
  if (!/^[A-Z]{3}$/.test(unit)) return false;
  try {
    return Intl.supportedValuesOf('currency').includes(unit);
  } catch {
    return false;
  }
}
