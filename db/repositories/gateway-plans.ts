import { and, desc, eq, sql } from 'drizzle-orm';
import type { SuspensionRecord } from '../../workflows/gateway.contract';
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

/**
 * One suspension of a write and its resume, recorded once (a retried activity writes
 * nothing new); the database audits both in the same statement (migration 0008).
 */
export async function recordSuspension(q: Q, s: SuspensionRecord): Promise<void> {
  await q.execute(sql`
    insert into gateway_suspensions
      (submission_id, org_id, suspension, step, error, suspended_at, resumed_at, resumed_by, note)
    values (${s.submissionId}, ${s.orgId}, ${s.suspension}, ${s.step}, ${s.error},
            ${s.suspendedAt}::timestamptz, ${s.resumedAt}::timestamptz, ${s.resumedBy}, ${s.note ?? null})
    on conflict do nothing`);
}
