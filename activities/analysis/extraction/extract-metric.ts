import { inAdjustedBlock } from './adjusted-block';
import { cmp, dec } from '../../../workflows/analysis/decimal-core';
import { getMetric, type MetricDefinition } from './metric-catalog';
import { convertScale } from './scale';
import { periodLabel, pinToCalendar } from './period-words';
import {
  ExtractMetricInputSchema,
  type CandidateSummary,
  type DocumentIndex,
  type ExtractMetricInput,
  type ExtractMetricResult,
  type Unit,
} from './extract-metric-schemas';
import { indexDocument } from './document-index';
import {
  collectCandidates,
  contradictPrimary,
  summarize,
  type Candidate,
} from './metric-candidates';

export {
  UnitSchema,
  CitationSchema,
  ExtractedValueSchema,
  CandidateSummarySchema,
  ExtractMetricInputSchema,
  ExtractMetricFoundSchema,
  ExtractMetricNotFoundSchema,
  ExtractMetricResultSchema,
  type Unit,
  type Citation,
  type ExtractedValue,
  type CandidateSummary,
  type ExtractMetricInput,
  type ExtractMetricFound,
  type ExtractMetricNotFound,
  type ExtractMetricResult,
  type DocumentIndex,
} from './extract-metric-schemas';
export { indexDocument, learnOffsetFromTables } from './document-index';

function unitFor(metric: MetricDefinition): Unit {
  switch (metric.kind) {
    case 'money':
      return 'USD';
    case 'per_share':
      return 'USD/share';
    case 'count':
      return 'shares';
    case 'ratio_percent':
      return 'percent';
  }
}

/** Confidence ceiling when two equally good rows disagree: below the 0.70 answer floor. */
const AMBIGUOUS_CAP = 0.6;

export function extractMetric(rawInput: ExtractMetricInput): ExtractMetricResult {
  const input = ExtractMetricInputSchema.parse(rawInput);
  return extractMetricFromIndex(indexDocument(rawInput.pages), input);
}

export function extractMetricFromIndex(
  doc: DocumentIndex,
  asked: Omit<ExtractMetricInput, 'pages'>,
  /**
   * A line item the catalog does not name, built from the filing's own row labels
   * (definition/line-item.ts); read by the same column, scale and conflict rules.
   */
  lineItem?: MetricDefinition,
): ExtractMetricResult {
  let input = asked;
  const metric = lineItem ?? getMetric(input.metric);
  if (!metric) {
    return {
      status: 'not_found',
      metric: input.metric,
      period: input.period,
      reason: `unknown metric "${input.metric}"`,
      candidates: [],
    };
  }
  // A date the question quotes is placed in this filing's fiscal calendar first.
  const pinned = pinToCalendar(input.period, { ...doc, docPeriod: input.docPeriod });
  if (!pinned.ok)
    return {
      status: 'not_found',
      metric: metric.id,
      period: input.period,
      reason: pinned.reason,
      candidates: [],
    };
  input = { ...input, period: pinned.period };
  const rejected: CandidateSummary[] = [];
  const cands = collectCandidates(doc, metric, { ...input, pages: [] }, rejected);
  if (cands.length === 0) {
    return {
      status: 'not_found',
      metric: metric.id,
      period: input.period,
      reason:
        rejected.length > 0
          ? `no usable row for ${metric.name} ${periodLabel(input.period)}: ${rejected[0]!.note}`
          : `no row labelled like ${metric.name}`,
      candidates: rejected.slice(0, 10),
    };
  }
  contradictPrimary(doc, metric, input, cands, rejected);
  if (cands.length === 0) {
    return {
      status: 'not_found',
      metric: metric.id,
      period: input.period,
      reason: `no usable row for ${metric.name} ${periodLabel(input.period)}: ${rejected[rejected.length - 1]?.note ?? 'all rows contradict the primary statement'}`,
      candidates: rejected.slice(-10),
    };
  }
  // A row of an earnings release's non-GAAP block is not the reported figure: it ranks after
  // every reported row, and is no rival of one (adjusted-block.ts).
  const adjusted = new Set(cands.filter((c) => inAdjustedBlock(c.page, c.line)));
  cands.sort(
    (a, b) =>
      Number(adjusted.has(a)) - Number(adjusted.has(b)) ||
      b.statementFactor - a.statementFactor ||
      a.rank - b.rank ||
      b.labelScore - a.labelScore ||
      b.confidence - a.confidence ||
      a.page.page - b.page.page,
  );
  const best = cands[0]!;
  let confidence = best.confidence;
  const toUnits = (c: Candidate) =>
    metric.kind === 'money' || metric.kind === 'count'
      ? convertScale(c.amount, c.scale, 'units')
      : c.amount;
  const bestUnits = toUnits(best);
  const rivals = cands.filter(
    (c) =>
      c !== best &&
      adjusted.has(c) === adjusted.has(best) &&
      c.statementFactor === best.statementFactor &&
      c.rank === best.rank &&
      c.labelScore >= best.labelScore - 0.05 &&
      // A rival read through a layout guess is weaker evidence than a clean match.
      c.confidence >= best.confidence - 0.15 &&
      cmp(dec(toUnits(c)), dec(bestUnits)) !== 0,
  );
  const notes: CandidateSummary[] = [];
  if (rivals.length > 0) {
    // The same line item printed twice at the same authority with different values:
    // a restatement, a parent-only statement, a segment table. Do not guess.
    confidence = Math.min(confidence, AMBIGUOUS_CAP);
    for (const r of rivals.slice(0, 5))
      notes.push(summarize(r, 'conflicting value for the same label and period'));
  }
  const agreeing = cands.filter(
    (c) => c !== best && cmp(dec(toUnits(c)), dec(bestUnits)) === 0,
  ).length;
  for (const c of cands.filter((c) => c !== best && !rivals.includes(c)).slice(0, 5))
    notes.push(summarize(c, 'lower-ranked match'));
  const targetScale =
    metric.kind === 'money' || metric.kind === 'count'
      ? (input.targetScale ?? best.scale)
      : 'units';
  const amount =
    metric.kind === 'money' || metric.kind === 'count'
      ? convertScale(best.amount, best.scale, targetScale)
      : best.amount;
  const line = best.line;
  return {
    status: 'found',
    metric: metric.id,
    period: input.period,
    value: { amount, unit: unitFor(metric), scale: targetScale, printed: best.printed },
    citation: {
      page: best.page.page,
      charStart: line.start,
      charEnd: line.end,
      quote: best.page.text.slice(line.start, line.end),
    },
    confidence:
      Math.round(
        Math.min(1, confidence + (rivals.length === 0 && agreeing > 0 ? 0.01 : 0)) * 1000,
      ) / 1000,
    matchedLabel: best.matchedLabel,
    periodHeader: best.periodHeader,
    statement: best.section.title || best.section.kind,
    alternatives: notes,
  };
}
