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
import { getMetric, type MetricDefinition } from './metric-catalog';
import { convertScale, type Scale } from './scale';

// per_share: only a per-share metric under an aggregate (the change of diluted EPS); no
// catalog formula computes one.
export const FormulaResultKindSchema = z.enum(['percent', 'ratio', 'money', 'days', 'per_share']);
export type FormulaResultKind = z.infer<typeof FormulaResultKindSchema>;

/** What a catalog metric is under an aggregate (a count's change is a plain number). */
const RESULT_KIND_OF_METRIC: Record<MetricDefinition['kind'], FormulaResultKind> = {
  money: 'money',
  ratio_percent: 'percent',
  per_share: 'per_share',
  count: 'ratio',
};

/** The answer unit of a result kind: an amount in USD, an amount per share, or the kind itself. */
export function unitOfResultKind(
  kind: FormulaResultKind,
): 'USD' | 'USD/share' | 'percent' | 'ratio' | 'days' {
  return kind === 'money' ? 'USD' : kind === 'per_share' ? 'USD/share' : kind;
}

export interface InputRef {
  metric: string;
  /** Fiscal-year offset from the year being computed: 0 this year, -1 the prior year. */
  offset: number;
}

type Get = (metric: string, offset: number) => Decimal;

interface Variant {
  text: string;
  inputs: readonly InputRef[];
  compute: (get: Get) => Decimal;
}

export interface FormulaDefinition {
  id: string;
  name: string;
  resultKind: FormulaResultKind;
  /** Tried in order; the first whose inputs are all found is used. */
  variants: readonly Variant[];
  /**
   * When a question spells out its own definition, it must mention these (regexes over
   * the lower-cased definition) or the formula is not the one asked for.
   */
  definitionMustMention?: readonly RegExp[];
  definitionMustNotMention?: readonly RegExp[];
  /** Whether the conventional definition averages opening and closing balances. */
  usesAverage: boolean;
}

const P = 24;
const HUNDRED = dec('100');
const TWO = dec('2');
const DAYS = dec('365');
const pct = (a: Decimal, b: Decimal) => mul(div(a, b, P), HUNDRED);
const avg2 = (get: Get, m: string) => div(add(get(m, 0), get(m, -1)), TWO, P);
const cur = (m: string): InputRef => ({ metric: m, offset: 0 });
const both = (m: string): InputRef[] => [cur(m), { metric: m, offset: -1 }];

export const FORMULAS: readonly FormulaDefinition[] = [
  {
    id: 'gross_margin',
    name: 'Gross margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'gross_profit / revenue * 100',
        inputs: [cur('gross_profit'), cur('revenue')],
        compute: (g) => pct(g('gross_profit', 0), g('revenue', 0)),
      },
      {
        text: '(revenue - cost_of_revenue) / revenue * 100',
        inputs: [cur('revenue'), cur('cost_of_revenue')],
        compute: (g) => pct(sub(g('revenue', 0), g('cost_of_revenue', 0)), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'operating_margin',
    name: 'Operating margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'operating_income / revenue * 100',
        inputs: [cur('operating_income'), cur('revenue')],
        compute: (g) => pct(g('operating_income', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'net_margin',
    name: 'Net profit margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'net_income / revenue * 100',
        inputs: [cur('net_income'), cur('revenue')],
        compute: (g) => pct(g('net_income', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'ebitda_margin',
    name: 'EBITDA margin',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: '(operating_income + depreciation_amortization) / revenue * 100',
        inputs: [cur('operating_income'), cur('depreciation_amortization'), cur('revenue')],
        compute: (g) =>
          pct(add(g('operating_income', 0), g('depreciation_amortization', 0)), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'ebitda',
    name: 'EBITDA (unadjusted)',
    resultKind: 'money',
    usesAverage: false,
    variants: [
      {
        text: 'operating_income + depreciation_amortization',
        inputs: [cur('operating_income'), cur('depreciation_amortization')],
        compute: (g) => add(g('operating_income', 0), g('depreciation_amortization', 0)),
      },
    ],
  },
  {
    id: 'cogs_pct_revenue',
    name: 'Cost of goods sold as % of revenue',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'cost_of_revenue / revenue * 100',
        inputs: [cur('cost_of_revenue'), cur('revenue')],
        compute: (g) => pct(g('cost_of_revenue', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'capex_pct_revenue',
    name: 'Capital expenditure as % of revenue',
    resultKind: 'percent',
    usesAverage: false,
    variants: [
      {
        text: 'capex / revenue * 100',
        inputs: [cur('capex'), cur('revenue')],
        compute: (g) => pct(g('capex', 0), g('revenue', 0)),
      },
    ],
  },
  {
    id: 'fixed_asset_turnover',
    name: 'Fixed asset turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/revenue|sales/, /pp&?e|property|fixed assets/],
    variants: [
      {
        text: 'revenue / ((ppe_net + ppe_net[prior year]) / 2)',
        inputs: [cur('revenue'), ...both('ppe_net')],
        compute: (g) => div(g('revenue', 0), avg2(g, 'ppe_net'), P),
      },
    ],
  },
  {
    id: 'inventory_turnover',
    name: 'Inventory turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/cogs|cost of (goods|sales|revenue)/, /inventor/],
    variants: [
      {
        text: 'cost_of_revenue / ((inventory + inventory[prior year]) / 2)',
        inputs: [cur('cost_of_revenue'), ...both('inventory')],
        compute: (g) => div(g('cost_of_revenue', 0), avg2(g, 'inventory'), P),
      },
    ],
  },
  {
    id: 'asset_turnover',
    name: 'Total asset turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/revenue|sales/, /assets/],
    variants: [
      {
        text: 'revenue / ((total_assets + total_assets[prior year]) / 2)',
        inputs: [cur('revenue'), ...both('total_assets')],
        compute: (g) => div(g('revenue', 0), avg2(g, 'total_assets'), P),
      },
    ],
  },
  {
    id: 'receivables_turnover',
    name: 'Receivables turnover',
    resultKind: 'ratio',
    usesAverage: true,
    definitionMustMention: [/revenue|sales/, /receivable/],
    variants: [
      {
        text: 'revenue / ((accounts_receivable + accounts_receivable[prior year]) / 2)',
        inputs: [cur('revenue'), ...both('accounts_receivable')],
        compute: (g) => div(g('revenue', 0), avg2(g, 'accounts_receivable'), P),
      },
    ],
  },
  {
    id: 'days_sales_outstanding',
    name: 'Days sales outstanding',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/receivable/, /revenue|sales/],
    variants: [
      {
        text: '365 * ((accounts_receivable + accounts_receivable[prior year]) / 2) / revenue',
        inputs: [...both('accounts_receivable'), cur('revenue')],
        compute: (g) => div(mul(DAYS, avg2(g, 'accounts_receivable')), g('revenue', 0), P),
      },
    ],
  },
  {
    id: 'days_inventory_outstanding',
    name: 'Days inventory outstanding',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/inventor/, /cogs|cost of/],
    variants: [
      {
        text: '365 * ((inventory + inventory[prior year]) / 2) / cost_of_revenue',
        inputs: [...both('inventory'), cur('cost_of_revenue')],
        compute: (g) => div(mul(DAYS, avg2(g, 'inventory')), g('cost_of_revenue', 0), P),
      },
    ],
  },
  {
    id: 'days_payable_outstanding',
    name: 'Days payable outstanding',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/payable/, /cogs|cost of/],
    definitionMustNotMention: [/change in inventor/],
    variants: [
      {
        text: '365 * ((accounts_payable + accounts_payable[prior year]) / 2) / cost_of_revenue',
        inputs: [...both('accounts_payable'), cur('cost_of_revenue')],
        compute: (g) => div(mul(DAYS, avg2(g, 'accounts_payable')), g('cost_of_revenue', 0), P),
      },
    ],
  },
  {
    id: 'days_payable_outstanding_purchases',
    name: 'Days payable outstanding (on purchases: COGS + change in inventory)',
    resultKind: 'days',
    usesAverage: true,
    definitionMustMention: [/payable/, /change in inventor/],
    variants: [
      {
        text: '365 * ((accounts_payable + accounts_payable[prior year]) / 2) / (cost_of_revenue + inventory - inventory[prior year])',
        inputs: [...both('accounts_payable'), cur('cost_of_revenue'), ...both('inventory')],
        compute: (g) =>
          div(
            mul(DAYS, avg2(g, 'accounts_payable')),
            add(g('cost_of_revenue', 0), sub(g('inventory', 0), g('inventory', -1))),
            P,
          ),
      },
    ],
  },
  {
    id: 'working_capital',
    name: 'Working capital',
    resultKind: 'money',
    usesAverage: false,
    definitionMustMention: [/current assets/, /current liabilities/],
    variants: [
      {
        text: 'total_current_assets - total_current_liabilities',
        inputs: [cur('total_current_assets'), cur('total_current_liabilities')],
        compute: (g) => sub(g('total_current_assets', 0), g('total_current_liabilities', 0)),
      },
    ],
  },
  {
    id: 'current_ratio',
    name: 'Current ratio',
    resultKind: 'ratio',
    usesAverage: false,
    definitionMustMention: [/current assets/, /current liabilities/],
    variants: [
      {
        text: 'total_current_assets / total_current_liabilities',
        inputs: [cur('total_current_assets'), cur('total_current_liabilities')],
        compute: (g) => div(g('total_current_assets', 0), g('total_current_liabilities', 0), P),
      },
    ],
  },
  {
    id: 'quick_ratio',
    name: 'Quick ratio',
    resultKind: 'ratio',
    usesAverage: false,
    definitionMustMention: [/current liabilities/],
    definitionMustNotMention: [/receivable|marketable|short[- ]term investments/],
    variants: [
      {
        text: '(total_current_assets - inventory) / total_current_liabilities',
        inputs: [cur('total_current_assets'), cur('inventory'), cur('total_current_liabilities')],
        compute: (g) =>
          div(
            sub(g('total_current_assets', 0), g('inventory', 0)),
            g('total_current_liabilities', 0),
            P,
          ),
      },
    ],
  },
  {
    id: 'dividend_payout_ratio',
    name: 'Dividend payout ratio',
    resultKind: 'percent',
    usesAverage: false,
    definitionMustMention: [/dividend/, /net income|earnings/],
    variants: [
      {
        text: 'dividends_paid / net_income * 100',
        inputs: [cur('dividends_paid'), cur('net_income')],
        compute: (g) => pct(g('dividends_paid', 0), g('net_income', 0)),
      },
    ],
  },
  {
    id: 'effective_tax_rate',
    name: 'Effective tax rate',
    resultKind: 'percent',
    usesAverage: false,
    definitionMustMention: [/tax/],
    variants: [
      {
        text: 'income_tax / pretax_income * 100',
        inputs: [cur('income_tax'), cur('pretax_income')],
        compute: (g) => pct(g('income_tax', 0), g('pretax_income', 0)),
      },
    ],
  },
  {
    id: 'debt_to_equity',
    name: 'Long-term debt to equity',
    resultKind: 'ratio',
    usesAverage: false,
    definitionMustMention: [/debt/, /equity/],
    definitionMustNotMention: [/short[- ]term|current portion|total liabilities/],
    variants: [
      {
        text: 'long_term_debt / total_equity',
        inputs: [cur('long_term_debt'), cur('total_equity')],
        compute: (g) => div(g('long_term_debt', 0), g('total_equity', 0), P),
      },
    ],
  },
  {
    id: 'return_on_assets',
    name: 'Return on assets',
    resultKind: 'percent',
    usesAverage: true,
    definitionMustMention: [/net income|earnings/, /assets/],
    variants: [
      {
        text: 'net_income / ((total_assets + total_assets[prior year]) / 2) * 100',
        inputs: [cur('net_income'), ...both('total_assets')],
        compute: (g) => pct(g('net_income', 0), avg2(g, 'total_assets')),
      },
    ],
  },
  {
    id: 'return_on_equity',
    name: 'Return on equity',
    resultKind: 'percent',
    usesAverage: true,
    definitionMustMention: [/net income|earnings/, /equity/],
    variants: [
      {
        text: 'net_income / ((total_equity + total_equity[prior year]) / 2) * 100',
        inputs: [cur('net_income'), ...both('total_equity')],
        compute: (g) => pct(g('net_income', 0), avg2(g, 'total_equity')),
      },
    ],
  },
  {
    id: 'free_cash_flow',
    name: 'Free cash flow',
    resultKind: 'money',
    usesAverage: false,
    definitionMustMention: [/operat/, /capex|capital expenditure|property/],
    variants: [
      {
        text: 'operating_cash_flow - capex',
        inputs: [cur('operating_cash_flow'), cur('capex')],
        compute: (g) => sub(g('operating_cash_flow', 0), g('capex', 0)),
      },
    ],
  },
];

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
