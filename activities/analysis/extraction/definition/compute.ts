import {
  add,
  dec,
  div,
  isZero,
  mul,
  sub,
  type Decimal,
} from '../../../../workflows/analysis/decimal-core';
import {
  extractMetricFromIndex,
  type Citation,
  type DocumentIndex,
  type ExtractMetricResult,
} from '../extract-metric';
import type { AnswerInput } from '../index';
import { METRICS, type StatementKind } from '../metric-catalog';
import { convertScale, type Scale } from '../scale';
import { periodLabel } from '../period-words';
import type { CalendarDate, Period } from '../statement-table';
import { itemsOf, type Expr, type ItemNode } from './grammar';
import { resolveLineItem } from './line-item';
import { checkShareCount, shareCountOf } from './share-count';

/**
 * Evaluates a compiled expression for a period: each operand is resolved against the
 * filing's row labels (line-item.ts) for its own year (or the period asked), read by the
 * catalog's column and scale rules, and cited; the arithmetic is exact decimal.
 */

/** Inputs weaker than this are not delivered (the validation gate's floor). */
export const INPUT_FLOOR = 0.85;
const P = 24;

/** The period a definition is evaluated for: a fiscal year, a quarter, a dated or year-to-date span. */
export type MainPeriod = Period;
export { periodLabel };

export type Computed =
  | {
      ok: true;
      value: Decimal;
      inputs: AnswerInput[];
      scale: Scale | null;
      /** The operands read as counts of shares (the rest are amounts). */
      counts: Set<ItemNode>;
    }
  | { ok: false; reason: string; hints: Citation[] };

/** One operand read for a period: its value in units and how it was read, or why not. */
export type OperandReading =
  | {
      ok: true;
      units: string;
      scale: Scale | null;
      input: AnswerInput;
      /** A count of shares (share-count.ts), not an amount; absent means an amount. */
      count?: boolean;
    }
  | { ok: false; reason: string; hints: Citation[] };

/** Reads an operand (a line item the question names) for one period. */
export type OperandResolver = (item: ItemNode, period: MainPeriod) => OperandReading;

/** The filing's printed rows as operands (line-item.ts → the catalog's table reader). */
export function printedOperands(
  doc: DocumentIndex,
  questionStatement: StatementKind | undefined,
): OperandResolver {
  return (item, period) => {
    const count = shareCountOf(item.name);
    if (count) return readShareCount(doc, item.name, count, period);
    const statement: StatementKind | undefined = item.statement ?? questionStatement;
    const li = resolveLineItem(doc, item.name, statement);
    if (!li) {
      // An operand named exactly as the catalog names a figure ("sales", "net income") is that
      // figure, read by the catalog's rows ("Sales to customers", "Net sales").
      const named = catalogMetricNamed(item.name, statement);
      if (named) return readCatalogOperand(doc, item.name, named, period);
      return {
        ok: false,
        reason: `"${item.name}" (in "${item.text}") is not a printed line item of this filing`,
        hints: [],
      };
    }
    const r = extractMetricFromIndex(
      doc,
      { metric: li.definition.id, period, ...(statement ? { preferStatement: statement } : {}) },
      li.definition,
    );
    return operandFrom(r, item.name, li.definition.id, period);
  };
}

/**
 * A reading of the table reader as an operand: its value in units and the cited input, or why
 * it is none (not found, or read below the input floor).
 */
function operandFrom(
  r: ExtractMetricResult,
  name: string,
  metric: string,
  period: MainPeriod,
  unit: 'USD' | 'shares' = 'USD',
): OperandReading {
  if (r.status !== 'found') return { ok: false, reason: `"${name}": ${r.reason}`, hints: [] };
  if (r.confidence < INPUT_FLOOR)
    return {
      ok: false,
      reason: `"${name}" ${periodLabel(period)} read with confidence ${r.confidence}`,
      hints: [r.citation],
    };
  const units = convertScale(r.value.amount, r.value.scale, 'units');
  return {
    ok: true,
    units,
    scale: r.value.scale,
    input: {
      label: name,
      metric,
      unit,
      value: units,
      period: periodLabel(period),
      printed: r.value.printed,
      matchedLabel: r.matchedLabel,
      heading: r.statement,
      confidence: r.confidence,
      citation: r.citation,
    },
  };
}

/**
 * The catalog amount an operand names by one of the catalog's own phrases for it, on the
 * statement the question names (if any); none for any other wording.
 */
function catalogMetricNamed(name: string, statement: StatementKind | undefined): string | null {
  const want = name.trim().toLowerCase().replace(/\s+/g, ' ');
  const hit = METRICS.find(
    (m) =>
      m.kind === 'money' &&
      (statement === undefined || m.statement === statement) &&
      [m.name, ...m.questionPhrases].some((p) => p.toLowerCase() === want),
  );
  return hit?.id ?? null;
}

/** A catalog amount as an operand: the catalog's reader, its confidence floor, its citation. */
function readCatalogOperand(
  doc: DocumentIndex,
  name: string,
  metric: string,
  period: MainPeriod,
): OperandReading {
  return operandFrom(extractMetricFromIndex(doc, { metric, period }), name, metric, period);
}

/**
 * A share count the definition divides by, read by the catalog's share rows (their own scale
 * rules) and delivered only when net income over it agrees with the printed EPS.
 */
function readShareCount(
  doc: DocumentIndex,
  name: string,
  count: NonNullable<ReturnType<typeof shareCountOf>>,
  period: MainPeriod,
): OperandReading {
  if (typeof count === 'object') return { ok: false, reason: count.review, hints: [] };
  const label = periodLabel(period);
  const reading = operandFrom(
    extractMetricFromIndex(doc, { metric: count, period }),
    name,
    count,
    period,
    'shares',
  );
  if (!reading.ok) return reading;
  const check = checkShareCount(
    doc,
    count,
    { period, label, floor: INPUT_FLOOR },
    dec(reading.units),
  );
  if (!check.ok)
    return {
      ok: false,
      reason: check.reason,
      hints: [reading.input.citation, ...check.hints],
    };
  return { ...reading, count: true };
}

export function computeExpression(
  doc: DocumentIndex,
  expr: Expr,
  main: MainPeriod,
  questionStatement: StatementKind | undefined,
): Computed {
  return computeWith(expr, main, printedOperands(doc, questionStatement));
}

/** The period one operand is read for by its year: its own, else the question's period. */
function yearPeriod(item: ItemNode, main: MainPeriod): MainPeriod | { review: string } {
  // The year of the date the question quotes is that date's, not the operand's own.
  const dateYear = item.year !== undefined && item.year === main.endDate?.year;
  const ownYear = dateYear
    ? undefined
    : (item.year ?? (item.priorYear ? main.fiscalYear - 1 : undefined));
  // A dated or year-to-date period is read as asked; an operand of another year in it has no
  // printed date to be matched by.
  if ((main.endDate || main.months) && ownYear !== undefined && ownYear !== main.fiscalYear)
    return { review: `"${item.name}" of FY${ownYear} in a question about ${periodLabel(main)}` };
  const fiscalYear = ownYear ?? main.fiscalYear;
  return main.endDate || main.months
    ? main
    : main.quarter
      ? { fiscalYear, quarter: main.quarter }
      : { fiscalYear };
}

const sameDate = (a: CalendarDate, b: CalendarDate | undefined) =>
  b !== undefined && a.year === b.year && a.month === b.month && a.day === b.day;

/**
 * The date an operand is read at first, when one applies: its own ("accrued liabilities at
 * July 29, 2023"), or — for an operand that names no period, in a question whose other
 * operands name one date and which names none outside them — that date. The column printed
 * with the date is read, placed in the filing's calendar by the reader: the date's calendar
 * year is not a fiscal year (a retailer's July 29, 2023 is in its fiscal 2024).
 */
function operandDate(
  item: ItemNode,
  main: MainPeriod,
  shared: CalendarDate | undefined,
): CalendarDate | undefined {
  if (item.date) return sameDate(item.date, main.endDate) ? undefined : item.date;
  if (item.year === undefined && !item.priorYear) return shared;
  return undefined;
}

/** Evaluates the expression with each operand read by `resolve` for its own year (or the period asked). */
export function computeWith(expr: Expr, main: MainPeriod, resolve: OperandResolver): Computed {
  const review = (reason: string, hints: Citation[] = []): Computed => ({
    ok: false,
    reason,
    hints,
  });
  const items = itemsOf(expr);
  const inputs: AnswerInput[] = [];
  const values = new Map<ItemNode, Decimal>();
  let scale: Scale | null = null;
  const counts = new Set<ItemNode>();
  const dates = [
    ...new Map(
      items.flatMap((i) =>
        i.date ? [[`${i.date.year}-${i.date.month}-${i.date.day}`, i.date]] : [],
      ),
    ).values(),
  ];
  const shared = dates.length === 1 && !main.endDate && !main.months ? dates[0] : undefined;
  // Operands that had a date to be read at: read there, or (no column printed with it: a 10-K
  // heads its columns by year) by their year. Some at the date and some by the year would mix
  // two periods in one answer: a person reads that.
  const readAt = new Set<'date' | 'year'>();
  for (const item of items) {
    const plain = yearPeriod(item, main);
    const date = operandDate(item, main, shared);
    let r: OperandReading | undefined;
    if (date) {
      r = resolve(item, { fiscalYear: date.year, endDate: date });
      if (r.ok) readAt.add('date');
    }
    if (!r?.ok) {
      if ('review' in plain) return review(plain.review);
      r = resolve(item, plain);
      if (date && r.ok) readAt.add('year');
    }
    if (!r.ok) return review(r.reason, r.hints);
    if (r.count) counts.add(item);
    else scale ??= r.scale;
    values.set(item, dec(r.units));
    inputs.push(r.input);
  }
  if (readAt.size > 1)
    return review('some operands were read at the date the question names and some by its year');

  const evaluate = (e: Expr): Decimal | null => {
    switch (e.kind) {
      case 'num':
        return dec(e.value);
      case 'item':
        return values.get(e) ?? null;
      case 'avg': {
        const xs = e.args.map(evaluate);
        if (xs.some((x) => x === null)) return null;
        return div(
          xs.reduce((a, b) => add(a!, b!), dec('0'))!,
          dec(String(xs.length)),
          P,
        );
      }
      case 'bin': {
        const a = evaluate(e.left);
        const b = evaluate(e.right);
        if (a === null || b === null) return null;
        if (e.op === '+') return add(a, b);
        if (e.op === '-') return sub(a, b);
        if (e.op === '*') return mul(a, b);
        if (isZero(b)) return null;
        return div(a, b, P);
      }
    }
  };
  const raw = evaluate(expr);
  if (raw === null) return review('the definition divides by zero');
  return { ok: true, value: raw, inputs, scale, counts };
}
