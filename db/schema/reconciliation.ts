import { sql } from 'drizzle-orm';
import {
  check,
  foreignKey,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { bankLines } from './master-data';

export const RECONCILIATION_STATUSES = [
  'pending',
  'matched',
  'settled',
  'asked',
  'handed_on',
] as const;
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number];

/**
 * The reconciliation agent's memory, one row per stored bank line: `pending` until a run
 * decides it, then `matched` (bank_line.match submitted), `settled` (bill.settle submitted),
 * `asked` (in a human request, with the bill ids offered) or `handed_on` (emitted to the bank
 * transaction processor). A re-delivered statement finds its lines decided and does nothing;
 * a run that failed half way leaves the rest `pending` for the retry.
 */
export const bankLineReconciliations = pgTable(
  'bank_line_reconciliations',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    bankLineId: text('bank_line_id').notNull(),
    status: text('status', { enum: RECONCILIATION_STATUSES }).notNull().default('pending'),
    /** The run that stored the line, then the one that decided it. */
    runId: text('run_id').notNull(),
    requestId: text('request_id'),
    /** Bill ids offered to the person for an asked line (the answer must name one or none). */
    candidates: text('candidates')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    submissionId: text('submission_id'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'bank_line_reconciliations_pk', columns: [t.orgId, t.bankLineId] }),
    foreignKey({
      name: 'bank_line_reconciliations_line_same_org',
      columns: [t.orgId, t.bankLineId],
      foreignColumns: [bankLines.orgId, bankLines.id],
    }),
    index('bank_line_reconciliations_request').on(t.orgId, t.requestId),
    check(
      'bank_line_reconciliations_status_known',
      sql`${t.status} in ('pending','matched','settled','asked','handed_on')`,
    ),
    check(
      'bank_line_reconciliations_asked_has_request',
      sql`${t.status} <> 'asked' or ${t.requestId} is not null`,
    ),
  ],
);
export type BankLineReconciliation = typeof bankLineReconciliations.$inferSelect;
