import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Decision proofs already used: one row per nonce. A proof is single use, so the workflow's
 * proof check claims its nonce here; the claim survives a worker restart and is seen by every
 * worker (an in-memory set would forget on restart and differ per process, and the workflow's
 * own state would not see another submission's or a continued run's claims). `consumedBy`
 * names the activity attempt's workflow run and activity, so a retry of the same check after
 * a lost completion finds its own claim and succeeds. Rows past `expiresAt` can be pruned:
 * their proofs are refused as expired anyway.
 */
export const decisionNonces = pgTable(
  'decision_nonces',
  {
    nonce: text('nonce').primaryKey(),
    orgId: text('org_id').notNull(),
    subjectId: text('subject_id').notNull(),
    userId: text('user_id').notNull(),
    consumedBy: text('consumed_by').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('decision_nonces_expires').on(t.expiresAt)],
);
