import { abs, cmp, dec, div, mul, sub, toString } from '../../../workflows/analysis/decimal-core';
import type { RowCell } from './numbers';

/**
 * Which cells of a table row are its period columns, when the row prints more values than its
 * header names periods: an earnings release's "amount, percent of sales" pairs, or the periods
 * followed by a change column. The table reader (extract-metric.ts) weighs a row read this way
 * by the layout's factor, unless the row's own arithmetic confirms it.
 */

const percentLike = (c: RowCell) =>
  c.parsed.percent || c.parsed.dash || Math.abs(Number(c.parsed.value)) <= 100;

/**
 * Reads a row with more values than period columns when the extras are explainable:
 * each period's amount followed by its percentage (optionally then a change column), or
 * the periods followed by a dollar change (the difference of two of them) and/or a
 * percentage change. Anything else means the header does not describe the columns.
 */
export function extraColumnLayout(
  cells: readonly RowCell[],
  H: number,
): { cells: RowCell[]; factor: number; percents?: RowCell[] } | null {
  if (H >= 1 && (cells.length === 2 * H || cells.length === 2 * H + 1)) {
    const paired = cells.slice(0, 2 * H);
    const trailing = cells.slice(2 * H);
    if (paired.every((c, k) => k % 2 === 0 || percentLike(c)) && trailing.every(percentLike))
      // MD&A layout: each period prints an amount followed by its percentage.
      return {
        cells: paired.filter((_, k) => k % 2 === 0),
        factor: 0.85,
        percents: paired.filter((_, k) => k % 2 === 1),
      };
  }
  const periods = cells.slice(0, H);
  const extras = cells.slice(H);
  if (extras.length > 2) return null;
  const isDifference = (c: RowCell) => {
    if (H < 2) return false;
    const a = dec(periods[0]!.parsed.value);
    const b = dec(periods[1]!.parsed.value);
    const v = dec(c.parsed.value);
    const d = toString(sub(a, b));
    return cmp(abs(v), abs(dec(d))) === 0 && !c.parsed.percent;
  };
  if (extras.length === 1 && (percentLike(extras[0]!) || isDifference(extras[0]!)))
    return { cells: periods, factor: isDifference(extras[0]!) ? 0.85 : 0.75 };
  if (
    extras.length === 2 &&
    (isDifference(extras[0]!) || extras[0]!.parsed.dash) &&
    percentLike(extras[1]!)
  )
    return { cells: periods, factor: 0.85 };
  if (extras.length === 2 && extras.every((c) => c.parsed.percent || c.parsed.dash))
    return { cells: periods, factor: 0.75 };
  return null;
}

/**
 * The "amount, percent of sales" layout confirmed by its own arithmetic: the table prints a
 * base row at 100.0 for every period, and each percentage on this row is its amount over that
 * base, within one unit of the printed precision. Then the amounts are certainly the period columns (no
 * guessing which cells are amounts); anything else leaves the layout's doubt in place.
 */
export function percentsOfBaseAgree(
  amounts: readonly RowCell[],
  percents: readonly RowCell[],
  tableRows: readonly { cells: readonly RowCell[] }[],
): boolean {
  const H = amounts.length;
  const base = tableRows
    .map((r) => extraColumnLayout(r.cells, H))
    .find((l) => l?.percents?.every((c) => cmp(abs(dec(c.parsed.value)), dec('100')) === 0));
  if (!base || percents.length !== H) return false;
  return amounts.every((a, k) => {
    const pct = percents[k]!;
    const b = dec(base.cells[k]!.parsed.value);
    if (cmp(b, dec('0')) === 0 || pct.parsed.dash || a.parsed.dash) return false;
    const decimals = (pct.parsed.value.split('.')[1] ?? '').length;
    const actual = div(mul(abs(dec(a.parsed.value)), dec('100')), abs(b), 12);
    // One unit of the last printed digit: filers round (or cut) the percentage from amounts
    // they hold unrounded (J&J prints 27.4 for 6,512 / 23,706 = 27.47); a cell that is not this
    // period's amount lands far outside.
    const tolerance = dec(`${decimals === 0 ? '1' : `0.${'0'.repeat(decimals - 1)}1`}`);
    return cmp(abs(sub(actual, abs(dec(pct.parsed.value)))), tolerance) <= 0;
  });
}
