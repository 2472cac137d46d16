import { and, desc, eq } from 'drizzle-orm';
import type { Q } from './ledger';
import { gatewayPlanRevisions, gatewayPlanVotes } from '../schema';

export type PlanRevisionRow = typeof gatewayPlanRevisions.$inferSelect;
export type NewPlanRevision = typeof gatewayPlanRevisions.$inferInsert;

/** Records a plan revision once (a retried activity stores nothing new). */
export async function insertPlanRevision(q: Q, row: NewPlanRevision): Promise<void> {
  await q.insert(gatewayPlanRevisions).values(row).onConflictDoNothing();
}

export async function currentPlanRevision(
  q: Q,
  submissionId: string,
): Promise<PlanRevisionRow | undefined> {
  const [row] = await q
    .select()
    .from(gatewayPlanRevisions)
    .where(eq(gatewayPlanRevisions.submissionId, submissionId))
    .orderBy(desc(gatewayPlanRevisions.revision))
    .limit(1);
  return row;
}

/**
 * One vote on one plan revision; the database audits it in the same statement (migration
 * 0008). gateway_approvals (the "who signed it" record) is filled by the database when the
 * submission is applied or rejected, from the votes on the revision that decided it.
 */
export async function recordPlanVote(
  q: Q,
  v: {
    submissionId: string;
    revision: number;
    planHash: string;
    approverUserId: string;
    decision: 'approve' | 'reject';
    note: string | null;
    decidedAt: Date;
  },
): Promise<void> {
  await q.insert(gatewayPlanVotes).values(v).onConflictDoNothing();
}

export async function planVotes(q: Q, submissionId: string, revision: number) {
  return q
    .select()
    .from(gatewayPlanVotes)
    .where(
      and(eq(gatewayPlanVotes.submissionId, submissionId), eq(gatewayPlanVotes.revision, revision)),
    );
}
