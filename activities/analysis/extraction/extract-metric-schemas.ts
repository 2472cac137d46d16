/**
 * The shapes of extract-metric.ts: its input, its found / not-found result, the value, citation
 * and candidate summaries it reports, and the parsed document index it reads from.
 */
import { z } from 'zod';
import { ScaleSchema } from './scale';
import { PageTextSchema, PeriodSchema, type IndexedPage } from './statement-table';

export const UnitSchema = z.enum(['USD', 'percent', 'shares', 'USD/share', 'ratio']);
export type Unit = z.infer<typeof UnitSchema>;

export const CitationSchema = z.object({
  page: z.number().int().nonnegative(),
  charStart: z.number().int().nonnegative(),
  charEnd: z.number().int().nonnegative(),
  quote: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const ExtractedValueSchema = z.object({
  amount: z.string(),
  unit: UnitSchema,
  scale: ScaleSchema,
  printed: z.string(),
});
export type ExtractedValue = z.infer<typeof ExtractedValueSchema>;

export const CandidateSummarySchema = z.object({
  page: z.number().int(),
  label: z.string(),
  amount: z.string().nullable(),
  periodHeader: z.string().nullable(),
  confidence: z.number(),
  note: z.string(),
});
export type CandidateSummary = z.infer<typeof CandidateSummarySchema>;

export const ExtractMetricInputSchema = z.object({
  pages: z.array(PageTextSchema),
  metric: z.string(),
  period: PeriodSchema,
  /** Fiscal year the document reports (from filing metadata), used to settle January year-ends. */
  docPeriod: z.number().int().optional(),
  /** Scale the caller wants the amount in; defaults to the table's own scale. */
  targetScale: ScaleSchema.optional(),
  /** Statement the question points at ("using the cash flow statement"). */
  preferStatement: z.enum(['income', 'balance', 'cash_flow', 'capital', 'any']).optional(),
});
export type ExtractMetricInput = z.infer<typeof ExtractMetricInputSchema>;

export const ExtractMetricFoundSchema = z.object({
  status: z.literal('found'),
  metric: z.string(),
  period: PeriodSchema,
  value: ExtractedValueSchema,
  citation: CitationSchema,
  confidence: z.number().min(0).max(1),
  matchedLabel: z.string(),
  periodHeader: z.string(),
  statement: z.string(),
  alternatives: z.array(CandidateSummarySchema),
});
export const ExtractMetricNotFoundSchema = z.object({
  status: z.literal('not_found'),
  metric: z.string(),
  period: PeriodSchema,
  reason: z.string(),
  candidates: z.array(CandidateSummarySchema),
});
export const ExtractMetricResultSchema = z.discriminatedUnion('status', [
  ExtractMetricFoundSchema,
  ExtractMetricNotFoundSchema,
]);
export type ExtractMetricFound = z.infer<typeof ExtractMetricFoundSchema>;
export type ExtractMetricNotFound = z.infer<typeof ExtractMetricNotFoundSchema>;
export type ExtractMetricResult = z.infer<typeof ExtractMetricResultSchema>;

export interface DocumentIndex {
  pages: IndexedPage[];
  fiscalOffset: number | null;
  /** Calendar month the fiscal year ends in; dates elsewhere are interim. */
  fiscalYearEndMonth?: number | null;
}
