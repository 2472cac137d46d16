import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  timestamp,
  integer,
  bigint,
  boolean,
  jsonb,
  primaryKey,
  index,
  check,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

/**
 * Agent definitions synced from agents/<type>/ at worker start. `enabled` and `apiKeyHash`
 * belong to operators: the sync inserts them once and never overwrites them.
 */
export const agents = pgTable('agents', {
  agentType: text('agent_type').primaryKey(),
  modelTier: text('model_tier').notNull(),
  executionMode: text('execution_mode').notNull(),
  maxConcurrentRuns: integer('max_concurrent_runs').notNull(),
  timeoutMinutes: integer('timeout_minutes').notNull(),
  triggerEvents: jsonb('trigger_events').$type<string[]>().notNull(),
  allowedTools: jsonb('allowed_tools').$type<string[]>().notNull(),
  allowedWorkflows: jsonb('allowed_workflows').$type<string[]>().notNull(),
  config: jsonb('config').notNull(),
  prompt: text('prompt').notNull(),
  configHash: text('config_hash').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  apiKeyHash: text('api_key_hash'),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Per-org runtime settings: the member who operates the org's agents (their writes are
 * submitted under this operator), the org's cap on concurrent runs and its monthly budget.
 */
export const orgAgentSettings = pgTable('org_agent_settings', {
  orgId: text('org_id')
    .primaryKey()
    .references(() => organizations.id),
  operatorUserId: text('operator_user_id'),
  maxConcurrentRuns: integer('max_concurrent_runs'),
  monthlyBudgetMicroUsd: bigint('monthly_budget_micro_usd', { mode: 'bigint' }),
});

export const AGENT_RUN_STATES = [
  'pending',
  'running',
  'completed',
  'failed',
  'cancelled',
  'timeout',
  'waiting_approval',
  'waiting_human',
] as const;
export type AgentRunState = (typeof AGENT_RUN_STATES)[number];

/** One row per agent instance (= one agentRunWorkflow run). */
export const agentRuns = pgTable(
  'agent_runs',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    agentType: text('agent_type').notNull(),
    eventId: text('event_id'),
    attempt: integer('attempt').notNull(),
    executionMode: text('execution_mode').notNull(),
    state: text('state').$type<AgentRunState>().notNull(),
    outcome: text('outcome'),
    reason: text('reason'),
    trigger: jsonb('trigger').notNull(),
    output: jsonb('output'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('agent_runs_org_agent').on(t.orgId, t.agentType),
    index('agent_runs_event').on(t.eventId),
    check(
      'agent_runs_state_known',
      sql`${t.state} in ('pending','running','completed','failed','cancelled','timeout','waiting_approval','waiting_human')`,
    ),
  ],
);

export const agentRunTransitions = pgTable(
  'agent_run_transitions',
  {
    runId: text('run_id')
      .notNull()
      .references(() => agentRuns.id),
    seq: integer('seq').notNull(),
    state: text('state').$type<AgentRunState>().notNull(),
    detail: text('detail'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/** The run's progress log: what it did, step by step (seq is the workflow's counter). */
export const agentRunProgress = pgTable(
  'agent_run_progress',
  {
    runId: text('run_id')
      .notNull()
      .references(() => agentRuns.id),
    seq: integer('seq').notNull(),
    message: text('message').notNull(),
    data: jsonb('data'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.seq] })],
);

/** Run → gateway submissions (the submission's submitter names the run: both directions). */
export const agentRunSubmissions = pgTable(
  'agent_run_submissions',
  {
    runId: text('run_id')
      .notNull()
      .references(() => agentRuns.id),
    submissionId: text('submission_id').notNull(),
    kind: text('kind').notNull(),
    outcome: text('outcome'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.submissionId] })],
);

/**
 * One row per model call. A call is first `reserved` at its worst-case cost (max_tokens) in
 * the same transaction that checks the budgets, then `recorded` at its real cost; a call
 * that never happened is `released`. Costs are integer micro-dollars (never floats).
 */
export const modelCalls = pgTable(
  'model_calls',
  {
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    orgId: text('org_id').notNull(),
    agentType: text('agent_type').notNull(),
    month: text('month').notNull(),
    modelTier: text('model_tier').notNull(),
    model: text('model').notNull(),
    status: text('status').$type<'reserved' | 'recorded' | 'released'>().notNull(),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    cacheCreationTokens: integer('cache_creation_tokens').notNull().default(0),
    cacheReadTokens: integer('cache_read_tokens').notNull().default(0),
    reservedMicroUsd: bigint('reserved_micro_usd', { mode: 'bigint' }).notNull(),
    costMicroUsd: bigint('cost_micro_usd', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    /** The model's reply, so a retried activity returns it instead of paying twice. */
    response: jsonb('response'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('model_calls_run').on(t.runId),
    index('model_calls_org_month').on(t.orgId, t.month),
    check('model_calls_status_known', sql`${t.status} in ('reserved','recorded','released')`),
  ],
);
