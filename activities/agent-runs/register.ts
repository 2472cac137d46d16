import Anthropic from '@anthropic-ai/sdk';
import { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/connection';
import { createEventsActivities } from '../events';
import { announceWriteApplied, createEventEmitActivities, type WriteApplied } from '../events/emit';
import { syncAgentSchedules, type ScheduleSyncReport } from '../events/schedules';
import { EventsClient, type EventsClientOptions } from '../../client/events-client';
import { createAgentRunsActivities } from '.';
import { AGENTS_DIR, loadAgentDefinitions, syncAgents, type AgentDefinition } from './agent-files';
import { loadPriceTable } from './pricing';
import { AGENT_RUNS_TASK_QUEUE } from '../../workflows/agent-runs/contract';

export { AGENT_RUNS_TASK_QUEUE };
export const AGENT_RUNS_WORKFLOWS_PATH = require.resolve('../../workflows/agent-runs');

export interface AgentRuntimeOptions {
  agentsDir?: string;
  /** Concurrent runs per org when the org sets none (org_agent_settings). */
  orgMaxConcurrentRuns?: number;
  /** Concurrent model calls across the platform. */
  globalLlmConcurrency?: number;
  /** Monthly model budget per org when the org sets none; null = unlimited. */
  orgMonthlyBudgetMicroUsd?: bigint | null;
  /** Overrides the Anthropic client built from ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL. */
  anthropic?: Anthropic | null;
  analysisSettleMs?: number;
  /** Retry delays and lifetime of the events the platform emits itself (tests shorten them). */
  events?: Omit<EventsClientOptions, 'taskQueue'>;
}

export const RUNTIME_DEFAULTS = {
  orgMaxConcurrentRuns: 10,
  globalLlmConcurrency: 8,
  orgMonthlyBudgetMicroUsd: 100_000_000n, // $100 a month per org unless the org sets one
} as const;

/**
 * The events and agent-runs domains' registration: loads agents/ (a bad definition throws
 * AgentConfigError naming file and field, which stops the worker), syncs them to the
 * database, and builds both domains' activities over the worker's connection.
 */
export async function registerAgentRuntime(deps: {
  cfg: AppConfig;
  db: Db;
  connection: NativeConnection;
  taskQueue: string;
  options?: AgentRuntimeOptions;
}): Promise<{
  activities: Record<string, (...args: never[]) => unknown>;
  definitions: AgentDefinition[];
  schedules: ScheduleSyncReport;
  /** Emits `write.applied` for an applied gateway write (exactly once per submission). */
  announceApplied: (w: WriteApplied) => Promise<void>;
}> {
  const o = deps.options ?? {};
  const definitions = loadAgentDefinitions(o.agentsDir ?? AGENTS_DIR);
  await syncAgents(deps.db, definitions);
  const anthropic =
    o.anthropic !== undefined
      ? o.anthropic
      : deps.cfg.ANTHROPIC_API_KEY
        ? new Anthropic({
            apiKey: deps.cfg.ANTHROPIC_API_KEY,
            ...(deps.cfg.ANTHROPIC_BASE_URL ? { baseURL: deps.cfg.ANTHROPIC_BASE_URL } : {}),
            maxRetries: 2,
          })
        : null;
  // The worker's own connection serves the activities' client too (NativeConnection is a
  // ConnectionLike), so nothing extra needs closing.
  const client = new Client({
    connection: deps.connection,
    namespace: deps.cfg.TEMPORAL_NAMESPACE,
  });
  const events = createEventsActivities({
    db: deps.db,
    agents: new Map(definitions.map((d) => [d.config.agent_type, d.snapshot])),
    defaultOrgMaxConcurrentRuns: o.orgMaxConcurrentRuns ?? RUNTIME_DEFAULTS.orgMaxConcurrentRuns,
    globalLlmConcurrency: o.globalLlmConcurrency ?? RUNTIME_DEFAULTS.globalLlmConcurrency,
    llmAvailable: anthropic !== null,
  });
  const runs = createAgentRunsActivities({
    db: deps.db,
    client,
    taskQueue: deps.taskQueue,
    anthropic,
    prices: loadPriceTable(),
    prompts: new Map(definitions.map((d) => [d.config.agent_type, d.prompt])),
    defaultOrgMonthlyBudgetMicroUsd:
      o.orgMonthlyBudgetMicroUsd !== undefined
        ? o.orgMonthlyBudgetMicroUsd
        : RUNTIME_DEFAULTS.orgMonthlyBudgetMicroUsd,
    analysisSettleMs: o.analysisSettleMs,
  });
  const eventsClient = new EventsClient(client, deps.db, {
    ...o.events,
    taskQueue: deps.taskQueue,
  });
  const emitters = createEventEmitActivities({ db: deps.db, events: eventsClient });
  // Agent schedules become Temporal Schedules on this task queue (idempotent at every start).
  const schedules = await syncAgentSchedules(
    client,
    deps.taskQueue,
    definitions.map((d) => d.config),
  );
  return {
    activities: { ...events, ...runs, ...emitters },
    definitions,
    schedules,
    announceApplied: async (w) => {
      await announceWriteApplied({ db: deps.db, events: eventsClient }, w);
    },
  };
}
