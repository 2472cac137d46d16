import { z } from 'zod';

/** Where a statement comes from: a span of one page of one document. */
export const CitationSchema = z.object({
  docId: z.string(),
  /** 0-based page index. */
  page: z.number().int().min(0),
  /** Offsets into that page's stored text; quote === pageText.slice(charStart, charEnd). */
  charStart: z.number().int().min(0),
  charEnd: z.number().int().min(0),
  quote: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const DecimalStringSchema = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/, 'a decimal number as a string');

export const CLAIM_KINDS = ['money', 'ratio_percent', 'ratio', 'count', 'per_share'] as const;
export const ClaimKindSchema = z.enum(CLAIM_KINDS);

/**
 * A number the output asserts. A printed claim must be found in its cited text; a derived
 * claim (a ratio computed by code) names the printed claims it was computed from.
 */
export const NumericClaimSchema = z.object({
  id: z.string(),
  label: z.string(),
  metric: z.string().nullable(),
  kind: ClaimKindSchema,
  /** Value in `unit` (after scale), as a decimal string — never a float. */
  value: DecimalStringSchema,
  unit: z.string(),
  period: z.string().nullable(),
  /** The number exactly as printed in the source (null for derived claims). */
  printed: z.string().nullable(),
  citations: z.array(CitationSchema),
  derived: z.boolean(),
  formula: z.string().nullable(),
  inputs: z.array(z.string()),
  source: z.enum(['code', 'llm', 'human']),
});
export type NumericClaim = z.infer<typeof NumericClaimSchema>;
