import {
  pgTable,
  text,
  timestamp,
  jsonb,
  bigserial,
  bigint,
  index,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * Append-only, hash-chained audit trail. The idempotency key (workflow id + step), unique per
 * org, is what makes a retried activity write its row once — an insert under a key that holds a
 * different row is an error that aborts the transaction (audit_append, migration 0020); a trigger refuses UPDATE and DELETE
 * (migration 0001), and another (migration 0006) numbers each org's rows (org_seq) and chains
 * them: row_hash = SHA-256 over a canonical encoding of the row including prev_hash, the
 * previous row's hash in the same org. `npm run cli -- audit verify` recomputes the chain.
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
    idempotencyKey: text('idempotency_key').notNull(),
    actor: text('actor').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Position in the org's chain, 1-based, set by the chaining trigger. */
    orgSeq: bigint('org_seq', { mode: 'number' }),
    prevHash: text('prev_hash'),
    rowHash: text('row_hash'),
  },
  (t) => [
    index('audit_log_subject').on(t.orgId, t.subjectType, t.subjectId),
    uniqueIndex('audit_log_org_seq').on(t.orgId, t.orgSeq),
    // Per org (migration 0020): one org's keys can never pre-empt another org's rows.
    uniqueIndex('audit_log_org_idempotency_key').on(t.orgId, t.idempotencyKey),
  ],
);
