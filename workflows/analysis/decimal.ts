/**
 * Exact decimal arithmetic on strings via scaled bigints: money and ratios never pass
 * through floating point. Deterministic, so it is safe inside workflow code.
 */
const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

interface Scaled {
  units: bigint;
  scale: number;
}

function toScaled(value: string): Scaled {
  const m = DECIMAL.exec(value.trim());
  if (!m) throw new RangeError(`Not a decimal number: "${value}"`);
  const frac = m[3] ?? '';
  const units = BigInt((m[2] ?? '0') + frac) * (m[1] ? -1n : 1n);
  return { units, scale: frac.length };
}

function align(a: Scaled, b: Scaled): [bigint, bigint, number] {
  const scale = Math.max(a.scale, b.scale);
  return [
    a.units * 10n ** BigInt(scale - a.scale),
    b.units * 10n ** BigInt(scale - b.scale),
    scale,
  ];
}

function fromScaled(units: bigint, scale: number): string {
  const negative = units < 0n;
  let digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  let out = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  if (out.includes('.')) out = out.replace(/0+$/, '').replace(/\.$/, '');
  digits = out;
  return negative && digits !== '0' ? `-${digits}` : digits;
}

export function isDecimal(value: string): boolean {
  return DECIMAL.test(value.trim());
}

export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const [x, y] = align(toScaled(a), toScaled(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

export function subtractDecimal(a: string, b: string): string {
  const [x, y, scale] = align(toScaled(a), toScaled(b));
  return fromScaled(x - y, scale);
}

export function addDecimal(a: string, b: string): string {
  const [x, y, scale] = align(toScaled(a), toScaled(b));
  return fromScaled(x + y, scale);
}

export function normalizeDecimal(a: string): string {
  const s = toScaled(a);
  return fromScaled(s.units, s.scale);
}
