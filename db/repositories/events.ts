import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import { events, eventTransitions, type EventState } from '../schema';

export type EventRow = typeof events.$inferSelect;

/** Inserts the accepted event (pending) and its first transition; idempotent on the id. */
export async function insertAcceptedEvent(
  db: Db,
  e: {
    id: string;
    orgId: string;
    type: string;
    source: string;
    payload: unknown;
    dedupKey: string;
    workflowId: string;
    causation: unknown;
    acceptedAt: Date;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(events)
      .values({ ...e, state: 'pending', causation: e.causation ?? null })
      .onConflictDoNothing({ target: [events.orgId, events.id] })
      .returning({ id: events.id });
    if (inserted.length > 0)
      await tx
        .insert(eventTransitions)
        .values({
          orgId: e.orgId,
          eventId: e.id,
          seq: 1,
          state: 'pending',
          detail: null,
          at: e.acceptedAt,
        })
        .onConflictDoNothing();
  });
}

/** A duplicate is a row of its own, pointing at the active event it duplicated. */
export async function insertDuplicateEvent(
  db: Db,
  e: {
    id: string;
    orgId: string;
    type: string;
    source: string;
    payload: unknown;
    dedupKey: string;
    workflowId: string;
    duplicateOf: string;
    causation: unknown;
    acceptedAt: Date;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(events).values({
      ...e,
      state: 'duplicate',
      causation: e.causation ?? null,
      detail: `duplicate of active event ${e.duplicateOf}`,
    });
    await tx.insert(eventTransitions).values({
      orgId: e.orgId,
      eventId: e.id,
      seq: 1,
      state: 'duplicate',
      detail: `duplicate of ${e.duplicateOf}`,
      at: e.acceptedAt,
    });
  });
}

/** Records a transition (idempotent on (event, seq)) and moves the row's current state. */
export async function recordEventTransition(
  db: Db,
  t: {
    orgId: string;
    eventId: string;
    seq: number;
    state: EventState;
    detail: string | null;
    at: Date;
    attempts: number;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(eventTransitions)
      .values({
        orgId: t.orgId,
        eventId: t.eventId,
        seq: t.seq,
        state: t.state,
        detail: t.detail,
        at: t.at,
      })
      .onConflictDoNothing()
      .returning({ seq: eventTransitions.seq });
    if (inserted.length === 0) return;
    await tx
      .update(events)
      .set({ state: t.state, detail: t.detail, attempts: t.attempts, updatedAt: t.at })
      .where(and(eq(events.orgId, t.orgId), eq(events.id, t.eventId)));
  });
}

export async function getEvent(db: Db, orgId: string, id: string): Promise<EventRow | undefined> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.orgId, orgId), eq(events.id, id)));
  return row;
}

export async function eventTransitionsOf(db: Db, orgId: string, id: string) {
  return db
    .select()
    .from(eventTransitions)
    .where(and(eq(eventTransitions.orgId, orgId), eq(eventTransitions.eventId, id)))
    .orderBy(asc(eventTransitions.seq));
}

export async function eventsByState(db: Db, orgId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: events.state, n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(eq(events.orgId, orgId)))
    .groupBy(events.state);
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

/**
 * Failed and expired events an operator still has to act on: those not superseded by a later
 * event of the same workflow id (a retry, or the same payload sent again), newest first.
 */
export async function failedEvents(
  db: Db,
  filter: { orgId?: string; limit?: number } = {},
): Promise<EventRow[]> {
  return db
    .select()
    .from(events)
    .where(
      and(
        inArray(events.state, ['failed', 'expired']),
        filter.orgId ? eq(events.orgId, filter.orgId) : undefined,
        sql`not exists (select 1 from ${events} later where later.workflow_id = ${events.workflowId}
              and later.accepted_at > ${events.acceptedAt} and later.state <> 'duplicate')`,
      ),
    )
    .orderBy(desc(events.acceptedAt))
    .limit(filter.limit ?? 100);
}
