import { and, asc, desc, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import {
  agentRuns,
  gatewayPlanVotes,
  humanRequestEvents,
  humanRequestNotifications,
  humanRequests,
  memberships,
  users,
} from '../schema';
import type { Route } from '../../workflows/requests/contract';

export type RequestRow = typeof humanRequests.$inferSelect;
export type NewRequestRow = typeof humanRequests.$inferInsert;

/** Inserts the request once (a retried activity finds its row); returns the stored row. */
export async function insertRequest(db: Db, r: NewRequestRow): Promise<RequestRow> {
  await db.insert(humanRequests).values(r).onConflictDoNothing({ target: humanRequests.id });
  const row = await getRequestRow(db, r.id);
  if (!row) throw new Error(`request ${r.id} was not stored`);
  return row;
}

export async function getRequestRow(db: Db, id: string): Promise<RequestRow | undefined> {
  const rows = await db.select().from(humanRequests).where(eq(humanRequests.id, id));
  return rows[0];
}

export async function getLinkedRequest(
  db: Db,
  linkKind: string,
  linkWorkflowId: string,
): Promise<RequestRow | undefined> {
  const rows = await db
    .select()
    .from(humanRequests)
    .where(
      and(eq(humanRequests.linkKind, linkKind), eq(humanRequests.linkWorkflowId, linkWorkflowId)),
    );
  return rows[0];
}

/**
 * Who gets the request: the named assignee when they hold a role in the org other than
 * viewer, else the org's owner, else any admin (the lowest user id, so the choice is stable).
 */
export async function routeRequest(
  db: Db,
  orgId: string,
  assigneeUserId: string | undefined,
): Promise<{ assigneeUserId: string | null; route: Route; detail: string }> {
  const members = await db
    .select({ userId: memberships.userId, role: memberships.role })
    .from(memberships)
    .where(eq(memberships.orgId, orgId))
    .orderBy(asc(memberships.userId));
  const skipped: string[] = [];
  if (assigneeUserId) {
    if (members.some((m) => m.userId === assigneeUserId && m.role !== 'viewer'))
      return { assigneeUserId, route: 'assignee', detail: `named assignee ${assigneeUserId}` };
    skipped.push(`assignee ${assigneeUserId} holds no answering role in ${orgId}`);
  }
  const owner = members.find((m) => m.role === 'owner');
  if (owner)
    return {
      assigneeUserId: owner.userId,
      route: 'owner',
      detail: [...skipped, `org owner ${owner.userId}`].join('; '),
    };
  skipped.push(`${orgId} has no owner`);
  const admin = members.find((m) => m.role === 'admin');
  if (admin)
    return {
      assigneeUserId: admin.userId,
      route: 'admin',
      detail: [...skipped, `admin ${admin.userId}`].join('; '),
    };
  skipped.push(`${orgId} has no admin`);
  return { assigneeUserId: null, route: 'unrouted', detail: skipped.join('; ') };
}

/** Roles of a user in an org (an answerer needs one other than viewer). */
export async function answeringRoles(db: Db, orgId: string, userId: string): Promise<string[]> {
  const rows = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  return rows.map((r) => r.role);
}

export async function setRoute(
  db: Db,
  id: string,
  r: { assigneeUserId: string | null; route: Route; detail: string },
): Promise<void> {
  await db
    .update(humanRequests)
    .set({ assigneeUserId: r.assigneeUserId, route: r.route, routeDetail: r.detail })
    .where(eq(humanRequests.id, id));
}

/** One event of the request's history; idempotent on (request, seq). */
export async function appendRequestEvent(
  db: Db,
  e: typeof humanRequestEvents.$inferInsert,
): Promise<void> {
  await db.insert(humanRequestEvents).values(e).onConflictDoNothing();
}

export async function requestEvents(db: Db, requestId: string) {
  return db
    .select()
    .from(humanRequestEvents)
    .where(eq(humanRequestEvents.requestId, requestId))
    .orderBy(asc(humanRequestEvents.seq));
}

/** Counters and outcome: absolute values from the workflow, so a retry writes the same. */
export async function updateRequest(
  db: Db,
  id: string,
  set: Partial<
    Pick<
      RequestRow,
      | 'status'
      | 'remindersSent'
      | 'reasks'
      | 'answer'
      | 'answeredBy'
      | 'detail'
      | 'closedAt'
      | 'dueAt'
      | 'expiresAt'
    >
  >,
): Promise<void> {
  await db.update(humanRequests).set(set).where(eq(humanRequests.id, id));
}

/** An org's requests, open ones only unless `all`, oldest due first (the operator's list). */
export async function requestsOfOrg(
  db: Db,
  orgId: string,
  opts: { all?: boolean; limit: number },
): Promise<RequestRow[]> {
  return db
    .select()
    .from(humanRequests)
    .where(
      opts.all
        ? eq(humanRequests.orgId, orgId)
        : and(eq(humanRequests.orgId, orgId), eq(humanRequests.status, 'open')),
    )
    .orderBy(asc(humanRequests.dueAt), asc(humanRequests.id))
    .limit(opts.limit);
}

/** Who may vote on a gateway approval (the gateway checks the same roles when a vote arrives). */
export const APPROVER_ROLES = ['approver', 'admin', 'owner'] as const;

/**
 * A person's inbox, oldest due first: the open requests of one org assigned to them, and every
 * open gateway approval of the org they may still vote on — they hold an approver role there,
 * did not submit it, and have not voted on its current plan revision. A write that needs two
 * approvals is routed to one assignee but waits in every approver's list until it is decided.
 */
export async function inboxRows(db: Db, orgId: string, userId: string): Promise<RequestRow[]> {
  const mayVote = and(
    eq(humanRequests.linkKind, 'gateway_approval'),
    // Listed once routed: its row and its route are written by two statements.
    sql`${humanRequests.route} is not null`,
    sql`${humanRequests.createdByUserId} is distinct from ${userId}`,
    sql`exists (select 1 from ${memberships} where ${memberships.orgId} = ${humanRequests.orgId}
      and ${memberships.userId} = ${userId}
      and ${memberships.role} in (${sql.join(
        APPROVER_ROLES.map((r) => sql`${r}`),
        sql`, `,
      )}))`,
    sql`not exists (select 1 from ${gatewayPlanVotes}
      where ${gatewayPlanVotes.submissionId} = ${humanRequests.evidence}->>'submissionId'
      and ${gatewayPlanVotes.revision} = coalesce((${humanRequests.evidence}->>'revision')::int, 0)
      and ${gatewayPlanVotes.approverUserId} = ${userId})`,
  );
  return db
    .select()
    .from(humanRequests)
    .where(
      and(
        eq(humanRequests.orgId, orgId),
        eq(humanRequests.status, 'open'),
        or(eq(humanRequests.assigneeUserId, userId), mayVote),
      ),
    )
    .orderBy(asc(humanRequests.dueAt), asc(humanRequests.id));
}

/** The latest request of the same (org, type, dedup key) created at or after `since`. */
export async function recentDuplicate(
  db: Db,
  q: { orgId: string; type: string; dedupKey: string; since: Date },
): Promise<RequestRow | undefined> {
  const rows = await db
    .select()
    .from(humanRequests)
    .where(
      and(
        eq(humanRequests.orgId, q.orgId),
        eq(humanRequests.type, q.type),
        eq(humanRequests.dedupKey, q.dedupKey),
        gte(humanRequests.createdAt, q.since),
      ),
    )
    .orderBy(desc(humanRequests.createdAt))
    .limit(1);
  return rows[0];
}

export async function requestsOfRun(db: Db, runId: string): Promise<RequestRow[]> {
  return db.select().from(humanRequests).where(eq(humanRequests.createdByRunId, runId));
}

export async function userEmail(db: Db, userId: string): Promise<string | null> {
  const rows = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return rows[0]?.email ?? null;
}

/** The notification already recorded for (request, purpose, channel), if any. */
export async function getNotification(db: Db, requestId: string, purpose: string, channel: string) {
  const rows = await db
    .select()
    .from(humanRequestNotifications)
    .where(
      and(
        eq(humanRequestNotifications.requestId, requestId),
        eq(humanRequestNotifications.purpose, purpose),
        eq(humanRequestNotifications.channel, channel),
      ),
    );
  return rows[0];
}

export async function recordNotification(
  db: Db,
  n: typeof humanRequestNotifications.$inferInsert,
): Promise<void> {
  await db.insert(humanRequestNotifications).values(n).onConflictDoNothing();
}

export async function notificationsOf(db: Db, requestId: string) {
  return db
    .select()
    .from(humanRequestNotifications)
    .where(eq(humanRequestNotifications.requestId, requestId));
}

/**
 * Completed agent runs of an org since `since` whose trigger was a request callback (the
 * loop breaker counts only these: callback events, completed runs).
 */
export async function completedCallbackRuns(db: Db, orgId: string, since: Date): Promise<number> {
  const rows = await db
    .select({ n: sql<string>`count(*)` })
    .from(agentRuns)
    .where(
      and(
        eq(agentRuns.orgId, orgId),
        eq(agentRuns.state, 'completed'),
        gte(agentRuns.finishedAt, since),
        sql`${agentRuns.trigger} -> 'payload' ->> 'requestCallback' = 'true'`,
      ),
    );
  return Number(rows[0]?.n ?? 0);
}

/** Agent runs of an org in a given state (the lost-delegation scan reads waiting_human). */
export async function runsInState(db: Db, orgId: string, states: string[]) {
  return db
    .select({ id: agentRuns.id, agentType: agentRuns.agentType, finishedAt: agentRuns.finishedAt })
    .from(agentRuns)
    .where(and(eq(agentRuns.orgId, orgId), inArray(agentRuns.state, states as never[])));
}

/** How many requests of (org, type) carried this dedup key (the next one's id suffix). */
export async function countWithDedupKey(
  db: Db,
  orgId: string,
  type: string,
  dedupKey: string,
): Promise<number> {
  const rows = await db
    .select({ n: sql<string>`count(*)` })
    .from(humanRequests)
    .where(
      and(
        eq(humanRequests.orgId, orgId),
        eq(humanRequests.type, type),
        eq(humanRequests.dedupKey, dedupKey),
      ),
    );
  return Number(rows[0]?.n ?? 0);
}
