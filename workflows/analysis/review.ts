import { z } from 'zod';
import { DecimalStringSchema } from './evidence';

/** A reviewer's decision, sent to the waiting workflow as an Update. */
export const ReviewDecisionSchema = z
  .object({
    decision: z.enum(['approve', 'reject', 'correct']),
    reviewer: z.object({
      userId: z.string().min(1).max(128),
      orgId: z.string().min(1).max(128),
    }),
    note: z.string().max(4000).optional(),
    corrections: z
      .array(
        z.object({
          claimId: z.string().min(1),
          value: DecimalStringSchema,
          unit: z.string().min(1).optional(),
        }),
      )
      .max(200)
      .default([]),
    /**
     * A short-lived token the API or CLI signs after authenticating the reviewer, bound to
     * the org, the request, the reviewer and the decision; the worker verifies it. Optional
     * in the schema only so decisions recorded before proofs existed still replay.
     */
    proof: z.string().min(1).max(4000).optional(),
  })
  .strict()
  .superRefine((d, ctx) => {
    if (d.decision === 'correct' && d.corrections.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['corrections'],
        message: 'a correction needs at least one corrected value',
      });
    }
    if (d.decision === 'correct' && !d.note) {
      ctx.addIssue({
        code: 'custom',
        path: ['note'],
        message: 'a correction needs a note saying why',
      });
    }
    if (d.decision !== 'correct' && d.corrections.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['corrections'],
        message: `corrections are only allowed with decision "correct"`,
      });
    }
    if (d.decision === 'reject' && !d.note) {
      ctx.addIssue({
        code: 'custom',
        path: ['note'],
        message: 'a rejection needs a note saying why',
      });
    }
  });
export type ReviewDecisionInput = z.input<typeof ReviewDecisionSchema>;
export type ReviewDecision = z.output<typeof ReviewDecisionSchema>;

export const DEFAULT_REVIEW_DUE_MS = 14 * 24 * 60 * 60 * 1000;
export const DEFAULT_REVIEW_REMIND_EVERY_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_REVIEW_EXPIRE_MS = 90 * 24 * 60 * 60 * 1000;
