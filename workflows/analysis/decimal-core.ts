/**
 * Exact decimal arithmetic on bigint. Money must never pass through binary floating
 * point: 0.1 + 0.2 style drift would make a cited figure differ from the printed one.
 * A value is mantissa / 10^exp with exp >= 0.
 */
export interface Decimal {
  readonly m: bigint;
  readonly exp: number;
}

const TEN = 10n;

function pow10(n: number): bigint {
  return TEN ** BigInt(n);
}

export function dec(input: string | number | bigint | Decimal): Decimal {
  if (typeof input === 'object') return input;
  if (typeof input === 'bigint') return { m: input, exp: 0 };
  if (typeof input === 'number') {
    if (!Number.isInteger(input)) {
      throw new Error('dec(): non-integer numbers are not accepted; pass a string');
    }
    return { m: BigInt(input), exp: 0 };
  }
  const s = input.trim();
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(s);
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) {
    throw new Error(`dec(): not a decimal string: "${input}"`);
  }
  const sign = match[1] === '-' ? -1n : 1n;
  const intPart = match[2] || '0';
  const frac = match[3] ?? '';
  return normalize({ m: sign * BigInt(intPart + frac), exp: frac.length });
}

function normalize(d: Decimal): Decimal {
  let { m, exp } = d;
  while (exp > 0 && m % TEN === 0n) {
    m /= TEN;
    exp -= 1;
  }
  return { m, exp };
}

function align(a: Decimal, b: Decimal): [bigint, bigint, number] {
  const exp = Math.max(a.exp, b.exp);
  return [a.m * pow10(exp - a.exp), b.m * pow10(exp - b.exp), exp];
}

export function add(a: Decimal, b: Decimal): Decimal {
  const [x, y, exp] = align(a, b);
  return normalize({ m: x + y, exp });
}

export function sub(a: Decimal, b: Decimal): Decimal {
  const [x, y, exp] = align(a, b);
  return normalize({ m: x - y, exp });
}

export function mul(a: Decimal, b: Decimal): Decimal {
  return normalize({ m: a.m * b.m, exp: a.exp + b.exp });
}

export function neg(a: Decimal): Decimal {
  return { m: -a.m, exp: a.exp };
}

export function abs(a: Decimal): Decimal {
  return a.m < 0n ? neg(a) : a;
}

export function isZero(a: Decimal): boolean {
  return a.m === 0n;
}

export function cmp(a: Decimal, b: Decimal): number {
  const [x, y] = align(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Division carried to `digits` fractional digits (half away from zero); ratios are rounded again at the end. */
export function div(a: Decimal, b: Decimal, digits = 24): Decimal {
  if (b.m === 0n) throw new Error('div(): division by zero');
  // a/b = (a.m / 10^a.exp) / (b.m / 10^b.exp); scale numerator so the quotient has digits+1 places.
  const shift = digits + 1 + b.exp - a.exp;
  let num = a.m;
  let den = b.m;
  if (shift >= 0) num *= pow10(shift);
  else den *= pow10(-shift);
  const q = num / den;
  return round({ m: q, exp: digits + 1 }, digits);
}

/** Half away from zero, the convention financial statements and the questions use. */
export function round(a: Decimal, dp: number): Decimal {
  if (a.exp <= dp) return a;
  const drop = pow10(a.exp - dp);
  const negative = a.m < 0n;
  const mag = negative ? -a.m : a.m;
  let q = mag / drop;
  const r = mag % drop;
  if (r * 2n >= drop) q += 1n;
  return normalize({ m: negative ? -q : q, exp: dp });
}

/** Multiply by 10^k (k may be negative) exactly: unit conversions such as millions -> units. */
export function shift10(a: Decimal, k: number): Decimal {
  if (k >= 0) return normalize({ m: a.m * pow10(k), exp: a.exp });
  return normalize({ m: a.m, exp: a.exp - k });
}

export function toString(a: Decimal): string {
  const n = normalize(a);
  const negative = n.m < 0n;
  const digits = (negative ? -n.m : n.m).toString();
  if (n.exp === 0) return (negative ? '-' : '') + digits;
  const padded = digits.padStart(n.exp + 1, '0');
  const intPart = padded.slice(0, padded.length - n.exp);
  const frac = padded.slice(padded.length - n.exp);
  return `${negative ? '-' : ''}${intPart}.${frac}`;
}

/** Fixed number of decimals, zero padded: "5409.00". */
export function toFixed(a: Decimal, dp: number): string {
  const r = round(a, dp);
  const s = toString(r);
  if (dp === 0) return s;
  const [i, f = ''] = s.split('.');
  return `${i}.${f.padEnd(dp, '0')}`;
}

export function sum(values: readonly Decimal[]): Decimal {
  return values.reduce((acc, v) => add(acc, v), dec('0'));
}

/**
 * n-th root of a positive decimal to `digits` places, by integer Newton iteration, so a
 * CAGR stays reproducible across platforms instead of depending on Math.pow.
 */
export function nthRoot(a: Decimal, n: number, digits = 20): Decimal {
  if (n < 1 || !Number.isInteger(n)) throw new Error('nthRoot(): n must be a positive integer');
  if (a.m < 0n) throw new Error('nthRoot(): negative radicand');
  if (a.m === 0n) return dec('0');
  if (n === 1) return a;
  // Work on X = a * 10^(n*digits) as an integer; floor(X^(1/n)) / 10^digits is the root.
  const scaled = shift10(a, n * digits);
  const X = scaled.m / pow10(scaled.exp);
  const N = BigInt(n);
  let x = 1n << BigInt(Math.ceil(X.toString(2).length / n) + 1);
  for (;;) {
    const y = ((N - 1n) * x + X / x ** (N - 1n)) / N;
    if (y >= x) break;
    x = y;
  }
  return normalize({ m: x, exp: digits });
}
