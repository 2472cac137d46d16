import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * The transactional outbox of platform events: an applied write's `write.applied` is written
 * here in the apply transaction, next to its ledger entry, so the event exists exactly when
 * the write does — whatever happens to the process that was to start its workflow. A row is
 * handed over once its event workflow has been started (or found started); the dispatcher
 * starts the ones that never were.
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    /** The event's id (deterministic from its origin: a retried apply writes the same row). */
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    source: text('source').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    /** What caused it (for write.applied: the gateway submission id). */
    origin: text('origin').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set once the event workflow was started or found started; null: not yet handed over. */
    handedOverAt: timestamp('handed_over_at', { withTimezone: true }),
    workflowId: text('workflow_id'),
  },
  (t) => [
    primaryKey({ name: 'event_outbox_org_pk', columns: [t.orgId, t.eventId] }),
    index('event_outbox_not_handed_over')
      .on(t.createdAt)
      .where(sql`${t.handedOverAt} is null`),
  ],
);
