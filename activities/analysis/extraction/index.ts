import { z } from 'zod';
import { cmp, dec, shift10, toFixed, toString } from '../../../workflows/analysis/decimal-core';
import {
  CitationSchema,
  extractMetricFromIndex,
  indexDocument,
  type Citation,
  type DocumentIndex,
  type ExtractMetricResult,
} from './extract-metric';
import {
  evaluateFormula,
  getFormula,
  INPUT_FLOOR,
  unitOfResultKind,
  type Aggregate,
  type FormulaInput,
} from './formula-catalog';
import { getMetric } from './metric-catalog';
import { parseQuestion, ParsedQuestionSchema, type ParsedQuestion } from './question-parser';
import { convertScale, parseRequestedScale, type Scale } from './scale';
import { periodLabel } from './period-words';
import { PageTextSchema, PeriodSchema, type PageText, type Period } from './statement-table';

export * from '../../../workflows/analysis/decimal-core';
export * from './numbers';
export * from './scale';
export * from './metric-catalog';
export * from './statement-table';
export * from './extract-metric';
export * from './formula-catalog';
export * from './question-parser';

export const AnswerQuestionInputSchema = z.object({
  question: z.string().min(1),
  pages: z.array(PageTextSchema),
  /** Fiscal year the document reports, from filing metadata; settles January year-ends. */
  docPeriod: z.number().int().optional(),
  /** Explicit request fields override what the parser reads from the question. */
  metric: z.string().optional(),
  /** "FY2019", "2019", "Q2 FY2024". */
  period: z.string().optional(),
  /** "USD millions", "percent"... */
  unit: z.string().optional(),
});
export type AnswerQuestionInput = z.infer<typeof AnswerQuestionInputSchema>;

export const AnswerInputSchema = z.object({
  label: z.string(),
  metric: z.string(),
  unit: z.string(),
  /** Value in `unit`, after scale (USD, not USD millions). */
  value: z.string(),
  period: z.string(),
  printed: z.string(),
  matchedLabel: z.string(),
  /** The statement or table title the row sits under, when known. */
  heading: z.string().nullable().optional(),
  confidence: z.number(),
  citation: CitationSchema,
});
export type AnswerInput = z.infer<typeof AnswerInputSchema>;

export const AnsweredSchema = z.object({
  status: z.literal('answered'),
  /** Formatted in the requested unit, scale and rounding: "$5,409 million", "1.9%", "24.26". */
  answer: z.string(),
  unit: z.enum(['USD', 'percent', 'ratio', 'days', 'shares', 'USD/share']),
  /** Full-precision value in `unit` after scale (USD, percent points, times). */
  value: z.string(),
  /** The answer's number as a decimal string in the requested scale and rounding. */
  rounded: z.string(),
  scale: z.enum(['units', 'thousands', 'millions', 'billions']),
  confidence: z.number().min(0).max(1),
  label: z.string(),
  metric: z.string().nullable(),
  period: z.string().nullable(),
  /** The cell as printed, for a single extracted figure; null for computed answers. */
  printed: z.string().nullable(),
  citations: z.array(CitationSchema),
  formula: z.object({ id: z.string(), expression: z.string() }).optional(),
  /** The per-year catalog formula the value was computed by (null for a read figure). */
  variant: z.string().nullable(),
  inputs: z.array(AnswerInputSchema),
  parsed: ParsedQuestionSchema,
  /** Decimal places the answer was rounded to because the question asked; null = not rounded to an asked precision. */
  roundedTo: z.number().int().nullable(),
  /** Fiscal years the value was computed over. */
  years: z.array(z.number().int()),
  /**
   * The dated or year-to-date period every figure was read for, when the question named one
   * (period-words.ts): the columns printed with that date and span.
   */
  readPeriod: PeriodSchema.optional(),
});
export const NeedsReviewSchema = z.object({
  status: z.literal('needs_review'),
  reason: z.string(),
  /** Where a person should look first. */
  hints: z.array(CitationSchema),
  parsed: ParsedQuestionSchema.optional(),
  partial: z
    .object({
      value: z.string().optional(),
      confidence: z.number().optional(),
      inputs: z.array(AnswerInputSchema),
    })
    .optional(),
});
export const AnswerResultSchema = z.discriminatedUnion('status', [
  AnsweredSchema,
  NeedsReviewSchema,
]);
export type AnswerResult = z.infer<typeof AnswerResultSchema>;

/** The platform's answer floor: nothing weaker than this is offered as an answer. */
export const ANSWER_FLOOR = 0.7;

const SCALE_WORD: Record<Scale, string> = {
  units: '',
  thousands: ' thousand',
  millions: ' million',
  billions: ' billion',
};

function periodString(p: ParsedQuestion): string | null {
  const a = p.aggregate;
  if (a.kind === 'average' || a.kind === 'cagr' || a.kind === 'growth' || a.kind === 'change')
    return `FY${a.startYear}-FY${a.endYear}`;
  if (!p.period) return null;
  return periodLabel(p.period);
}

function parsePeriodOverride(s: string): { fiscalYear: number; quarter?: number } | null {
  const y = /((?:19|20)\d{2})/.exec(s);
  if (!y) return null;
  const q = /\bq([1-4])\b/i.exec(s);
  return q ? { fiscalYear: Number(y[1]), quarter: Number(q[1]) } : { fiscalYear: Number(y[1]) };
}

function withThousands(s: string): string {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [i = '0', f] = body.split('.');
  const grouped = i.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${neg ? '-' : ''}${grouped}${f !== undefined ? `.${f}` : ''}`;
}

function applyOverrides(parsed: ParsedQuestion, input: AnswerQuestionInput): ParsedQuestion {
  let p = { ...parsed };
  if (input.metric) {
    if (getMetric(input.metric))
      p = {
        ...p,
        kind: 'metric',
        metric: input.metric,
        formula: undefined,
        confidence: Math.max(p.confidence, 0.95),
        reason: `metric ${input.metric} (given)`,
      };
    else if (getFormula(input.metric))
      p = {
        ...p,
        kind: 'formula',
        formula: input.metric,
        metric: undefined,
        confidence: Math.max(p.confidence, 0.9),
        reason: `formula ${input.metric} (given)`,
      };
  }
  if (input.period) {
    const per = parsePeriodOverride(input.period);
    if (per) p = { ...p, period: per };
  }
  if (input.unit) {
    const sc = parseRequestedScale(input.unit);
    if (sc) p = { ...p, requestedScale: sc };
  }
  return p;
}

interface Outcome {
  valueUnits: string;
  unit: z.infer<typeof AnsweredSchema>['unit'];
  tableScale: Scale;
  confidence: number;
  inputs: AnswerInput[];
  citations: Citation[];
  printed: string | null;
  formula?: { id: string; expression: string };
  endpoints?: { start: string; end: string };
  variant: string | null;
  years: number[];
}

function toAnswerInput(i: FormulaInput): AnswerInput {
  const def = getMetric(i.metric);
  const scaled = def?.kind === 'money' || def?.kind === 'count';
  return {
    label: def?.name ?? i.metric,
    metric: i.metric,
    unit:
      def?.kind === 'money'
        ? 'USD'
        : def?.kind === 'count'
          ? 'shares'
          : def?.kind === 'per_share'
            ? 'USD/share'
            : 'percent',
    value: scaled ? convertScale(i.amount, i.scale as Scale, 'units') : i.amount,
    period: `FY${i.fiscalYear}`,
    printed: i.printed,
    matchedLabel: i.matchedLabel,
    heading: i.heading ?? null,
    confidence: i.confidence,
    citation: i.citation,
  };
}

// A computed ratio far outside these ranges means a wrong row or column, not a fact.
const RESULT_BOUNDS: Record<string, [string, string]> = {
  percent: ['-1000', '1000'],
  ratio: ['-1000', '10000'],
  days: ['0', '3650'],
};

function review(
  reason: string,
  parsed?: ParsedQuestion,
  hints: Citation[] = [],
  partial?: z.infer<typeof NeedsReviewSchema>['partial'],
): AnswerResult {
  return { status: 'needs_review', reason, hints, parsed, partial };
}

function lookupFor(doc: DocumentIndex, parsed: ParsedQuestion, docPeriod: number | undefined) {
  const memo = new Map<string, ExtractMetricResult>();
  // A quarter asked of a formula is read for that quarter when every input is of the year
  // computed ("effective tax rate in Q2 of fiscal 2024": tax over pre-tax income, both of Q2).
  // A formula over a prior year's balance (an average, a turnover) has no prior quarter to
  // read by, and is read for the year as before.
  const formula =
    parsed.kind === 'formula' && parsed.formula ? getFormula(parsed.formula) : undefined;
  const sameYearFormula =
    formula !== undefined &&
    !formula.usesAverage &&
    formula.variants.every((v) => v.inputs.every((i) => i.offset === 0));
  const lookup = (metric: string, fiscalYear: number): ExtractMetricResult => {
    const key = `${metric}@${fiscalYear}`;
    const hit = memo.get(key);
    if (hit) return hit;
    // A dated or year-to-date period (period-words.ts) is read as asked, formulas included; a
    // formula's other year has no printed date to be matched by.
    const named = parsed.period?.endDate || parsed.period?.months ? parsed.period : undefined;
    if (named && fiscalYear !== named.fiscalYear) {
      const r: ExtractMetricResult = {
        status: 'not_found',
        metric,
        period: { fiscalYear },
        reason: `FY${fiscalYear} is not the ${periodLabel(named)} the question names`,
        candidates: [],
      };
      memo.set(key, r);
      return r;
    }
    const r = extractMetricFromIndex(doc, {
      metric,
      period: named ?? {
        fiscalYear,
        ...(parsed.period?.quarter && (parsed.kind === 'metric' || sameYearFormula)
          ? { quarter: parsed.period.quarter }
          : {}),
      },
      docPeriod,
      preferStatement: parsed.kind === 'metric' ? parsed.preferStatement : undefined,
    });
    memo.set(key, r);
    return r;
  };
  /**
   * The one named period (a date, a year to date or a quarter) all figures found were read
   * for; none when any was read otherwise.
   */
  const readPeriod = (): Period | undefined => {
    const found = [...memo.values()].filter((r) => r.status === 'found');
    const labels = new Set(found.map((r) => periodLabel(r.period)));
    const first = found[0]?.period;
    return labels.size === 1 && first && (first.endDate || first.months || first.quarter)
      ? first
      : undefined;
  };
  return Object.assign(lookup, { readPeriod });
}

/**
 * Answer a numeric question about one filing from its page texts, citing every printed
 * figure used, or say why a person must look. Confidence is the weakest link: question
 * mapping, each input's label/period/scale match, and ambiguity between candidate rows.
 */
export function answerQuestion(rawInput: AnswerQuestionInput): AnswerResult {
  const input = AnswerQuestionInputSchema.parse(rawInput);
  const parsed = applyOverrides(parseQuestion(input.question), input);
  if (parsed.kind === 'unsupported') return review(`question not mapped: ${parsed.reason}`, parsed);
  if (!parsed.period) return review('no period for the question', parsed);
  const doc = indexDocument(rawInput.pages);
  const lookup = lookupFor(doc, parsed, input.docPeriod);

  let outcome: Outcome;
  const aggregate: Aggregate = parsed.aggregate;
  if (parsed.kind === 'metric' && aggregate.kind === 'single') {
    const r = lookup(parsed.metric!, parsed.period.fiscalYear);
    if (r.status !== 'found') return review(`not found: ${r.reason}`, parsed);
    const def = getMetric(r.metric)!;
    const scaled = def.kind === 'money' || def.kind === 'count';
    const fi: FormulaInput = {
      metric: r.metric,
      fiscalYear: parsed.period.fiscalYear,
      amount: r.value.amount,
      scale: r.value.scale,
      printed: r.value.printed,
      matchedLabel: r.matchedLabel,
      heading: r.statement,
      periodHeader: r.periodHeader,
      confidence: r.confidence,
      citation: r.citation,
    };
    if (r.confidence < ANSWER_FLOOR) {
      return review(
        `${def.name} found with low confidence ${r.confidence}${r.alternatives.some((a) => a.note.startsWith('conflicting')) ? ' (conflicting values)' : ''}`,
        parsed,
        [r.citation],
        {
          value: scaled ? convertScale(r.value.amount, r.value.scale, 'units') : r.value.amount,
          confidence: r.confidence,
          inputs: [toAnswerInput(fi)],
        },
      );
    }
    outcome = {
      valueUnits: scaled ? convertScale(r.value.amount, r.value.scale, 'units') : r.value.amount,
      unit: r.value.unit === 'ratio' ? 'ratio' : r.value.unit,
      tableScale: r.value.scale,
      confidence: Math.min(r.confidence, parsed.confidence),
      inputs: [toAnswerInput(fi)],
      citations: [r.citation],
      printed: r.value.printed,
      variant: null,
      years: [parsed.period.fiscalYear],
    };
  } else {
    const ev = evaluateFormula(
      {
        formula: parsed.formula,
        metric: parsed.metric,
        fiscalYear: parsed.period.fiscalYear,
        aggregate,
      },
      lookup,
    );
    if (ev.status !== 'computed') {
      return review(
        `cannot compute ${ev.formulaText}: ${ev.reason}`,
        parsed,
        ev.inputs.map((i) => i.citation),
        { inputs: ev.inputs.map(toAnswerInput) },
      );
    }
    const kind = ev.resultKind;
    // A percent formula asked as a ratio is delivered as the decimal (19.05% → 0.1905).
    const asRatio = kind === 'percent' && parsed.unit === 'ratio';
    const unit: Outcome['unit'] = asRatio ? 'ratio' : unitOfResultKind(kind);
    const valueUnits =
      kind === 'money'
        ? convertScale(ev.value, ev.scale, 'units')
        : asRatio
          ? toString(shift10(dec(ev.value), -2))
          : ev.value;
    const bounds = RESULT_BOUNDS[kind];
    if (
      bounds &&
      (cmp(dec(asRatio ? ev.value : valueUnits), dec(bounds[0])) < 0 ||
        cmp(dec(asRatio ? ev.value : valueUnits), dec(bounds[1])) > 0)
    ) {
      return review(
        `computed ${kind} ${valueUnits} is implausible`,
        parsed,
        ev.inputs.map((i) => i.citation),
        { value: valueUnits, inputs: ev.inputs.map(toAnswerInput) },
      );
    }
    const id = parsed.formula ?? `${aggregate.kind}_${parsed.metric}`;
    outcome = {
      valueUnits,
      unit,
      tableScale: ev.scale,
      confidence: Math.min(ev.confidence, parsed.confidence),
      inputs: ev.inputs.map(toAnswerInput),
      citations: ev.inputs.map((i) => i.citation),
      printed: null,
      formula: { id, expression: ev.formulaText },
      endpoints: ev.endpoints,
      variant: ev.variantText,
      years: ev.years,
    };
    if (ev.inputs.some((i) => i.confidence < INPUT_FLOOR))
      return review('an input is below the confidence floor', parsed);
  }

  const confidence = Math.round(outcome.confidence * 1000) / 1000;
  const partial = { value: outcome.valueUnits, confidence, inputs: outcome.inputs };
  if (confidence < ANSWER_FLOOR)
    return review(
      `confidence ${confidence} below ${ANSWER_FLOOR}`,
      parsed,
      outcome.citations,
      partial,
    );

  const scaled = outcome.unit === 'USD' || outcome.unit === 'shares';
  const scale: Scale = scaled ? (parsed.requestedScale ?? outcome.tableScale) : 'units';
  const inScale = scaled ? convertScale(outcome.valueUnits, 'units', scale) : outcome.valueUnits;
  // Rounding as asked, once, at the end, from the exact decimal. With none asked the answer
  // keeps its precision: a printed figure exactly as the filing gives it (389 million in
  // billions is 0.389), a computed one exactly when it terminates within four places, else
  // at a display precision that is not claimed to be an asked rounding.
  const asked = parsed.rounding ?? null;
  const exact = toString(dec(inScale));
  const fraction = exact.split('.')[1] ?? '';
  const rounded =
    asked !== null
      ? toFixed(dec(inScale), asked)
      : outcome.printed !== null || fraction.length <= 4
        ? exact
        : toFixed(dec(inScale), 2);
  let answer: string;
  switch (outcome.unit) {
    case 'USD':
      answer = `${rounded.startsWith('-') ? '-' : ''}$${withThousands(rounded.replace('-', ''))}${SCALE_WORD[scale]}`;
      break;
    case 'USD/share':
      answer = `${rounded.startsWith('-') ? '-' : ''}$${rounded.replace('-', '')} per share`;
      break;
    case 'percent':
      if (aggregate.kind === 'change' && outcome.endpoints) {
        const a = aggregate;
        const ep = (v: string) => toFixed(dec(v), asked ?? 1);
        answer = `${rounded} percentage points (${ep(outcome.endpoints.start)}% in FY${a.startYear} to ${ep(outcome.endpoints.end)}% in FY${a.endYear})`;
      } else answer = `${rounded}%`;
      break;
    case 'days':
      answer = `${rounded} days`;
      break;
    case 'shares':
      answer = `${withThousands(rounded)}${SCALE_WORD[scale]} shares`;
      break;
    default:
      answer = rounded;
  }
  return {
    status: 'answered',
    answer,
    unit: outcome.unit,
    value: outcome.valueUnits,
    rounded,
    scale,
    confidence,
    label: parsed.formula
      ? getFormula(parsed.formula)!.name
      : `${aggregate.kind === 'single' ? '' : `${aggregate.kind} of `}${getMetric(parsed.metric!)!.name}`,
    metric: parsed.metric ?? null,
    period: periodString(parsed),
    printed: outcome.printed,
    citations: outcome.citations,
    formula: outcome.formula,
    variant: outcome.variant,
    inputs: outcome.inputs,
    parsed,
    roundedTo: asked,
    years: outcome.years,
    ...(lookup.readPeriod() ? { readPeriod: lookup.readPeriod() } : {}),
  };
}

export type { PageText };
