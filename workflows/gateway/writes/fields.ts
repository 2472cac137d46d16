/**
 * The fields every write kind builds on: currencies, amounts, dates, ids and text. Money is
 * integer minor units as a digit string (JSON has no bigint, and floats are refused); each
 * line or amount names its ISO 4217 currency.
 */
import { z } from 'zod';

// Intl knows the ISO 4217 list; deterministic for a given Node version, so safe in workflows.
export const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
export const CurrencySchema = z
  .string()
  .refine((c) => /^[A-Z]{3}$/.test(c) && ISO_CURRENCIES.has(c), {
    message: 'an ISO 4217 currency code such as USD or EUR',
  });

const digits = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v);
/** A non-negative amount in minor units ("12500" = 125.00). Numbers are accepted when whole. */
export const MinorUnitsSchema = z.preprocess(
  digits,
  z
    .string()
    .regex(
      /^(0|[1-9][0-9]{0,14})$/,
      'an amount in integer minor units, not negative, below 10^15 (e.g. "12500" for 125.00)',
    ),
);
/** A positive amount in minor units. */
export const PositiveMinorUnitsSchema = z.preprocess(
  digits,
  z
    .string()
    .regex(
      /^[1-9][0-9]{0,14}$/,
      'a positive amount in integer minor units, below 10^15 (e.g. "12500" for 125.00)',
    ),
);

export const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine(
    (d) =>
      !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) &&
      new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    { message: 'not a calendar date' },
  )
  .refine((d) => d >= '1900-01-01' && d <= '2200-12-31', {
    message: 'a date between 1900 and 2200',
  });
export const IdSchema = z.string().min(1).max(200);
export const NewIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, 'letters, digits, dot, dash, underscore');
export const Text = (max: number) => z.string().trim().min(1).max(max);

/** Decimal digits only. */
export const DIGITS = /^[0-9]+$/;
