/**
 * Percentiles and ratios of the benches, one definition for all of them: the nearest-rank
 * percentile on the sorted samples (index ⌊p/100 · n⌋, capped at the last), figures rounded to
 * one decimal.
 */
export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export const round1 = (n: number): number => Math.round(n * 10) / 10;

/** The p-th percentile of samples already sorted ascending; 0 when there are none. */
export const percentileOfSorted = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

export function percentiles(samples: readonly number[]): Percentiles {
  const s = [...samples].sort((a, b) => a - b);
  return {
    p50: round1(percentileOfSorted(s, 50)),
    p95: round1(percentileOfSorted(s, 95)),
    p99: round1(percentileOfSorted(s, 99)),
  };
}

/**
 * How many times slower the baseline is than the system under test, per percentile
 * (baseline ÷ measured, two decimals); null where the measured figure is 0 or missing, so a
 * division by zero never shows as a ratio.
 */
export function latencyRatio(
  baseline: Pick<Percentiles, 'p50' | 'p95'>,
  measured: Pick<Percentiles, 'p50' | 'p95'>,
): { p50: number | null; p95: number | null } {
  const r = (b: number, m: number) =>
    m > 0 && Number.isFinite(b) ? Math.round((b / m) * 100) / 100 : null;
  return { p50: r(baseline.p50, measured.p50), p95: r(baseline.p95, measured.p95) };
}
