/**
 * The formula catalog's entry point: looks formulas up and evaluates one (or a catalog metric
 * under an aggregate) with every input cited. The formulas are data in formula-definitions.ts.
 */
import { z } from 'zod';
import {
  add,
  dec,
  div,
  mul,
  nthRoot,
  round,
  sub,
  sum,
  toString,
  type Decimal,
} from '../../../workflows/analysis/decimal-core';
import { CitationSchema, type ExtractMetricResult } from './extract-metric';
import { getMetric } from './metric-catalog';
import { convertScale, type Scale } from './scale';
import { FORMULAS } from './formula-definitions';
import {
  cur,
  FormulaResultKindSchema,
  HUNDRED,
  P,
  pct,
  RESULT_KIND_OF_METRIC,
  TWO,
  type FormulaDefinition,
  type FormulaResultKind,
  type Get,
  type Variant,
} from './formula-types';

export { FORMULAS } from './formula-definitions';
export {
  FormulaResultKindSchema,
  type FormulaDefinition,
  type FormulaResultKind,
  type InputRef,
} from './formula-types';

/** The answer unit of a result kind: an amount in USD, an amount per share, or the kind itself. */
export function unitOfResultKind(
  kind: FormulaResultKind,
): 'USD' | 'USD/share' | 'percent' | 'ratio' | 'days' {
  return kind === 'money' ? 'USD' : kind === 'per_share' ? 'USD/share' : kind;
}

const FORMULA_BY_ID = new Map(FORMULAS.map((f) => [f.id, f]));
export function getFormula(id: string): FormulaDefinition | undefined {
  return FORMULA_BY_ID.get(id);
}

export const AggregateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('single') }),
  /** Arithmetic mean of the yearly values over startYear..endYear inclusive. */
  z.object({ kind: z.literal('average'), startYear: z.number().int(), endYear: z.number().int() }),
  /** Average of the opening and closing balance: "average PP&E between FY2018 and FY2019". */
  z.object({ kind: z.literal('average_balance') }),
  /** (end / start)^(1 / years) - 1, in percent. */
  z.object({ kind: z.literal('cagr'), startYear: z.number().int(), endYear: z.number().int() }),
  /** (end - start) / |start| in percent. */
  z.object({ kind: z.literal('growth'), startYear: z.number().int(), endYear: z.number().int() }),
  /** end - start in the base unit (percentage points for a percent). */
  z.object({ kind: z.literal('change'), startYear: z.number().int(), endYear: z.number().int() }),
]);
export type Aggregate = z.infer<typeof AggregateSchema>;

export const FormulaInputSchema = z.object({
  metric: z.string(),
  fiscalYear: z.number().int(),
  amount: z.string(),
  scale: z.string(),
  printed: z.string(),
  matchedLabel: z.string(),
  /** The statement or table title the row sits under (for the label agreement check). */
  heading: z.string().nullable().optional(),
  periodHeader: z.string(),
  confidence: z.number(),
  citation: CitationSchema,
});
export type FormulaInput = z.infer<typeof FormulaInputSchema>;

export const FormulaEvaluationSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('computed'),
    formulaText: z.string(),
    resultKind: FormulaResultKindSchema,
    /** Full-precision decimal; percent results are in percent (12.5 means 12.5%). */
    value: z.string(),
    /** Money results are in this scale. */
    scale: z.enum(['units', 'thousands', 'millions', 'billions']),
    inputs: z.array(FormulaInputSchema),
    confidence: z.number(),
    /** Start and end values for change, growth and CAGR, so an answer can show both. */
    endpoints: z.object({ start: z.string(), end: z.string() }).optional(),
    /** The fiscal years the value was computed over (what the answer's form reports). */
    years: z.array(z.number().int()),
    /** The per-year formula (a catalog variant, or the metric itself) the aggregate applied. */
    variantText: z.string(),
  }),
  z.object({
    status: z.literal('missing_input'),
    formulaText: z.string(),
    reason: z.string(),
    inputs: z.array(FormulaInputSchema),
  }),
]);
export type FormulaEvaluation = z.infer<typeof FormulaEvaluationSchema>;

export type Lookup = (metric: string, fiscalYear: number) => ExtractMetricResult;

/** Inputs below this are not used: a formula is only as good as its weakest figure. */
export const INPUT_FLOOR = 0.7;
/** Weak-but-usable inputs make the result less trustworthy than each input alone. */
const WEAK_INPUT = 0.85;
const WEAK_FACTOR = 0.95;

interface YearValue {
  value: Decimal;
  kind: FormulaResultKind;
  text: string;
  inputs: FormulaInput[];
  scale: Scale;
}

type YearOutcome =
  { ok: true; v: YearValue } | { ok: false; reason: string; text: string; inputs: FormulaInput[] };

function toInput(r: ExtractMetricResult & { status: 'found' }, fiscalYear: number): FormulaInput {
  return {
    metric: r.metric,
    fiscalYear,
    amount: r.value.amount,
    scale: r.value.scale,
    printed: r.value.printed,
    matchedLabel: r.matchedLabel,
    heading: r.statement,
    periodHeader: r.periodHeader,
    confidence: r.confidence,
    citation: r.citation,
  };
}

function evaluateVariant(
  variant: Variant,
  kind: FormulaResultKind,
  fy: number,
  lookup: Lookup,
): YearOutcome {
  const inputs: FormulaInput[] = [];
  const values = new Map<string, Decimal>();
  let scale: Scale | null = null;
  for (const ref of variant.inputs) {
    const year = fy + ref.offset;
    const r = lookup(ref.metric, year);
    if (r.status !== 'found')
      return {
        ok: false,
        reason: `${ref.metric} FY${year}: ${r.reason}`,
        text: variant.text,
        inputs,
      };
    inputs.push(toInput(r, year));
    if (r.confidence < INPUT_FLOOR) {
      return {
        ok: false,
        reason: `${ref.metric} FY${year} found with low confidence ${r.confidence}`,
        text: variant.text,
        inputs,
      };
    }
    const def = getMetric(ref.metric);
    const isScaled = def?.kind === 'money' || def?.kind === 'count';
    // Ratios must not mix scales: everything goes to units first, exactly.
    const units = isScaled ? convertScale(r.value.amount, r.value.scale, 'units') : r.value.amount;
    if (isScaled && scale === null) scale = r.value.scale;
    values.set(`${ref.metric}@${ref.offset}`, dec(units));
  }
  const get: Get = (m, off) => {
    const v = values.get(`${m}@${off}`);
    if (!v) throw new Error(`formula read undeclared input ${m}@${off}`);
    return v;
  };
  let value: Decimal;
  try {
    value = variant.compute(get);
  } catch (e) {
    return {
      ok: false,
      reason: `cannot compute: ${(e as Error).message}`,
      text: variant.text,
      inputs,
    };
  }
  const outScale = scale ?? 'units';
  if (kind === 'money') value = dec(convertScale(toString(value), 'units', outScale));
  return { ok: true, v: { value, kind, text: variant.text, inputs, scale: outScale } };
}

function evaluateYear(
  base: { formula?: string; metric?: string },
  fy: number,
  lookup: Lookup,
): YearOutcome {
  if (base.metric) {
    const def = getMetric(base.metric);
    if (!def)
      return { ok: false, reason: `unknown metric ${base.metric}`, text: base.metric, inputs: [] };
    const kind = RESULT_KIND_OF_METRIC[def.kind];
    return evaluateVariant(
      { text: base.metric, inputs: [cur(base.metric)], compute: (g) => g(base.metric!, 0) },
      kind,
      fy,
      lookup,
    );
  }
  const f = base.formula ? getFormula(base.formula) : undefined;
  if (!f)
    return {
      ok: false,
      reason: `unknown formula ${base.formula}`,
      text: String(base.formula),
      inputs: [],
    };
  let last: YearOutcome | null = null;
  for (const v of f.variants) {
    const o = evaluateVariant(v, f.resultKind, fy, lookup);
    if (o.ok) return o;
    last = o;
  }
  return last ?? { ok: false, reason: 'formula has no variants', text: f.id, inputs: [] };
}

function confidenceOf(inputs: readonly FormulaInput[]): number {
  if (inputs.length === 0) return 0;
  const min = Math.min(...inputs.map((i) => i.confidence));
  const weak = inputs.some((i) => i.confidence < WEAK_INPUT);
  return Math.round(min * (weak ? WEAK_FACTOR : 1) * 1000) / 1000;
}

function dedupeInputs(inputs: FormulaInput[]): FormulaInput[] {
  const seen = new Set<string>();
  return inputs.filter((i) => {
    const k = `${i.metric}@${i.fiscalYear}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export interface EvaluateRequest {
  formula?: string;
  metric?: string;
  fiscalYear: number;
  aggregate: Aggregate;
}

/** Evaluate a formula (or a metric under an aggregate) with every input cited. */
export function evaluateFormula(req: EvaluateRequest, lookup: Lookup): FormulaEvaluation {
  const base = { formula: req.formula, metric: req.metric };
  const agg = req.aggregate;
  const years = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
  const fail = (o: Extract<YearOutcome, { ok: false }>, prefix = ''): FormulaEvaluation => ({
    status: 'missing_input',
    formulaText: prefix + o.text,
    reason: o.reason,
    inputs: o.inputs,
  });
  if (agg.kind === 'single') {
    const o = evaluateYear(base, req.fiscalYear, lookup);
    if (!o.ok) return fail(o);
    return {
      status: 'computed',
      formulaText: o.v.text,
      resultKind: o.v.kind,
      value: toString(o.v.value),
      scale: o.v.scale,
      inputs: o.v.inputs,
      confidence: confidenceOf(o.v.inputs),
      years: [req.fiscalYear],
      variantText: o.v.text,
    };
  }
  if (agg.kind === 'average_balance') {
    const a = evaluateYear(base, req.fiscalYear, lookup);
    if (!a.ok) return fail(a);
    const b = evaluateYear(base, req.fiscalYear - 1, lookup);
    if (!b.ok) return fail(b);
    const inputs = dedupeInputs([...a.v.inputs, ...b.v.inputs]);
    return {
      status: 'computed',
      formulaText: `(${a.v.text}[FY${req.fiscalYear}] + ${a.v.text}[FY${req.fiscalYear - 1}]) / 2`,
      resultKind: a.v.kind,
      value: toString(div(add(a.v.value, b.v.value), TWO, P)),
      scale: a.v.scale,
      inputs,
      confidence: confidenceOf(inputs),
      years: [req.fiscalYear],
      variantText: a.v.text,
    };
  }
  if (agg.endYear <= agg.startYear || agg.endYear - agg.startYear > 10) {
    return {
      status: 'missing_input',
      formulaText: '',
      reason: `bad year span ${agg.startYear}-${agg.endYear}`,
      inputs: [],
    };
  }
  if (agg.kind === 'average') {
    const vals: YearValue[] = [];
    for (const y of years(agg.startYear, agg.endYear)) {
      const o = evaluateYear(base, y, lookup);
      if (!o.ok) return fail(o, `average over FY${agg.startYear}-FY${agg.endYear} of `);
      vals.push(o.v);
    }
    const first = vals[0]!;
    const inputs = dedupeInputs(vals.flatMap((v) => v.inputs));
    return {
      status: 'computed',
      formulaText: `mean over FY${agg.startYear}..FY${agg.endYear} of (${first.text})`,
      resultKind: first.kind,
      value: toString(div(sum(vals.map((v) => v.value)), dec(String(vals.length)), P)),
      scale: first.scale,
      inputs,
      confidence: confidenceOf(inputs),
      years: years(agg.startYear, agg.endYear).slice(0, vals.length),
      variantText: first.text,
    };
  }
  const s = evaluateYear(base, agg.startYear, lookup);
  if (!s.ok) return fail(s);
  const e = evaluateYear(base, agg.endYear, lookup);
  if (!e.ok) return fail(e);
  const inputs = dedupeInputs([...s.v.inputs, ...e.v.inputs]);
  const conf = confidenceOf(inputs);
  const endpoints = { start: toString(s.v.value), end: toString(e.v.value) };
  if (agg.kind === 'change') {
    return {
      endpoints,
      status: 'computed',
      formulaText: `(${e.v.text})[FY${agg.endYear}] - (${s.v.text})[FY${agg.startYear}]`,
      resultKind: s.v.kind,
      value: toString(sub(e.v.value, s.v.value)),
      scale: s.v.scale,
      inputs,
      confidence: conf,
      years: [agg.startYear, agg.endYear],
      variantText: s.v.text,
    };
  }
  if (s.v.value.m === 0n)
    return {
      status: 'missing_input',
      formulaText: s.v.text,
      reason: 'start value is zero',
      inputs,
    };
  if (agg.kind === 'growth') {
    const startAbs = s.v.value.m < 0n ? dec(toString(s.v.value).slice(1)) : s.v.value;
    return {
      endpoints,
      status: 'computed',
      formulaText: `((${e.v.text})[FY${agg.endYear}] - (${s.v.text})[FY${agg.startYear}]) / |start| * 100`,
      resultKind: 'percent',
      value: toString(pct(sub(e.v.value, s.v.value), startAbs)),
      scale: 'units',
      inputs,
      confidence: conf,
      years: [agg.startYear, agg.endYear],
      variantText: s.v.text,
    };
  }
  const n = agg.endYear - agg.startYear;
  const ratio = div(e.v.value, s.v.value, P);
  if (ratio.m <= 0n)
    return {
      status: 'missing_input',
      formulaText: s.v.text,
      reason: 'CAGR undefined for a sign change',
      inputs,
    };
  const root = nthRoot(ratio, n, 20);
  return {
    endpoints,
    status: 'computed',
    formulaText: `((${e.v.text})[FY${agg.endYear}] / (${s.v.text})[FY${agg.startYear}])^(1/${n}) - 1, * 100`,
    resultKind: 'percent',
    value: toString(round(mul(sub(root, dec('1')), HUNDRED), 18)),
    scale: 'units',
    inputs,
    confidence: conf,
    years: [agg.startYear, agg.endYear],
    variantText: s.v.text,
  };
}
