import {
  canonicalOperation,
  splitTopLevel,
  type AnswerForm,
  type DeliveredFormula,
  type Operation,
  type QuantityKind,
} from '../../../workflows/analysis/answer-form';
import type { Aggregate } from './formula-catalog';
import { getMetric } from './metric-catalog';
import { periodLabel } from './period-words';
import type { ParsedQuestion, RequestedUnit } from './question-parser';
import type { Period } from './statement-table';

/**
 * The question parser's asked form, and the delivered form of what extraction computed. One
 * unit↔kind map serves both, so "USD" can never mean two kinds.
 */
export function kindOfUnit(unit: RequestedUnit | string | undefined | null): QuantityKind | null {
  switch (unit) {
    case 'USD':
      return 'currency_amount';
    case 'percent':
      return 'percent';
    case 'ratio':
      return 'ratio';
    case 'days':
      return 'days';
    case 'shares':
      return 'count';
    case 'USD/share':
      return 'per_share';
    default:
      return null;
  }
}

export function operationOfAggregate(a: Aggregate): Operation {
  switch (a.kind) {
    case 'single':
      return 'level';
    case 'average':
    case 'average_balance':
      return 'average';
    case 'change':
      return 'change';
    case 'growth':
      return 'percent_change';
    case 'cagr':
      return 'cagr';
  }
}

function periodsOfAggregate(a: Aggregate, single: Period | undefined): string[] | null {
  if (a.kind === 'single' || a.kind === 'average_balance') {
    if (!single) return null;
    return [periodLabel(single)];
  }
  if (a.kind === 'average')
    return Array.from({ length: a.endYear - a.startYear + 1 }, (_, i) => `FY${a.startYear + i}`);
  return [`FY${a.startYear}`, `FY${a.endYear}`];
}

const scaled = (k: QuantityKind | null) => k === 'currency_amount' || k === 'count';

/** What the question parser read the question to ask; null when it could not map it. */
export function askedFormFromParsed(p: ParsedQuestion): AnswerForm | null {
  if (p.kind === 'unsupported') return null;
  const kind = kindOfUnit(p.unit);
  const periods = periodsOfAggregate(p.aggregate, p.period);
  return {
    kind,
    scale: scaled(kind) ? (p.requestedScale ?? null) : null,
    currency: kind === 'currency_amount' || kind === 'per_share' ? 'USD' : null,
    rounding: p.rounding ?? null,
    periods,
    periodCount: periods?.length ?? null,
    operation: canonicalOperation(kind, operationOfAggregate(p.aggregate)),
    definition: null,
  };
}

/** What a code answer actually is: its unit, stated scale and rounding, computed years, operation. */
export function deliveredFormOfAnswer(a: {
  unit: string;
  scale: string;
  roundedTo: number | null;
  years: number[];
  quarter: number | null;
  aggregate: Aggregate;
  /** The dated or year-to-date period the figures were read for, when there was one. */
  readPeriod?: Period;
}): AnswerForm {
  const kind = kindOfUnit(a.unit);
  const periods = a.readPeriod
    ? [periodLabel(a.readPeriod)]
    : a.years.map((y) => (a.quarter ? `Q${a.quarter} FY${y}` : `FY${y}`));
  return {
    kind,
    scale: scaled(kind) ? (a.scale as AnswerForm['scale']) : null,
    currency: kind === 'currency_amount' || kind === 'per_share' ? 'USD' : null,
    rounding: a.roundedTo,
    periods,
    periodCount: periods.length,
    operation: canonicalOperation(kind, operationOfAggregate(a.aggregate)),
    definition: null,
  };
}

/** Every name a catalog figure goes by, for matching a question's own definition. */
function namesOf(metricId: string): string[] {
  const m = getMetric(metricId);
  const names = [metricId.replace(/_/g, ' ')];
  if (m) names.push(m.name, ...m.questionPhrases, ...m.labels.filter((l) => !l.endsWith('*')));
  return [...new Set(names.map((n) => n.toLowerCase()))];
}

/** The top-level shape of the formula an answer was computed by (catalog variant text). */
export function deliveredFormulaOf(expression: string): DeliveredFormula {
  const split = splitTopLevel(expression);
  const ids = (s: string) =>
    [...new Set(s.match(/[a-z][a-z_]+[a-z]/g) ?? [])].filter((id) => getMetric(id));
  if (!split) return { expression, operator: null, left: ids(expression).map(namesOf), right: [] };
  return {
    expression,
    operator: split.operator,
    left: ids(split.left).map(namesOf),
    right: ids(split.right).map(namesOf),
  };
}
