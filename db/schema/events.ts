import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  timestamp,
  integer,
  jsonb,
  primaryKey,
  index,
  uniqueIndex,
  check,
  foreignKey,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

export const EVENT_STATES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'ignored',
  'expired',
  'duplicate',
] as const;
export type EventState = (typeof EVENT_STATES)[number];
export const EVENT_SOURCES = ['email', 'schedule', 'connector', 'rule', 'agent'] as const;

/**
 * One row per accepted event (and one per duplicate, pointing at the event it duplicated).
 * Only an active event (pending/processing) holds its dedup key: the partial unique index is
 * the database's half of "only active events block a duplicate"; the workflow id is the other.
 * Keyed by (org, id), like every tenant table.
 */
export const events = pgTable(
  'events',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    type: text('type').notNull(),
    source: text('source').notNull(),
    payload: jsonb('payload').notNull(),
    dedupKey: text('dedup_key').notNull(),
    workflowId: text('workflow_id').notNull(),
    state: text('state').$type<EventState>().notNull(),
    duplicateOf: text('duplicate_of'),
    causation: jsonb('causation'),
    attempts: integer('attempts').notNull().default(0),
    detail: text('detail'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'events_org_pk', columns: [t.orgId, t.id] }),
    uniqueIndex('events_active_dedup')
      .on(t.orgId, t.type, t.dedupKey)
      .where(sql`${t.state} in ('pending','processing')`),
    index('events_org_state').on(t.orgId, t.state),
    check(
      'events_state_known',
      sql`${t.state} in ('pending','processing','completed','failed','ignored','expired','duplicate')`,
    ),
    check(
      'events_source_known',
      sql`${t.source} in ('email','schedule','connector','rule','agent')`,
    ),
    check(
      'events_duplicate_points',
      sql`(${t.state} = 'duplicate') = (${t.duplicateOf} is not null)`,
    ),
  ],
);

/** Every state an event passed through, with its time: seq is the workflow's own counter. */
export const eventTransitions = pgTable(
  'event_transitions',
  {
    orgId: text('org_id').notNull(),
    eventId: text('event_id').notNull(),
    seq: integer('seq').notNull(),
    state: text('state').$type<EventState>().notNull(),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'event_transitions_org_pk', columns: [t.orgId, t.eventId, t.seq] }),
    foreignKey({
      name: 'event_transitions_event_same_org',
      columns: [t.orgId, t.eventId],
      foreignColumns: [events.orgId, events.id],
    }),
  ],
);
