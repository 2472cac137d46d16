import { and, asc, eq, isNull, lt } from 'drizzle-orm';
import { eventOutbox } from '../schema';
import type { Q } from './ledger';

export type OutboxRow = typeof eventOutbox.$inferSelect;
export type NewOutboxRow = Pick<
  OutboxRow,
  'orgId' | 'eventId' | 'type' | 'source' | 'payload' | 'origin'
>;

/** Records an event in the caller's transaction; the same event again is a no-op. */
export async function insertOutboxEvent(q: Q, row: NewOutboxRow): Promise<void> {
  await q
    .insert(eventOutbox)
    .values(row)
    .onConflictDoNothing({ target: [eventOutbox.orgId, eventOutbox.eventId] });
}

export async function getOutboxEvent(
  q: Q,
  orgId: string,
  eventId: string,
): Promise<OutboxRow | null> {
  const [row] = await q
    .select()
    .from(eventOutbox)
    .where(and(eq(eventOutbox.orgId, orgId), eq(eventOutbox.eventId, eventId)));
  return row ?? null;
}

/** The oldest events not yet handed over, created before `before` (the in-line hand-over's grace). */
export async function outboxNotHandedOver(
  q: Q,
  opts: { before: Date; limit: number },
): Promise<OutboxRow[]> {
  return q
    .select()
    .from(eventOutbox)
    .where(and(isNull(eventOutbox.handedOverAt), lt(eventOutbox.createdAt, opts.before)))
    .orderBy(asc(eventOutbox.createdAt))
    .limit(opts.limit);
}

/** The event's workflow was started (or found started): the outbox is done with it. */
export async function markOutboxHandedOver(
  q: Q,
  r: { orgId: string; eventId: string; workflowId: string },
): Promise<void> {
  await q
    .update(eventOutbox)
    .set({ handedOverAt: new Date(), workflowId: r.workflowId })
    .where(
      and(
        eq(eventOutbox.orgId, r.orgId),
        eq(eventOutbox.eventId, r.eventId),
        isNull(eventOutbox.handedOverAt),
      ),
    );
}
