import { z } from 'zod';

/**
 * The inline XBRL fact a citation points at (issue 22): its id in the filing, concept, period
 * (`2024-09-28` or `2023-10-01..2024-09-28`) and the text the filing displays for it. The
 * span of the citation is where that text is printed; the gate checks both.
 */
export const FactRefSchema = z.object({
  factId: z.string().min(1),
  concept: z.string().min(1),
  period: z.string().min(1),
  displayed: z.string(),
});
export type FactRef = z.infer<typeof FactRefSchema>;

/** Where a statement comes from: a span of one page of one document. */
export const CitationSchema = z.object({
  docId: z.string(),
  /** 0-based page index. */
  page: z.number().int().min(0),
  /** Offsets into that page's stored text; quote === pageText.slice(charStart, charEnd). */
  charStart: z.number().int().min(0),
  charEnd: z.number().int().min(0),
  quote: z.string(),
  /** Set when the span is an inline XBRL fact's printed number (absent for text spans). */
  fact: FactRefSchema.optional(),
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
