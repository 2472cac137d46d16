import { pgTable, text, timestamp, jsonb, bigserial, index } from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * Append-only audit trail. The unique idempotency key (workflow id + step) is what makes a
 * retried activity write its row once; a trigger (migration 0001) refuses UPDATE and DELETE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    event: text('event').notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    actor: text('actor').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_subject').on(t.orgId, t.subjectType, t.subjectId)],
);
