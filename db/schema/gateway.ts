import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  timestamp,
  bigint,
  integer,
  jsonb,
  primaryKey,
  unique,
  index,
  check,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * Per-org risk configuration. No row means the defaults (the same numbers as the column
 * defaults, repeated in db/repositories/gateway.ts DEFAULT_RISK_SETTINGS).
 */
export const gatewayRiskSettings = pgTable(
  'gateway_risk_settings',
  {
    orgId: text('org_id')
      .primaryKey()
      .references(() => organizations.id),
    /** At or above this amount (minor units, any currency) a write needs one approval. */
    moderateAmountMinor: bigint('moderate_amount_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`500000`),
    /** At or above this amount a write needs multi-party approval. */
    highAmountMinor: bigint('high_amount_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`2500000`),
    /** Distinct approvers a high-risk write needs. */
    highLaneApprovals: integer('high_lane_approvals').notNull().default(2),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'gateway_risk_settings_order',
      sql`${t.moderateAmountMinor} > 0 and ${t.highAmountMinor} >= ${t.moderateAmountMinor}`,
    ),
    check('gateway_risk_settings_approvals', sql`${t.highLaneApprovals} between 2 and 10`),
  ],
);

export const SUBMISSION_STATUSES = [
  'awaiting_approval',
  'approved',
  'applied',
  'rejected',
  'expired',
  'failed',
] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/**
 * One row per gateway submission (= one gatewayWorkflow run): who submitted what, from which
 * source, how it scored, and what became of it.
 */
export const gatewaySubmissions = pgTable(
  'gateway_submissions',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    idempotencyKey: text('idempotency_key').notNull(),
    workflowId: text('workflow_id').notNull(),
    runId: text('run_id').notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    submitter: jsonb('submitter').notNull(),
    /** 'system': the platform's own bootstrap writes (default chart, first grants). */
    submitterKind: text('submitter_kind').$type<'user' | 'agent' | 'system'>().notNull(),
    submitterUserId: text('submitter_user_id'),
    agentType: text('agent_type'),
    agentInstanceId: text('agent_instance_id'),
    operatorUserId: text('operator_user_id'),
    sourceRef: text('source_ref'),
    riskScore: integer('risk_score').notNull(),
    lane: text('lane').$type<'low' | 'moderate' | 'high'>().notNull(),
    rulesFired: jsonb('rules_fired').notNull(),
    requiredApprovals: integer('required_approvals').notNull(),
    status: text('status').$type<SubmissionStatus>().notNull(),
    error: jsonb('error'),
    result: jsonb('result'),
    dueAt: timestamp('due_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
  },
  (t) => [
    unique('gateway_submissions_org_key').on(t.orgId, t.idempotencyKey),
    index('gateway_submissions_agent_instance').on(t.agentInstanceId),
    check('gateway_submissions_lane_known', sql`${t.lane} in ('low','moderate','high')`),
    check(
      'gateway_submissions_status_known',
      sql`${t.status} in ('awaiting_approval','approved','applied','rejected','expired','failed')`,
    ),
    check(
      'gateway_submissions_submitter',
      sql`(${t.submitterKind} = 'user' and ${t.submitterUserId} is not null) or (${t.submitterKind} = 'agent' and ${t.agentInstanceId} is not null and ${t.operatorUserId} is not null) or (${t.submitterKind} = 'system' and ${t.submitterUserId} is null and ${t.agentInstanceId} is null)`,
    ),
    // A lane's approvals cannot be recorded lower than the lane demands (system bootstrap
    // writes are applied by the platform itself, audited as such).
    check(
      'gateway_submissions_lane_approvals',
      sql`${t.submitterKind} = 'system' or (${t.lane} = 'low' and ${t.requiredApprovals} = 0) or (${t.lane} = 'moderate' and ${t.requiredApprovals} >= 1) or (${t.lane} = 'high' and ${t.requiredApprovals} >= 2)`,
    ),
  ],
);

/** One vote per approver per submission (primary key): a double vote cannot be stored. */
export const gatewayApprovals = pgTable(
  'gateway_approvals',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    approverUserId: text('approver_user_id').notNull(),
    decision: text('decision').$type<'approve' | 'reject'>().notNull(),
    note: text('note'),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.submissionId, t.approverUserId] }),
    check('gateway_approvals_decision_known', sql`${t.decision} in ('approve','reject')`),
  ],
);

/** What an applied submission changed: one row per entity touched. */
export const gatewayEffects = pgTable(
  'gateway_effects',
  {
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    action: text('action').notNull(),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.entityType, t.entityId] })],
);
