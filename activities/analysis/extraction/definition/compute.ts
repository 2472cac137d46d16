import {
  add,
  dec,
  div,
  isZero,
  mul,
  sub,
  type Decimal,
} from '../../../../workflows/analysis/decimal-core';
import { extractMetricFromIndex, type Citation, type DocumentIndex } from '../extract-metric';
import type { AnswerInput } from '../index';
import type { StatementKind } from '../metric-catalog';
import { convertScale, type Scale } from '../scale';
import { itemsOf, type Expr, type ItemNode } from './grammar';
import { resolveLineItem } from './line-item';

/**
 * Evaluates a compiled expression for a period: each operand is resolved against the
 * filing's row labels (line-item.ts) for its own year (or the period asked), read by the
 * catalog's column and scale rules, and cited; the arithmetic is exact decimal.
 */

/** Inputs weaker than this are not delivered (the validation gate's floor). */
export const INPUT_FLOOR = 0.85;
const P = 24;

export interface MainPeriod {
  fiscalYear: number;
  quarter?: number;
}

export const periodLabel = (p: MainPeriod) =>
  p.quarter ? `Q${p.quarter} FY${p.fiscalYear}` : `FY${p.fiscalYear}`;

export type Computed =
  | { ok: true; value: Decimal; inputs: AnswerInput[]; scale: Scale | null }
  | { ok: false; reason: string; hints: Citation[] };

export function computeExpression(
  doc: DocumentIndex,
  expr: Expr,
  main: MainPeriod,
  questionStatement: StatementKind | undefined,
): Computed {
  const review = (reason: string, hints: Citation[] = []): Computed => ({
    ok: false,
    reason,
    hints,
  });
  const items = itemsOf(expr);
  const inputs: AnswerInput[] = [];
  const values = new Map<ItemNode, Decimal>();
  let scale: Scale | null = null;
  for (const item of items) {
    const fiscalYear = item.year ?? (item.priorYear ? main.fiscalYear - 1 : main.fiscalYear);
    const period = main.quarter ? { fiscalYear, quarter: main.quarter } : { fiscalYear };
    const statement: StatementKind | undefined = item.statement ?? questionStatement;
    const li = resolveLineItem(doc, item.name, statement);
    if (!li)
      return review(`"${item.name}" (in "${item.text}") is not a printed line item of this filing`);
    const r = extractMetricFromIndex(
      doc,
      { metric: li.definition.id, period, ...(statement ? { preferStatement: statement } : {}) },
      li.definition,
    );
    if (r.status !== 'found') return review(`"${item.name}": ${r.reason}`);
    if (r.confidence < INPUT_FLOOR)
      return review(`"${item.name}" ${periodLabel(period)} read with confidence ${r.confidence}`, [
        r.citation,
      ]);
    const units = convertScale(r.value.amount, r.value.scale, 'units');
    scale ??= r.value.scale;
    values.set(item, dec(units));
    inputs.push({
      label: item.name,
      metric: li.definition.id,
      unit: 'USD',
      value: units,
      period: periodLabel(period),
      printed: r.value.printed,
      matchedLabel: r.matchedLabel,
      heading: r.statement,
      confidence: r.confidence,
      citation: r.citation,
    });
  }

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
  return { ok: true, value: raw, inputs, scale };
}
