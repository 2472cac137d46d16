import type { AnswerForm, DeliveredFormula } from '../../../../workflows/analysis/answer-form';
import { cmp, dec, mul, toString } from '../../../../workflows/analysis/decimal-core';
import { indexDocument, type Citation, type DocumentIndex } from '../extract-metric';
import type { AnswerInput } from '../index';
import type { Scale } from '../scale';
import { resolveColumn, type PageText } from '../statement-table';
import { itemsOf, showExpression, type Expr, type ItemNode } from './grammar';
import { pinToCalendar, quarterNamed, readPeriodWords } from '../period-words';
import {
  computeWith,
  periodLabel,
  printedOperands,
  type MainPeriod,
  type OperandResolver,
} from './compute';
import {
  readDefinition,
  readLineItemQuestion,
  type QuestionDefinition,
} from './question-definition';
import { dollarsText, presentValue } from './amount-text';
import { shareCountOf } from './share-count';

/**
 * Answers a question that states its own arithmetic: the definition is compiled (grammar.ts),
 * every operand is a printed line item resolved against the filing's row labels
 * (line-item.ts) for its own period and cited, and the value is computed with exact
 * decimals. The delivered formula is the compiled definition itself. Anything the grammar
 * cannot read, an operand no row carries, a unit the arithmetic cannot produce, or an input
 * below the delivery floor goes to review with the reason named.
 */

export type DefinedUnit = 'USD' | 'USD/share' | 'percent' | 'ratio' | 'days';

export interface DefinedAnswer {
  status: 'answered';
  answer: string;
  unit: DefinedUnit;
  value: string;
  scale: Scale;
  roundedTo: number | null;
  confidence: number;
  expression: string;
  period: string;
  inputs: AnswerInput[];
  citations: Citation[];
  asked: AnswerForm;
  delivered: AnswerForm;
  deliveredFormula: DeliveredFormula;
  /** The operand names as the question writes them (for the label check). */
  names: string[];
}

export type DefinedResult =
  | { status: 'none' }
  | { status: 'needs_review'; reason: string; hints: Citation[] }
  | DefinedAnswer;

/**
 * A period named by its span (six or nine months, or three months ended a printed date), as
 * the question parser reads it (period-words.ts): 'several' for more than one date, year or
 * span, or for a date that disagrees with the fiscal year or quarter also named; undefined
 * when the words name no such span (the fiscal-year and quarter rules below decide).
 */
function namedPeriod(doc: DocumentIndex, main: string): MainPeriod | 'several' | null | undefined {
  const words = readPeriodWords(main);
  if (words.months === 'several')
    return /\b(?:six|nine) months\b|\bfirst half\b/.test(main) ? 'several' : undefined;
  const months = words.months;
  if (months !== 6 && months !== 9 && !(months === 3 && words.dates.length === 1)) return undefined;
  if (words.dates.length > 1) return 'several';
  const date = words.dates[0];
  const rest = date ? main.replace(date.raw, ' ') : main;
  const years = [
    ...new Set(
      [...rest.matchAll(/\b(?:fy\s?|fiscal (?:year )?)?((?:19|20)\d{2})\b/g)].map((m) =>
        Number(m[1]),
      ),
    ),
  ];
  if (years.length > 1) return 'several';
  const quarter = quarterNamed(rest);
  if (quarter !== undefined && months !== 3) return 'several';
  if (!date) return years[0] === undefined ? null : { fiscalYear: years[0], months };
  const pinned = pinToCalendar(
    {
      fiscalYear: years[0] ?? date.year,
      months,
      endDate: { year: date.year, month: date.month, day: date.day },
      ...(years.length > 0 ? { fiscalYearStated: true } : {}),
      ...(quarter ? { quarter } : {}),
    },
    doc,
  );
  return pinned.ok ? pinned.period : 'several';
}

/** The period the question asks about, from the words outside the definition. */
export function mainPeriod(doc: DocumentIndex, main: string): MainPeriod | 'several' | null {
  const named = namedPeriod(doc, main);
  if (named !== undefined) return named;
  const found: MainPeriod[] = [];
  for (const d of readPeriodWords(main).dates) {
    const r = resolveColumn(
      {
        raw: d.raw,
        date: { year: d.year, month: d.month, day: d.day },
        duration: /three months|quarter/.test(main) ? 'quarter' : 'instant',
      },
      doc.fiscalOffset,
      undefined,
      undefined,
      doc.fiscalYearEndMonth,
    );
    if (r.certainty < 0.9) continue;
    found.push(
      r.quarter ? { fiscalYear: r.fiscalYear, quarter: r.quarter } : { fiscalYear: r.fiscalYear },
    );
  }
  const rest = main.replace(/\b[a-z]+\.? \d{1,2},? (?:19|20)\d{2}\b/g, ' ');
  const quarter = quarterNamed(rest);
  for (const y of rest.matchAll(/\b(?:fy\s?|fiscal (?:year )?)?((?:19|20)\d{2})\b/g))
    found.push(quarter ? { fiscalYear: Number(y[1]), quarter } : { fiscalYear: Number(y[1]) });
  const keys = new Set(found.map((p) => `${p.fiscalYear}/${p.quarter ?? ''}`));
  if (keys.size > 1) return 'several';
  return found[0] ?? null;
}

/**
 * The dimension of an expression in currency: 1 for an amount, 0 for a pure number (a ratio,
 * a percentage, days), null when the arithmetic mixes them (an amount plus a ratio).
 */
export function dimension(
  e: Expr,
  isCount: (item: ItemNode) => boolean = () => false,
): number | null {
  switch (e.kind) {
    case 'item':
      return isCount(e) ? 0 : 1;
    case 'num':
      return 0;
    case 'avg': {
      const ds = e.args.map((x) => dimension(x, isCount));
      return ds.every((d) => d !== null && d === ds[0]) ? ds[0]! : null;
    }
    case 'bin': {
      const a = dimension(e.left, isCount);
      const b = dimension(e.right, isCount);
      if (a === null || b === null) return null;
      if (e.op === '+' || e.op === '-') return a === b ? a : null;
      return e.op === '*' ? a + b : a - b;
    }
  }
}

function hasNumber(e: Expr, v: string): boolean {
  if (e.kind === 'num') return e.value === v;
  if (e.kind === 'bin') return hasNumber(e.left, v) || hasNumber(e.right, v);
  if (e.kind === 'avg') return e.args.some((a) => hasNumber(a, v));
  return false;
}

function operationOf(e: Expr, unit: DefinedUnit, named: boolean): AnswerForm['operation'] {
  // An amount per share is a level of a per-share figure, as a printed EPS is.
  if (unit === 'USD/share') return 'level';
  if (unit !== 'USD') return 'quotient';
  if (e.kind === 'avg') return 'average';
  // A figure the question names and defines ("free cash flow, defined as A minus B") is asked
  // as that figure's level, as a catalog formula or an inline fact is; the definition itself
  // is checked against the delivered formula. Arithmetic asked as such ("A plus B") is the
  // operation it states.
  if (e.kind === 'bin' && !named)
    return e.op === '+' ? 'sum' : e.op === '-' ? 'difference' : 'level';
  return 'level';
}

/** The top-level shape of the compiled definition, each side's operands by their names. */
function formulaOf(e: Expr): DeliveredFormula {
  const names = (x: Expr) => [...new Set(itemsOf(x).map((i) => i.name))].map((n) => [n]);
  if (e.kind !== 'bin')
    return { expression: showExpression(e), operator: null, left: names(e), right: [] };
  return {
    expression: showExpression(e),
    operator: e.op,
    left: names(e.left),
    right: names(e.right),
  };
}

/** Answer the question from its own definition, or say why a person must. */
export function answerDefined(
  question: string,
  pages: readonly PageText[],
  /** Also answer a question that names one line item the catalog does not know. */
  lineItems = false,
): DefinedResult {
  let reading = readDefinition(question);
  if (reading.status === 'none' && lineItems) reading = readLineItemQuestion(question);
  if (reading.status === 'none') return { status: 'none' };
  if (reading.status === 'unparsed')
    return {
      status: 'needs_review',
      reason: `the question's definition "${reading.text}" could not be compiled: "${reading.unparsed}" is not an operand or operator the grammar reads`,
      hints: [],
    };
  return evaluateDefinition(question.toLowerCase(), reading.definition, indexDocument(pages));
}

/**
 * Answer the question's own definition with its operands read by `resolve` (the inline XBRL
 * facts of a filing, facts/answer-from-facts.ts); the same grammar, period, unit and
 * presentation rules as the printed rows' reading.
 */
export function answerDefinitionWith(
  question: string,
  definition: QuestionDefinition,
  pages: readonly PageText[],
  resolve: OperandResolver,
): DefinedResult {
  return evaluateDefinition(question.toLowerCase(), definition, indexDocument(pages), resolve);
}

function evaluateDefinition(
  q: string,
  d: QuestionDefinition,
  doc: DocumentIndex,
  resolve: OperandResolver = printedOperands(doc, d.statement),
): DefinedResult {
  const review = (reason: string, hints: Citation[] = []): DefinedResult => ({
    status: 'needs_review',
    reason,
    hints,
  });
  const items = itemsOf(d.expr);
  if (items.length === 0) return review('the definition names no line item');
  const mp = mainPeriod(doc, d.main);
  // Several periods are fine when every operand names its own ("average of FY2020 and FY2021").
  if (mp === 'several' && !items.every((i) => i.year))
    return review('the question names several periods outside its definition');
  const ownYears = [...new Set(items.flatMap((i) => (i.year ? [i.year] : [])))];
  const spread = mp === 'several' || mp === null;
  let main: MainPeriod | null = mp === 'several' ? null : mp;
  if (!main && ownYears.length === 1) main = { fiscalYear: ownYears[0]! };
  if (!main && items.every((i) => i.year)) main = { fiscalYear: Math.max(...ownYears) };
  if (!main) return review('no period for the question');

  // Unit: what the question asks for, and what the arithmetic can produce.
  const askedPercent = /%|\bpercent(?:age)?s?\b|\bper cent\b/.test(q);
  const askedMoney =
    /\b(?:usd|us\$|dollars?)\b|\$|\b(?:millions|billions|thousands)\b/.test(q) && !askedPercent;
  // Operands that count shares (share-count.ts) have no currency: an amount over a count of
  // shares is an amount per share.
  const counted = new Set(items.filter((i) => shareCountOf(i.name) !== null));
  const isCount = (i: ItemNode) => counted.has(i);
  // Two dimensions: in currency (counts weigh 0) and in shares (amounts weigh 0).
  const dim = dimension(d.expr, isCount);
  const shareDim = dimension(d.expr, (i) => !isCount(i));
  if (dim === null || shareDim === null)
    return review('the definition mixes amounts, share counts and ratios');
  // An amount (1, 0), a pure number (0, 0) or an amount per share (1, -1); nothing else.
  const perShare = dim === 1 && shareDim === -1;
  const money = dim === 1 && shareDim === 0;
  if (!perShare && !money && !(dim === 0 && shareDim === 0))
    return review('the definition does not compute an amount, a ratio or a per-share figure');
  const days = /\bdays\b/.test(q) || hasNumber(d.expr, '365');
  let unit: DefinedUnit;
  if (perShare) {
    if (askedPercent)
      return review(
        'the question asks for a percent of a per-share figure the definition computes',
      );
    unit = 'USD/share';
  } else if (money) {
    if (askedPercent)
      return review('the question asks for a percent of an amount the definition computes');
    unit = 'USD';
  } else {
    if (askedMoney)
      return review('the question asks for an amount but its definition computes a ratio');
    if (/\bper (?:diluted |basic )?share\b/.test(q))
      return review('a per-share figure: not read by the definition compiler');
    unit = days ? 'days' : askedPercent ? 'percent' : 'ratio';
  }

  const computed = computeWith(d.expr, main, resolve);
  if (!computed.ok) return review(computed.reason, computed.hints);
  // A count must have been read as one (its scale checked against the printed EPS).
  if ([...counted].some((i) => !computed.counts.has(i)))
    return review('a share count the definition names was not read and checked as a count');
  const { inputs, scale } = computed;
  const raw = computed.value;
  const value = unit === 'percent' ? mul(raw, dec('100')) : raw;
  if (unit === 'days' && (cmp(value, dec('0')) < 0 || cmp(value, dec('3650')) > 0))
    return review(`computed ${toString(value)} days is implausible`);
  if (unit === 'percent' && cmp(value, dec('-1000')) < 0)
    return review('computed percent is implausible');

  const {
    requested,
    outScale,
    rounding: asked,
    rounded,
  } = presentValue(q, value, { amount: unit === 'USD', tableScale: scale, places: 2 });
  const answer =
    unit === 'USD'
      ? dollarsText(rounded, outScale)
      : unit === 'USD/share'
        ? dollarsText(rounded, 'units')
        : unit === 'percent'
          ? `${rounded}%`
          : unit === 'days'
            ? `${rounded} days`
            : rounded;
  const kind = unit === 'USD' ? 'currency_amount' : unit === 'USD/share' ? 'per_share' : unit;
  // With no period outside the definition, the answer is over the years its operands name.
  const periods =
    spread && ownYears.length > 1 ? ownYears.sort().map((y) => `FY${y}`) : [periodLabel(main)];
  const form = (s: AnswerForm['scale'], rounding: number | null): AnswerForm => ({
    kind,
    scale: unit === 'USD' ? s : null,
    currency: unit === 'USD' || unit === 'USD/share' ? 'USD' : null,
    rounding,
    periods,
    periodCount: periods.length,
    operation: operationOf(d.expr, unit, d.named),
    definition: null,
  });
  const confidence = Math.min(...inputs.map((i) => i.confidence));
  return {
    status: 'answered',
    answer,
    unit,
    value: toString(value),
    scale: outScale,
    roundedTo: asked,
    confidence,
    expression: showExpression(d.expr),
    period: periodLabel(main),
    inputs,
    citations: inputs.map((i) => i.citation),
    asked: form(requested, asked),
    delivered: form(outScale, asked),
    deliveredFormula: formulaOf(d.expr),
    names: [...new Set(items.map((i) => i.name))],
  };
}
