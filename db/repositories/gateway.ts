import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import {
  gatewayApprovals,
  gatewayEffects,
  gatewayRiskSettings,
  gatewaySubmissions,
  type SubmissionStatus,
} from '../schema';
import { DEFAULT_RISK_SETTINGS, type RiskSettings } from '../../workflows/gateway/risk';
import type { Q, Tx } from './ledger';

export async function getRiskSettings(q: Q, orgId: string): Promise<RiskSettings> {
  const [row] = await q
    .select()
    .from(gatewayRiskSettings)
    .where(eq(gatewayRiskSettings.orgId, orgId));
  if (!row) return DEFAULT_RISK_SETTINGS;
  return {
    moderateAmountMinor: row.moderateAmountMinor.toString(),
    highAmountMinor: row.highAmountMinor.toString(),
    highLaneApprovals: row.highLaneApprovals,
  };
}

export type SubmissionRow = typeof gatewaySubmissions.$inferSelect;
export type NewSubmission = typeof gatewaySubmissions.$inferInsert;

/** Inserts the submission once per (org, idempotency key); returns the stored row either way. */
export async function registerSubmission(
  db: Db,
  row: NewSubmission,
): Promise<{ row: SubmissionRow; created: boolean }> {
  const inserted = await db
    .insert(gatewaySubmissions)
    .values(row)
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const existing = await findSubmissionByKey(db, row.orgId, row.idempotencyKey);
  if (!existing) throw new Error(`submission ${row.id} neither inserted nor found`);
  return { row: existing, created: false };
}

/** The org's submission under an idempotency key, if one is registered. */
export async function findSubmissionByKey(
  q: Q,
  orgId: string,
  idempotencyKey: string,
): Promise<SubmissionRow | undefined> {
  const [row] = await q
    .select()
    .from(gatewaySubmissions)
    .where(
      and(
        eq(gatewaySubmissions.orgId, orgId),
        eq(gatewaySubmissions.idempotencyKey, idempotencyKey),
      ),
    );
  return row;
}

export async function getSubmission(q: Q, id: string): Promise<SubmissionRow | undefined> {
  const [row] = await q.select().from(gatewaySubmissions).where(eq(gatewaySubmissions.id, id));
  return row;
}

/**
 * Locks the submission for its apply and, when its recorded votes allow it to be applied now,
 * opens the database's gateway context for it (gateway_begin_apply, migration 0006): without
 * that context the ledger, periods, chart, grants, settings and master data refuse changes.
 */
export async function lockSubmission(tx: Tx, id: string): Promise<SubmissionRow | undefined> {
  await tx.execute(sql`select gateway_begin_apply(${id})`);
  const [row] = await tx
    .select()
    .from(gatewaySubmissions)
    .where(eq(gatewaySubmissions.id, id))
    .for('update');
  return row;
}

export async function setSubmissionStatus(
  q: Q,
  id: string,
  status: SubmissionStatus,
  patch: { error?: unknown; result?: unknown } = {},
): Promise<void> {
  await q
    .update(gatewaySubmissions)
    .set({
      status,
      ...(patch.error !== undefined ? { error: patch.error } : {}),
      ...(patch.result !== undefined ? { result: patch.result } : {}),
      ...(status === 'applied' ? { appliedAt: sql`now()` } : {}),
      ...(status === 'rejected' || status === 'expired' || status === 'approved'
        ? { decidedAt: sql`now()` }
        : {}),
    })
    .where(and(eq(gatewaySubmissions.id, id), sql`${gatewaySubmissions.status} <> 'applied'`));
}

/** One vote per approver (primary key): a retried activity or a double vote stores nothing new. */
export async function recordVote(
  db: Db,
  v: {
    submissionId: string;
    approverUserId: string;
    decision: 'approve' | 'reject';
    note: string | null;
    decidedAt: Date;
  },
): Promise<boolean> {
  const r = await db
    .insert(gatewayApprovals)
    .values(v)
    .onConflictDoNothing()
    .returning({ id: gatewayApprovals.approverUserId });
  return r.length > 0;
}

export async function listVotes(q: Q, submissionId: string) {
  return q
    .select()
    .from(gatewayApprovals)
    .where(eq(gatewayApprovals.submissionId, submissionId))
    .orderBy(asc(gatewayApprovals.decidedAt), asc(gatewayApprovals.approverUserId));
}

export async function insertEffects(
  tx: Tx,
  submissionId: string,
  effects: { entityType: string; entityId: string; action: string }[],
): Promise<void> {
  if (effects.length === 0) return;
  await tx
    .insert(gatewayEffects)
    .values(effects.map((e) => ({ submissionId, ...e })))
    .onConflictDoNothing();
}

export interface AgentChange {
  submissionId: string;
  orgId: string;
  kind: string;
  agentType: string | null;
  agentInstanceId: string;
  operatorUserId: string | null;
  sourceRef: string | null;
  riskScore: number;
  lane: string;
  rulesFired: unknown;
  appliedAt: string;
  effects: { entityType: string; entityId: string; action: string }[];
  /** Who signed: the approvers with their times (empty for a low-risk write applied by policy). */
  signedBy: { userId: string; decidedAt: string }[];
}

/** "What did agent instance X change, and who signed each change?" — one query. */
export async function changesByAgentInstance(
  q: Q,
  agentInstanceId: string,
  orgId?: string,
): Promise<AgentChange[]> {
  const result = await q.execute<{
    id: string;
    org_id: string;
    kind: string;
    agent_type: string | null;
    agent_instance_id: string;
    operator_user_id: string | null;
    source_ref: string | null;
    risk_score: number;
    lane: string;
    rules_fired: unknown;
    applied_at: Date;
    effects: AgentChange['effects'];
    signed_by: AgentChange['signedBy'];
  }>(sql`
    select s.id, s.org_id, s.kind, s.agent_type, s.agent_instance_id, s.operator_user_id, s.source_ref,
           s.risk_score, s.lane, s.rules_fired, s.applied_at,
           coalesce((select json_agg(json_build_object('entityType', f.entity_type, 'entityId', f.entity_id, 'action', f.action)
                                     order by f.entity_type, f.entity_id)
                     from gateway_effects f where f.submission_id = s.id), '[]'::json) as effects,
           coalesce((select json_agg(json_build_object('userId', a.approver_user_id, 'decidedAt', a.decided_at)
                                     order by a.decided_at, a.approver_user_id)
                     from gateway_approvals a where a.submission_id = s.id and a.decision = 'approve'), '[]'::json) as signed_by
    from gateway_submissions s
    where s.agent_instance_id = ${agentInstanceId} and s.status = 'applied' ${orgId ? sql`and s.org_id = ${orgId}` : sql``}
    order by s.applied_at, s.id`);
  return result.rows.map((r) => ({
    submissionId: r.id,
    orgId: r.org_id,
    kind: r.kind,
    agentType: r.agent_type,
    agentInstanceId: r.agent_instance_id,
    operatorUserId: r.operator_user_id,
    sourceRef: r.source_ref,
    riskScore: r.risk_score,
    lane: r.lane,
    rulesFired: r.rules_fired,
    appliedAt: new Date(r.applied_at).toISOString(),
    effects: r.effects,
    signedBy: r.signed_by.map((s) => ({
      userId: s.userId,
      decidedAt: new Date(s.decidedAt).toISOString(),
    })),
  }));
}
