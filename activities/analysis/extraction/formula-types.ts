/**
 * The shape of a catalog formula (result kind, cited inputs, variants tried in order), what a
 * catalog metric is under an aggregate, and the exact-decimal helpers entries are written with.
 * Shared by the data in formula-definitions.ts and the evaluator in formula-catalog.ts.
 */
import { z } from 'zod';
import { add, dec, div, mul, type Decimal } from '../../../workflows/analysis/decimal-core';
import type { MetricDefinition } from './metric-types';

// per_share: only a per-share metric under an aggregate (the change of diluted EPS); no
// catalog formula computes one.
export const FormulaResultKindSchema = z.enum(['percent', 'ratio', 'money', 'days', 'per_share']);
export type FormulaResultKind = z.infer<typeof FormulaResultKindSchema>;

/** What a catalog metric is under an aggregate (a count's change is a plain number). */
export const RESULT_KIND_OF_METRIC: Record<MetricDefinition['kind'], FormulaResultKind> = {
  money: 'money',
  ratio_percent: 'percent',
  per_share: 'per_share',
  count: 'ratio',
};

export interface InputRef {
  metric: string;
  /** Fiscal-year offset from the year being computed: 0 this year, -1 the prior year. */
  offset: number;
}

export type Get = (metric: string, offset: number) => Decimal;

export interface Variant {
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

export const P = 24;
export const HUNDRED = dec('100');
export const TWO = dec('2');
export const DAYS = dec('365');
export const pct = (a: Decimal, b: Decimal) => mul(div(a, b, P), HUNDRED);
export const avg2 = (get: Get, m: string) => div(add(get(m, 0), get(m, -1)), TWO, P);
export const cur = (m: string): InputRef => ({ metric: m, offset: 0 });
export const both = (m: string): InputRef[] => [cur(m), { metric: m, offset: -1 }];
