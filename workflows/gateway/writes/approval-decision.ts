/** An approver's decision on a gateway write, as sent and as recorded histories hold it. */
import { z } from 'zod';

const approvalDecisionShape = z
  .object({
    decision: z.enum(['approve', 'reject']),
    approver: z
      .object({ userId: z.string().min(1).max(128), orgId: z.string().min(1).max(128) })
      .strict(),
    note: z.string().max(4000).optional(),
    /**
     * The plan the approver was shown: its revision and hash (the state view's `revision` and
     * `planHash`). A decision on another revision is refused with the current one named.
     */
    revision: z.number().int().min(0),
    planHash: z.string().regex(/^[0-9a-f]{64}$/, 'a plan hash (64 hex digits)'),
  })
  .strict();

const rejectionNeedsNote = {
  check: (d: { decision: string; note?: string | undefined }) =>
    d.decision !== 'reject' || (d.note ?? '').trim().length > 0,
  params: { message: 'a rejection needs a note saying why', path: ['note'] },
};

/** An approver's decision, sent to the waiting gateway workflow as an Update. */
export const ApprovalDecisionSchema = approvalDecisionShape.refine(
  rejectionNeedsNote.check,
  rejectionNeedsNote.params,
);
/**
 * A decision as histories hold it: those recorded before decisions named their plan carry no
 * revision or hash, and the Update handler must still read them on replay.
 */
export const RecordedApprovalDecisionSchema = approvalDecisionShape
  .partial({ revision: true, planHash: true })
  .refine(rejectionNeedsNote.check, rejectionNeedsNote.params);
export type ApprovalDecision = z.infer<typeof ApprovalDecisionSchema>;
