import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import {
  agentRuns,
  analysisResults,
  events,
  gatewayApprovals,
  gatewaySubmissions,
  modelCalls,
} from '../schema';

/**
 * Read-only aggregates for operators: queue statistics and the Prometheus metrics. Every
 * query is scoped to the given orgs; none reads row contents beyond counts and sums.
 */
type Counts = Record<string, Record<string, number>>;

function group(rows: { orgId: string; k: string; n: number }[]): Counts {
  const out: Counts = {};
  for (const r of rows) (out[r.orgId] ??= {})[r.k] = r.n;
  return out;
}

export async function submissionsByStatus(db: Db, orgIds: string[]): Promise<Counts> {
  if (orgIds.length === 0) return {};
  return group(
    await db
      .select({
        orgId: gatewaySubmissions.orgId,
        k: gatewaySubmissions.status,
        n: sql<number>`count(*)::int`,
      })
      .from(gatewaySubmissions)
      .where(inArray(gatewaySubmissions.orgId, orgIds))
      .groupBy(gatewaySubmissions.orgId, gatewaySubmissions.status),
  );
}

export async function analysesByOutcome(db: Db, orgIds: string[]): Promise<Counts> {
  if (orgIds.length === 0) return {};
  return group(
    await db
      .select({
        orgId: analysisResults.orgId,
        k: analysisResults.outcome,
        n: sql<number>`count(*)::int`,
      })
      .from(analysisResults)
      .where(inArray(analysisResults.orgId, orgIds))
      .groupBy(analysisResults.orgId, analysisResults.outcome),
  );
}

export async function eventsByStateOf(db: Db, orgIds: string[]): Promise<Counts> {
  if (orgIds.length === 0) return {};
  return group(
    await db
      .select({ orgId: events.orgId, k: events.state, n: sql<number>`count(*)::int` })
      .from(events)
      .where(inArray(events.orgId, orgIds))
      .groupBy(events.orgId, events.state),
  );
}

export async function agentRunsByState(db: Db, orgIds: string[]): Promise<Counts> {
  if (orgIds.length === 0) return {};
  return group(
    await db
      .select({ orgId: agentRuns.orgId, k: agentRuns.state, n: sql<number>`count(*)::int` })
      .from(agentRuns)
      .where(inArray(agentRuns.orgId, orgIds))
      .groupBy(agentRuns.orgId, agentRuns.state),
  );
}

/** Upper bounds (seconds) of the approval-latency histogram. */
export const APPROVAL_LATENCY_BUCKETS = [60, 300, 3600, 14_400, 86_400, 604_800] as const;

export interface LatencyHistogram {
  orgId: string;
  /** Cumulative counts per bucket, in APPROVAL_LATENCY_BUCKETS order. */
  buckets: number[];
  count: number;
  sumSeconds: number;
}

/**
 * Time from submission to the decision that closed the vote, for the submissions a person
 * decided (approved and applied, or rejected); low-lane writes applied at once are not
 * approvals and are left out.
 */
export async function approvalLatency(db: Db, orgIds: string[]): Promise<LatencyHistogram[]> {
  if (orgIds.length === 0) return [];
  // An approved write goes straight to applied: its decision is its last vote.
  const decidedAt = sql`coalesce(${gatewaySubmissions.decidedAt}, (select max(${gatewayApprovals.decidedAt}) from ${gatewayApprovals} where ${gatewayApprovals.submissionId} = ${gatewaySubmissions.id}))`;
  const latency = sql`extract(epoch from (${decidedAt} - ${gatewaySubmissions.createdAt}))`;
  const rows = await db
    .select({
      orgId: gatewaySubmissions.orgId,
      count: sql<number>`count(*)::int`,
      sum: sql<string>`coalesce(sum(${latency}), 0)::text`,
      ...Object.fromEntries(
        APPROVAL_LATENCY_BUCKETS.map((b) => [
          `le${b}`,
          sql<number>`(count(*) filter (where ${latency} <= ${b}))::int`,
        ]),
      ),
    })
    .from(gatewaySubmissions)
    .where(
      and(
        inArray(gatewaySubmissions.orgId, orgIds),
        inArray(gatewaySubmissions.status, ['applied', 'rejected']),
        sql`${decidedAt} is not null`,
        sql`${gatewaySubmissions.requiredApprovals} > 0`,
      ),
    )
    .groupBy(gatewaySubmissions.orgId);
  return rows.map((r) => {
    const row = r as unknown as Record<string, number | string>;
    return {
      orgId: r.orgId,
      buckets: APPROVAL_LATENCY_BUCKETS.map((b) => Number(row[`le${b}`])),
      count: r.count,
      sumSeconds: Number(r.sum),
    };
  });
}

/** Recorded model cost per org and agent, in micro-dollars (exact, as bigint). */
export async function costByOrgAgent(
  db: Db,
  orgIds: string[],
): Promise<{ orgId: string; agentType: string; calls: number; costMicroUsd: bigint }[]> {
  if (orgIds.length === 0) return [];
  const rows = await db
    .select({
      orgId: modelCalls.orgId,
      agentType: modelCalls.agentType,
      calls: sql<number>`count(*)::int`,
      cost: sql<string>`coalesce(sum(${modelCalls.costMicroUsd}), 0)::text`,
    })
    .from(modelCalls)
    .where(and(inArray(modelCalls.orgId, orgIds), eq(modelCalls.status, 'recorded')))
    .groupBy(modelCalls.orgId, modelCalls.agentType);
  return rows.map(({ cost, ...r }) => ({ ...r, costMicroUsd: BigInt(cost) }));
}

/** An org's submissions, newest first, optionally in one status. */
export async function listSubmissions(
  db: Db,
  orgId: string,
  status: string | undefined,
  limit: number,
) {
  return db
    .select({
      idempotencyKey: gatewaySubmissions.idempotencyKey,
      kind: gatewaySubmissions.kind,
      status: gatewaySubmissions.status,
      lane: gatewaySubmissions.lane,
      riskScore: gatewaySubmissions.riskScore,
      requiredApprovals: gatewaySubmissions.requiredApprovals,
      submitterKind: gatewaySubmissions.submitterKind,
      submitterUserId: gatewaySubmissions.submitterUserId,
      agentType: gatewaySubmissions.agentType,
      agentInstanceId: gatewaySubmissions.agentInstanceId,
      createdAt: gatewaySubmissions.createdAt,
      dueAt: gatewaySubmissions.dueAt,
      decidedAt: gatewaySubmissions.decidedAt,
      appliedAt: gatewaySubmissions.appliedAt,
    })
    .from(gatewaySubmissions)
    .where(
      and(
        eq(gatewaySubmissions.orgId, orgId),
        status ? eq(gatewaySubmissions.status, status as 'applied') : undefined,
      ),
    )
    .orderBy(sql`${gatewaySubmissions.createdAt} desc`)
    .limit(limit);
}
