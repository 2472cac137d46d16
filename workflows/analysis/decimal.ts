/**
 * Decimal helpers on strings for workflow and activity code, over the one exact bigint
 * implementation (decimal-core.ts): money and ratios never pass through floating point.
 * Deterministic, so safe inside workflow code.
 */
import { add, cmp, dec, sub, toString } from './decimal-core';

export * from './decimal-core';

const DECIMAL = /^-?\d+(\.\d+)?$/;

export function isDecimal(value: string): boolean {
  return DECIMAL.test(value.trim());
}

function parse(value: string) {
  if (!isDecimal(value)) throw new RangeError(`Not a decimal number: "${value}"`);
  return dec(value.trim());
}

export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const c = cmp(parse(a), parse(b));
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

export function subtractDecimal(a: string, b: string): string {
  return toString(sub(parse(a), parse(b)));
}

export function addDecimal(a: string, b: string): string {
  return toString(add(parse(a), parse(b)));
}

export function normalizeDecimal(a: string): string {
  return toString(parse(a));
}
