import { sql } from 'drizzle-orm';
import { check, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { gatewaySubmissions } from './gateway';

/**
 * What approvers were asked to sign: one row per revision of a submission's plan (entries,
 * payee bank account, amounts, lane) with its hash. Apply recomputes the hash; a change
 * opens a new revision that needs its own approvals, and its lane never falls.
 */
export const gatewayPlanRevisions = pgTable(
  'gateway_plan_revisions',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    revision: integer('revision').notNull(),
    planHash: text('plan_hash').notNull(),
    lane: text('lane').$type<'low' | 'moderate' | 'high'>().notNull(),
    requiredApprovals: integer('required_approvals').notNull(),
    risk: jsonb('risk').notNull(),
    plan: jsonb('plan').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.revision] }),
    check('gateway_plan_revisions_lane_known', sql`${t.lane} in ('low','moderate','high')`),
  ],
);

/** One vote per approver per plan revision: an approval signs one exact plan. */
export const gatewayPlanVotes = pgTable(
  'gateway_plan_votes',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    revision: integer('revision').notNull(),
    planHash: text('plan_hash').notNull(),
    approverUserId: text('approver_user_id').notNull(),
    decision: text('decision').$type<'approve' | 'reject'>().notNull(),
    note: text('note'),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.revision, t.approverUserId] }),
    check('gateway_plan_votes_decision_known', sql`${t.decision} in ('approve','reject')`),
  ],
);
