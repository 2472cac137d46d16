import { z } from 'zod';

/**
 * What extract_metric read for an answer from a filing's inline XBRL facts (issue 22): each
 * operand as the tagged fact and as the number printed in the statement table at the same
 * row and column, and whether the two readings agree. An answer is delivered from facts only
 * when every operand agrees; otherwise both go to the reviewer.
 */
export const FactOperandReadingSchema = z.object({
  metric: z.string(),
  period: z.string(),
  fact: z.object({
    factId: z.string(),
    concept: z.string(),
    value: z.string(),
    displayed: z.string(),
    page: z.number().int().nullable(),
  }),
  printed: z.object({
    label: z.string().nullable(),
    cell: z.string().nullable(),
    value: z.string().nullable(),
  }),
  agreed: z.boolean(),
  reasons: z.array(z.string()),
});

export const FactReadingsSchema = z.object({
  /** `facts`: the answer was computed from facts; `text`: the text path answered (facts declined or absent). */
  used: z.enum(['facts', 'text']),
  /** Why the fact path did not answer (null when it did, or when the filing has no facts). */
  declined: z.string().nullable(),
  operands: z.array(FactOperandReadingSchema),
  /** Every operand's fact and printed reading agree (null when no fact was read). */
  agreed: z.boolean().nullable(),
});
export type FactReadings = z.infer<typeof FactReadingsSchema>;
