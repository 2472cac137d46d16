import { centsToDecimal } from '../amounts';
import type { CheckLog } from './check-log';
import type { MoneyHit } from './labelled-values';
import type { LineTables } from './line-tables';

/** The amounts printed under money labels (and added up from VAT tables). */
export interface LabelledMoney {
  gross: MoneyHit[];
  due: MoneyHit[];
  net: MoneyHit[];
  tax: MoneyHit[];
}

/** The bill's gross, and the net and tax it splits into, as far as the figures agree. */
export interface Totals {
  gross: bigint | null;
  net: bigint | null;
  tax: bigint | null;
  /** A printed net and a printed tax make the gross, and no other tax disagrees. */
  explicitPair: boolean;
  /** Every distinct positive total printed under a total (else a due) label. */
  allGross: bigint[];
  /** What each line table (and each second reading) adds up to. */
  sums: bigint[];
}

const distinct = (xs: bigint[]) => [...new Set(xs.map(String))].map(BigInt);

/**
 * The gross, and its net and tax. Checks gross_labelled and, when a gross is found,
 * net_plus_tax_equals_gross.
 */
export function settleTotals(money: LabelledMoney, tables: LineTables, log: CheckLog): Totals {
  const { netVals, taxVals } = candidateParts(money);
  const sums = tables.withRows.map((tb) => tb.rows.reduce((a, r) => a + r.cents, 0n));
  const { g, allGross } = pickGross(money, netVals, taxVals, sums, log);
  const parts =
    g === null
      ? { n: null, x: null, explicitPair: false }
      : splitGross(g, money.tax, netVals, taxVals, log);
  return {
    gross: g,
    net: parts.n,
    tax: parts.x,
    explicitPair: parts.explicitPair,
    allGross,
    sums,
  };
}

/**
 * The nets and taxes a gross may split into: each printed one, and (when taxes are printed at
 * several rates) the sum of one tax per rate.
 */
function candidateParts({ net, tax }: LabelledMoney): { netVals: bigint[]; taxVals: bigint[] } {
  const netVals = distinct(net.map((n) => n.cents).filter((c) => c >= 0n));
  const taxVals = distinct([
    ...tax.map((x) => x.cents).filter((c) => c >= 0n),
    ...(new Set(tax.filter((x) => x.rate !== undefined).map((x) => x.rate)).size > 1
      ? [
          [
            ...new Map(
              tax.filter((x) => x.rate !== undefined).map((x) => [x.rate, x.cents]),
            ).values(),
          ].reduce((a, b) => a + b, 0n),
        ]
      : []),
  ]);
  return { netVals, taxVals };
}

/**
 * The one positive total printed under a total label (else a due label); of several, the one
 * a net and a tax or a line table add up to.
 */
function pickGross(
  { gross, due }: LabelledMoney,
  netVals: bigint[],
  taxVals: bigint[],
  sums: bigint[],
  log: CheckLog,
): { g: bigint | null; allGross: bigint[] } {
  const fits = (g: bigint) => netVals.some((n) => taxVals.some((x) => n + x === g));
  let grossCands = distinct((gross.length > 0 ? gross : due).map((g) => g.cents)).filter(
    (g) => g > 0n,
  );
  const allGross = grossCands;
  if (grossCands.length > 1) {
    const consistent = grossCands.filter((g) => fits(g) || sums.includes(g));
    grossCands = consistent.length === 1 ? consistent : grossCands;
  }
  const g = grossCands.length === 1 ? grossCands[0]! : null;
  log.check(
    'gross_labelled',
    g !== null ? 'pass' : 'fail',
    g !== null
      ? `${centsToDecimal(g)} under ${[...new Set([...gross, ...due].filter((x) => x.cents === g).map((x) => x.label))].join(', ')}`
      : allGross.length === 0
        ? 'no total is printed under a total label'
        : `several totals disagree: ${allGross.map(centsToDecimal).join(', ')}`,
  );
  return { g, allGross };
}

/**
 * The printed net and tax that make the gross (a positive tax preferred), else the part not
 * printed computed from the one that is.
 */
function splitGross(
  g: bigint,
  tax: MoneyHit[],
  netVals: bigint[],
  taxVals: bigint[],
  log: CheckLog,
): { n: bigint | null; x: bigint | null; explicitPair: boolean } {
  let n: bigint | null = null;
  let x: bigint | null = null;
  let explicitPair = false;
  const pairs = netVals.flatMap((nv) =>
    taxVals.filter((xv) => nv + xv === g).map((xv) => [nv, xv] as const),
  );
  if (pairs.length > 0) {
    // Prefer the pair with a positive tax when a zero-tax reading also adds up.
    const best = pairs.find(([, xv]) => xv > 0n) ?? pairs[0]!;
    [n, x] = best;
    // Every other tax printed must be a part of this one (one rate of several): a tax total
    // that disagrees with its own breakdown leaves the bill to a person.
    const rated = tax.filter((t) => t.rate !== undefined);
    const ratedSum = [...new Map(rated.map((t) => [t.rate, t.cents])).values()].reduce(
      (a, b) => a + b,
      0n,
    );
    const parts = new Set(ratedSum === x ? rated.map((t) => String(t.cents)) : []);
    const chosen = x;
    const stray = distinct(
      tax
        .filter(
          (t) =>
            t.cents > 0n &&
            t.cents !== chosen &&
            !parts.has(String(t.cents)) &&
            !t.label.endsWith('(row)'),
        )
        .map((t) => t.cents),
    );
    explicitPair = stray.length === 0;
    log.check(
      'net_plus_tax_equals_gross',
      stray.length === 0 ? 'pass' : 'fail',
      stray.length === 0
        ? `${centsToDecimal(n)} + ${centsToDecimal(x)} = ${centsToDecimal(g)}`
        : `${centsToDecimal(n)} + ${centsToDecimal(x)} = ${centsToDecimal(g)}, but the bill also prints a tax of ${stray.map(centsToDecimal).join(', ')}`,
    );
  } else if (netVals.length > 0 && taxVals.length > 0) {
    log.check(
      'net_plus_tax_equals_gross',
      'fail',
      `no printed net (${netVals.map(centsToDecimal).join(', ')}) plus tax (${taxVals.map(centsToDecimal).join(', ')}) makes ${centsToDecimal(g)}`,
    );
  } else if (taxVals.length === 1) {
    x = taxVals[0]!;
    n = g - x;
    log.check(
      'net_plus_tax_equals_gross',
      'not_applicable',
      `no net printed; net = gross - tax = ${centsToDecimal(n)}`,
    );
  } else if (netVals.length === 1 && netVals[0]! <= g) {
    n = netVals[0]!;
    x = g - n;
    log.check(
      'net_plus_tax_equals_gross',
      'not_applicable',
      `no tax printed; tax = gross - net = ${centsToDecimal(x)}`,
    );
  } else
    log.check(
      'net_plus_tax_equals_gross',
      'not_applicable',
      'neither a net nor a tax amount is printed',
    );
  return { n, x, explicitPair };
}

/** The tax against its stated rate. Checks tax_matches_rate; the rate, if printed. */
export function checkTaxRate(
  tax: MoneyHit[],
  { net: n, tax: x }: Totals,
  log: CheckLog,
): number | null {
  let taxRate: number | null = null;
  if (x !== null && n !== null) {
    const rated = tax.filter((t) => t.cents === x && t.rate !== undefined);
    if (rated.length > 0) {
      const t = rated[0]!;
      taxRate = t.rate!;
      const base = t.base ?? n;
      const expected = (base * BigInt(Math.round(t.rate! * 1000)) + 50000n) / 100000n;
      const diff = expected > x ? expected - x : x - expected;
      log.check(
        'tax_matches_rate',
        diff <= 1n ? 'pass' : 'fail',
        `${t.rate}% of ${centsToDecimal(base)} = ${centsToDecimal(expected)}, printed ${centsToDecimal(x)}`,
      );
    } else log.check('tax_matches_rate', 'not_applicable', 'no rate printed beside the tax');
  }
  return taxRate;
}

/** The item lines that add up to the bill's net or gross, and which of the two. */
export interface LineItems {
  lines: { description: string; cents: bigint }[];
  basis: 'net' | 'gross' | null;
}

/**
 * Some table (or all of them together) adds up to the net or the gross. Checks
 * lines_sum.
 */
export function matchLineItems(
  { found, withRows }: LineTables,
  { gross: g, net: n, sums }: Totals,
  log: CheckLog,
): LineItems {
  let lines_: { description: string; cents: bigint }[] = [];
  let linesBasis: 'net' | 'gross' | null = null;
  if (withRows.length > 0 && g !== null) {
    const options = [
      ...withRows,
      { rows: found.flatMap((tb) => tb.rows) },
      { rows: found.flatMap((tb) => tb.rows.map((r) => ({ ...r, cents: r.alt }))) },
    ];
    for (const tb of options) {
      const s = tb.rows.reduce((a, r) => a + r.cents, 0n);
      if (n !== null && s === n && n !== g) {
        lines_ = tb.rows;
        linesBasis = 'net';
        break;
      }
      if (s === g) {
        lines_ = tb.rows;
        linesBasis = 'gross';
        break;
      }
    }
    log.check(
      'lines_sum',
      linesBasis ? 'pass' : 'fail',
      linesBasis
        ? `${lines_.length} line(s) add up to the ${linesBasis} ${centsToDecimal(linesBasis === 'net' ? n! : g)}`
        : `the lines add up to ${sums.map(centsToDecimal).join(' / ')}, neither the net nor the gross`,
    );
  } else log.check('lines_sum', 'not_applicable', 'no line table found');
  return { lines: lines_, basis: linesBasis };
}

/**
 * The gross confirmed by something independent of its own label: a printed net and
 * tax, the lines, or a printed zero tax with two total labels agreeing. Checks gross_confirmed.
 */
export function confirmGross(
  { gross, due, tax }: LabelledMoney,
  { gross: g, tax: x, explicitPair }: Totals,
  linesBasis: LineItems['basis'],
  log: CheckLog,
): void {
  const zeroTaxTwice =
    x === 0n &&
    tax.some((t) => t.cents === 0n) &&
    new Set([...gross, ...due].filter((h) => h.cents === g).map((h) => h.label)).size >= 2;
  if (g !== null)
    log.check(
      'gross_confirmed',
      explicitPair || linesBasis !== null || zeroTaxTwice ? 'pass' : 'fail',
      explicitPair
        ? 'printed net + printed tax'
        : linesBasis
          ? 'sum of the lines'
          : zeroTaxTwice
            ? 'a printed zero tax and two total labels agreeing'
            : 'nothing but its own label supports the total',
    );
}
