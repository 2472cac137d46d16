import { dec, toFixed, toString, type Decimal } from '../../../../workflows/analysis/decimal-core';
import { askedRounding } from '../asked-rounding';
import { convertScale, parseRequestedScale, type Scale } from '../scale';

/** "1234567.5" → "1,234,567.5" (sign kept). */
export function withThousands(s: string): string {
  const neg = s.startsWith('-');
  const [i = '0', f] = (neg ? s.slice(1) : s).split('.');
  return `${neg ? '-' : ''}${i.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${f !== undefined ? `.${f}` : ''}`;
}

/** A rounded amount in a scale as an answer prints it: "-$1,213 million". */
export function dollarsText(rounded: string, scale: Scale): string {
  const word = { units: '', thousands: ' thousand', millions: ' million', billions: ' billion' }[
    scale
  ];
  return `${rounded.startsWith('-') ? '-' : ''}$${withThousands(rounded.replace('-', ''))}${word}`;
}

export interface Presented {
  /** The scale the question asks the amount in (null: none asked, or not an amount). */
  requested: Scale | null;
  /** The scale the answer is given in: the asked one, else the table's ("units" for ratios). */
  outScale: Scale;
  /** The decimal places the question asks for, or null. */
  rounding: number | null;
  /** The value in `outScale`, rounded as asked (else exact up to 4 places, else `places`). */
  rounded: string;
}

/**
 * How a computed value is given: an amount (in units) in the scale the question asks, else
 * the table's; rounded to the places the question asks, else exact when short, else to
 * `places`.
 */
export function presentValue(
  question: string,
  value: Decimal,
  opts: { amount: boolean; tableScale: Scale | null; places: number },
): Presented {
  const requested = opts.amount ? parseRequestedScale(question) : null;
  const outScale: Scale = opts.amount ? (requested ?? opts.tableScale ?? 'units') : 'units';
  const inScale = opts.amount ? dec(convertScale(toString(value), 'units', outScale)) : value;
  const rounding = askedRounding(question);
  const exact = toString(inScale);
  const rounded =
    rounding !== null
      ? toFixed(inScale, rounding)
      : (exact.split('.')[1] ?? '').length <= 4
        ? exact
        : toFixed(inScale, opts.places);
  return { requested, outScale, rounding, rounded };
}
