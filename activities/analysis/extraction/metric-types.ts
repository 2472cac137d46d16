/**
 * The shape of a catalog metric (what it is, which statement prints it, how its line is
 * named and signed, what range is plausible) and the bounds its entries share. Data only:
 * the entries are in metric-definitions*.ts, the code that reads them in metric-catalog.ts.
 */
import { z } from 'zod';

export const MetricKindSchema = z.enum(['money', 'ratio_percent', 'count', 'per_share']);
export type MetricKind = z.infer<typeof MetricKindSchema>;

export const StatementKindSchema = z.enum(['income', 'balance', 'cash_flow', 'capital', 'any']);
export type StatementKind = z.infer<typeof StatementKindSchema>;

export interface MetricDefinition {
  id: string;
  name: string;
  kind: MetricKind;
  statement: StatementKind;
  /**
   * Normalized line-item names, most specific first. A name ending in " *" matches any
   * continuation ("net income attributable to *" covers whatever the company is called).
   */
  labels: readonly string[];
  /** Labels that start like a synonym but mean something else. */
  exclude?: readonly RegExp[];
  /**
   * 'outflow' metrics are printed in parentheses on the cash-flow statement (capex,
   * dividends, buybacks) or as negative costs by some issuers: the amount is the magnitude.
   * 'expense' lines (income tax) may be a benefit: a row printed all in parentheses is the
   * issuer's presentation of an expense, a lone negative among positives is a benefit.
   */
  sign: 'as_printed' | 'magnitude' | 'expense';
  /** Balance-sheet items are point-in-time; flow items cover a period. */
  instant: boolean;
  /** Plausible range in units of the metric (USD, percent...), after the sign rule. */
  plausible: { min?: string; max?: string };
  /** Phrases a question uses for this metric (lower case), besides the labels. */
  questionPhrases: readonly string[];
}

export const NON_NEG = { min: '0' } as const;
