import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import {
  analysisRequests,
  analysisResults,
  gatewayApprovals,
  gatewaySubmissions,
  humanRequests,
  memberships,
  reviewDecisions,
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
      payload: gatewaySubmissions.payload,
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

/** One decision a person took: a vote on a write, a review, or an answer to a request. */
export interface DecidedTask {
  kind: 'approval' | 'review' | 'request';
  orgId: string;
  id: string;
  subject: string;
  decision: string;
  decidedBy: string;
  decidedAt: Date;
  note: string | null;
  /** Where the task ended (applied, rejected, completed …), as recorded. */
  status: string;
}

/**
 * Decisions taken in these orgs, newest first: every approver's vote on a write, every
 * reviewer's decision, every answered request. The inbox's history view (who decided, when).
 */
export async function decidedTasksIn(
  db: Db,
  orgIds: string[],
  limit = 200,
): Promise<DecidedTask[]> {
  if (orgIds.length === 0) return [];
  const [votes, reviews, answers] = await Promise.all([
    db
      .select({
        orgId: gatewaySubmissions.orgId,
        id: gatewaySubmissions.idempotencyKey,
        kind: gatewaySubmissions.kind,
        status: gatewaySubmissions.status,
        decision: gatewayApprovals.decision,
        decidedBy: gatewayApprovals.approverUserId,
        decidedAt: gatewayApprovals.decidedAt,
        note: gatewayApprovals.note,
      })
      .from(gatewayApprovals)
      .innerJoin(gatewaySubmissions, eq(gatewaySubmissions.id, gatewayApprovals.submissionId))
      .where(inArray(gatewaySubmissions.orgId, orgIds))
      .orderBy(desc(gatewayApprovals.decidedAt))
      .limit(limit),
    db
      .select({
        orgId: reviewDecisions.orgId,
        id: reviewDecisions.requestId,
        queryType: analysisRequests.queryType,
        request: analysisRequests.request,
        decision: reviewDecisions.decision,
        decidedBy: reviewDecisions.reviewerId,
        decidedAt: reviewDecisions.decidedAt,
        note: reviewDecisions.note,
      })
      .from(reviewDecisions)
      .innerJoin(
        analysisRequests,
        and(
          eq(analysisRequests.orgId, reviewDecisions.orgId),
          eq(analysisRequests.requestId, reviewDecisions.requestId),
        ),
      )
      .where(inArray(reviewDecisions.orgId, orgIds))
      .orderBy(desc(reviewDecisions.decidedAt))
      .limit(limit),
    db
      .select({
        orgId: humanRequests.orgId,
        id: humanRequests.id,
        title: humanRequests.title,
        status: humanRequests.status,
        decidedBy: humanRequests.answeredBy,
        decidedAt: humanRequests.closedAt,
        detail: humanRequests.detail,
      })
      .from(humanRequests)
      .where(
        and(
          inArray(humanRequests.orgId, orgIds),
          isNotNull(humanRequests.answeredBy),
          isNotNull(humanRequests.closedAt),
          // Approvals and reviews mirrored as requests are listed above, from their own records.
          sql`${humanRequests.linkKind} is null`,
        ),
      )
      .orderBy(desc(humanRequests.closedAt))
      .limit(limit),
  ]);
  const all: DecidedTask[] = [
    ...votes.map((v) => ({
      kind: 'approval' as const,
      orgId: v.orgId,
      id: v.id,
      subject: v.kind,
      decision: v.decision,
      decidedBy: v.decidedBy,
      decidedAt: v.decidedAt,
      note: v.note,
      status: v.status,
    })),
    ...reviews.map((r) => ({
      kind: 'review' as const,
      orgId: r.orgId,
      id: r.id,
      subject: String((r.request as { queryText?: unknown }).queryText ?? r.queryType),
      decision: r.decision,
      decidedBy: r.decidedBy,
      decidedAt: r.decidedAt,
      note: r.note,
      status: r.decision === 'reject' ? 'rejected' : 'delivered',
    })),
    ...answers.map((a) => ({
      kind: 'request' as const,
      orgId: a.orgId,
      id: a.id,
      subject: a.title,
      decision: 'answer',
      decidedBy: a.decidedBy as string,
      decidedAt: a.decidedAt as Date,
      note: a.detail,
      status: a.status,
    })),
  ];
  return all.sort((a, b) => b.decidedAt.getTime() - a.decidedAt.getTime()).slice(0, limit);
}
