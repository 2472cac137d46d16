/**
 * Grading of delivered answers against FinanceBench gold answers (definitions in
 * shared/datasets/README.md): a number is right within 1% relative, or exactly equal after
 * the gold's own rounding; yes/no must match the gold's yes/no. Scale words (thousand,
 * million, billion) are applied when printed; a bare number is also compared as printed,
 * since questions fix the unit ("in USD millions").
 */
const NUMBER =
  /(-)?(\()?\$?\s?(\d[\d,]*(?:\.\d+)?)(\))?\s*(%|percent|thousand|million|billion|bn|mn|k\b)?/gi;

export interface GoldNumber {
  /** The number as printed, sign applied. */
  value: number;
  decimals: number;
  /** Multiplier implied by a printed scale word (1 when none). */
  scale: number;
  percent: boolean;
}

const SCALES: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  billion: 1e9,
  bn: 1e9,
};

export function numbersOf(text: string): GoldNumber[] {
  const out: GoldNumber[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const digits = (m[3] ?? '').replace(/,/g, '');
    if (!digits) continue;
    const word = (m[5] ?? '').toLowerCase();
    // "(1,577)" is negative; "(24.6% in FY2021 …)" is only a parenthesis.
    const negative = m[1] === '-' || (m[2] === '(' && m[4] === ')');
    const decimals = digits.includes('.') ? (digits.split('.')[1] ?? '').length : 0;
    out.push({
      value: (negative ? -1 : 1) * Number(digits),
      decimals,
      scale: SCALES[word] ?? 1,
      percent: word === '%' || word === 'percent',
    });
  }
  return out;
}

/**
 * Within 1% relative, or equal once both are rounded as the gold is printed: in the gold's
 * own units (`unit` is 1 for the printed figure, the gold's scale for the scaled value), so
 * "$348 million" never equals "$1,028 million" by both rounding to 0 billions.
 */
function close(ours: number, gold: GoldNumber, goldValue: number, unit: number): boolean {
  if (goldValue === 0) return Math.abs(ours) < 1e-9;
  if (Math.abs(ours - goldValue) / Math.abs(goldValue) <= 0.01) return true;
  const f = 10 ** gold.decimals;
  return Math.round((ours / unit) * f) === Math.round((goldValue / unit) * f);
}

/**
 * Is one delivered number consistent with a gold number, under any printed interpretation?
 * A percent is never the same answer as an amount or a bare ratio, whatever the digits.
 */
export function numberMatches(ours: GoldNumber, gold: GoldNumber): boolean {
  if (ours.percent !== gold.percent) return false;
  const candidates = new Set([ours.value, ours.value * ours.scale]);
  const goldValues: [number, number][] = [
    [gold.value, 1],
    [gold.value * gold.scale, gold.scale],
  ];
  for (const o of candidates)
    for (const [g, unit] of goldValues) if (close(o, gold, g, unit)) return true;
  return false;
}

export type GoldKind = 'number' | 'yes_no' | 'text';

export function goldKind(answer: string): GoldKind {
  const t = answer.trim();
  if (/^(yes|no)\b/i.test(t)) return 'yes_no';
  return /^[-($]*\s?\d[\d,]*(\.\d+)?\s*(%|percent|thousand|million|billion)?\)?\.?$/i.test(t)
    ? 'number'
    : 'text';
}

export interface Grade {
  correct: boolean;
  method: 'number' | 'number_in_text' | 'yes_no' | 'ungradable';
}

/**
 * A delivered answer is right when its number matches the gold figure (or, for a sentence
 * gold, a figure the sentence states); a delivered answer that cannot be graded this way
 * counts as wrong — the platform must not deliver what it cannot back with a figure.
 */
export function gradeAnswer(delivered: string, gold: string): Grade {
  const kind = goldKind(gold);
  if (kind === 'yes_no') {
    const ours = /^(yes|no)\b/i.exec(delivered.trim())?.[1]?.toLowerCase();
    const theirs = /^(yes|no)\b/i.exec(gold.trim())?.[1]?.toLowerCase();
    return { correct: ours !== undefined && ours === theirs, method: 'yes_no' };
  }
  const stated = numbersOf(delivered);
  const ours = stated[0];
  if (!ours) return { correct: false, method: 'ungradable' };
  const golds = numbersOf(gold);
  if (kind === 'number')
    return { correct: golds[0] !== undefined && numberMatches(ours, golds[0]), method: 'number' };
  // A sentence gold states figures ("dropped from 24.6% in FY2021 to 21.6% in FY2022"): the
  // answer is right when its headline figure is among them, or when every figure it states
  // besides fiscal years is ("-3.0 percentage points (24.6% in FY2021 to 21.6% in FY2022)").
  const inGold = (n: GoldNumber) => golds.some((g) => numberMatches(n, g));
  const figures = stated.slice(1).filter((n) => !isYear(n));
  return {
    correct: inGold(ours) || (figures.length >= 2 && figures.every(inGold)),
    method: 'number_in_text',
  };
}

function isYear(n: GoldNumber): boolean {
  return n.decimals === 0 && n.scale === 1 && !n.percent && n.value >= 1900 && n.value <= 2100;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx] as number;
}

export interface CalibrationBucket {
  /** [from, to): confidence range; the last bucket includes 1.0. */
  from: number;
  to: number;
  delivered: number;
  correct: number;
  accuracy: number | null;
}

/** Bucket edges: the delivery gate's floor, then finer steps up to certainty. */
export const CALIBRATION_EDGES = [0, 0.85, 0.9, 0.95, 1] as const;

/**
 * Accuracy of delivered answers by confidence bucket: confidence must mean what it says
 * (answers at ≥ 0.95 right at least 95% of the time).
 */
export function calibrationTable(
  items: readonly { confidence: number; correct: boolean }[],
  edges: readonly number[] = CALIBRATION_EDGES,
): CalibrationBucket[] {
  const out: CalibrationBucket[] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const from = edges[k]!;
    const to = edges[k + 1]!;
    const last = k + 2 === edges.length;
    const inside = items.filter(
      (i) => i.confidence >= from && (i.confidence < to || (last && i.confidence <= to)),
    );
    const correct = inside.filter((i) => i.correct).length;
    out.push({
      from,
      to,
      delivered: inside.length,
      correct,
      accuracy: inside.length === 0 ? null : correct / inside.length,
    });
  }
  return out;
}
