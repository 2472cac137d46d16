import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import {
  analysisRequests,
  analysisResults,
  gatewayApprovals,
  gatewaySubmissions,
  memberships,
  type Role,
} from '../schema';

/** Every org the user holds a role in, with those roles. */
export async function membershipsOf(
  db: Db,
  userId: string,
): Promise<{ orgId: string; roles: Role[] }[]> {
  const rows = await db
    .select({ orgId: memberships.orgId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.orgId));
  const byOrg = new Map<string, Role[]>();
  for (const r of rows) byOrg.set(r.orgId, [...(byOrg.get(r.orgId) ?? []), r.role]);
  return [...byOrg].map(([orgId, roles]) => ({ orgId, roles }));
}

/**
 * Submissions awaiting approval in these orgs that this user may sign: not their own, not
 * an agent's they operate, and not already voted on by them. (The approval Update checks
 * all of it again.)
 */
export async function openApprovalsFor(db: Db, userId: string, orgIds: string[]) {
  if (orgIds.length === 0) return [];
  return db
    .select({
      orgId: gatewaySubmissions.orgId,
      idempotencyKey: gatewaySubmissions.idempotencyKey,
      kind: gatewaySubmissions.kind,
      lane: gatewaySubmissions.lane,
      submitterKind: gatewaySubmissions.submitterKind,
      submitterUserId: gatewaySubmissions.submitterUserId,
      agentType: gatewaySubmissions.agentType,
      createdAt: gatewaySubmissions.createdAt,
      dueAt: gatewaySubmissions.dueAt,
      expiresAt: gatewaySubmissions.expiresAt,
    })
    .from(gatewaySubmissions)
    .where(
      and(
        inArray(gatewaySubmissions.orgId, orgIds),
        eq(gatewaySubmissions.status, 'awaiting_approval'),
        sql`${gatewaySubmissions.submitterUserId} is distinct from ${userId}`,
        sql`${gatewaySubmissions.operatorUserId} is distinct from ${userId}`,
        sql`not exists (select 1 from ${gatewayApprovals} where ${gatewayApprovals.submissionId} = ${gatewaySubmissions.id} and ${gatewayApprovals.approverUserId} = ${userId})`,
      ),
    )
    .orderBy(sql`${gatewaySubmissions.dueAt} asc nulls last`, asc(gatewaySubmissions.createdAt));
}

/** Analyses waiting for a reviewer in these orgs, oldest first. */
export async function openReviewsIn(db: Db, orgIds: string[]) {
  if (orgIds.length === 0) return [];
  return db
    .select({
      orgId: analysisResults.orgId,
      requestId: analysisResults.requestId,
      queryType: analysisRequests.queryType,
      request: analysisRequests.request,
      createdAt: analysisRequests.createdAt,
    })
    .from(analysisResults)
    .innerJoin(
      analysisRequests,
      and(
        eq(analysisRequests.orgId, analysisResults.orgId),
        eq(analysisRequests.requestId, analysisResults.requestId),
      ),
    )
    .where(
      and(inArray(analysisResults.orgId, orgIds), eq(analysisResults.outcome, 'awaiting_review')),
    )
    .orderBy(asc(analysisRequests.createdAt));
}
