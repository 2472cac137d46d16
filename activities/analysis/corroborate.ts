import type { Citation } from '../../workflows/analysis/evidence';

/**
 * A computed ratio that the filing also prints ("Effective tax rate   21.6%   24.6%") is
 * cited where it is printed, beside the inputs it was computed from: a reader sees the
 * company's own figure, and the eval's evidence page is the page that states it.
 */
const PERCENT = /(-?\d+(?:\.\d+)?)\s?%/g;

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

/** Numbers the answer states (percent figures), without fiscal years. */
export function statedPercents(answer: string): number[] {
  return [...answer.matchAll(PERCENT)].map((m) => Number(m[1]));
}

export function corroboratingCitations(
  docId: string,
  pages: { page: number; text: string }[],
  phrase: string,
  values: number[],
  max = 2,
): Citation[] {
  const needle = phrase.toLowerCase().replace(/[_-]+/g, ' ').trim();
  if (needle.split(' ').length < 2 || values.length === 0) return [];
  const out: Citation[] = [];
  for (const pg of pages) {
    let offset = 0;
    for (const line of pg.text.split('\n')) {
      const start = offset;
      offset += line.length + 1;
      if (!line.toLowerCase().includes(needle)) continue;
      const printed = [...line.matchAll(PERCENT)].map((m) => ({
        value: Number(m[1]),
        decimals: (m[1]?.split('.')[1] ?? '').length,
      }));
      const agrees = values.some((v) => printed.some((p) => roundTo(v, p.decimals) === p.value));
      if (agrees) {
        out.push({
          docId,
          page: pg.page,
          charStart: start,
          charEnd: start + line.length,
          quote: line,
        });
        if (out.length >= max) return out;
        break;
      }
    }
  }
  return out;
}

/**
 * Does the filing print this ratio as a row of its own ("Gross margin   38.5%   37.9%") with
 * figures none of which agree with ours? Then our computation read the wrong lines or the
 * company defines the ratio differently: a person must look, whatever the confidence.
 */
export function printedRatioDisagrees(
  pages: { page: number; text: string }[],
  phrase: string,
  values: number[],
): Citation | null {
  const needle = phrase.toLowerCase().replace(/[_-]+/g, ' ').trim();
  if (needle.split(' ').length < 2 || values.length === 0) return null;
  let disagreeing: Citation | null = null;
  for (const pg of pages) {
    let offset = 0;
    for (const line of pg.text.split('\n')) {
      const start = offset;
      offset += line.length + 1;
      if (!line.trim().toLowerCase().startsWith(needle)) continue;
      const printed = [...line.matchAll(PERCENT)].map((m) => ({
        value: Number(m[1]),
        decimals: (m[1]?.split('.')[1] ?? '').length,
      }));
      if (printed.length === 0) continue;
      if (values.some((v) => printed.some((p) => roundTo(v, p.decimals) === p.value))) return null;
      disagreeing ??= {
        docId: '',
        page: pg.page,
        charStart: start,
        charEnd: start + line.length,
        quote: line,
      };
    }
  }
  return disagreeing;
}
