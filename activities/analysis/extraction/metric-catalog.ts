/**
 * The metric catalog's entry point: looks metrics up by id and matches printed line labels
 * against their synonyms. The definitions themselves are data in metric-definitions.ts.
 */
import { METRICS } from './metric-definitions';
import type { MetricDefinition } from './metric-types';

export { METRICS } from './metric-definitions';
export {
  MetricKindSchema,
  StatementKindSchema,
  type MetricDefinition,
  type MetricKind,
  type StatementKind,
} from './metric-types';

const BY_ID = new Map(METRICS.map((m) => [m.id, m]));

export function getMetric(id: string): MetricDefinition | undefined {
  return BY_ID.get(id);
}

export const METRIC_IDS = METRICS.map((m) => m.id);

/**
 * Line labels compare after this normalization: case, punctuation, footnote markers,
 * apostrophes and "&" vary between filers for the same line item.
 */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[’'`]/g, '')
    .replace(/\((?:note|notes)\s*[\d, and]+\)/g, ' ')
    .replace(/\((?:\d{1,2}|[a-z])\)/g, ' ')
    .replace(/&/g, ' and ')
    .replace(/\bcommon stockholders\b/g, 'stockholders')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface LabelMatch {
  score: number;
  rank: number;
  synonym: string;
}

/**
 * Score how well a row label names the metric. Exact (normalized) equality is strong;
 * a synonym followed by a qualifier after a comma or parenthesis ("Accounts receivable,
 * net of allowances of $132") is nearly as strong; any other prefix is weak.
 */
export function matchLabel(
  metric: MetricDefinition,
  rawLabel: string,
  normalized?: string,
): LabelMatch | null {
  const norm = normalized ?? normalizeLabel(rawLabel);
  if (norm === '') return null;
  if (metric.exclude?.some((re) => re.test(norm))) return null;
  let best: LabelMatch | null = null;
  metric.labels.forEach((syn, rank) => {
    let score = 0;
    if (syn.endsWith(' *')) {
      const stem = syn.slice(0, -2);
      if (norm.startsWith(stem + ' ') && norm.length > stem.length + 1) score = 1;
    } else if (norm === syn) {
      score = 1;
    } else if (norm.startsWith(syn + ' ')) {
      const rawLower = rawLabel.toLowerCase().replace(/[’'`]/g, '');
      const synWords = syn.split(' ');
      // Find where the synonym's last word ends in the raw label, then look at what follows.
      const lastWord = synWords[synWords.length - 1] ?? '';
      const idx = rawLower.indexOf(lastWord);
      const after = idx >= 0 ? rawLower.slice(idx + lastWord.length).trimStart() : '';
      score = /^[,(]/.test(after) ? 0.9 : 0.7;
    }
    if (score > 0 && (!best || score > best.score || (score === best.score && rank < best.rank))) {
      best = { score, rank, synonym: syn };
    }
  });
  return best;
}
