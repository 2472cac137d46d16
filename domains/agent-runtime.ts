import type Anthropic from '@anthropic-ai/sdk';
import { anthropicFor } from './anthropic';
import type { Client } from '@temporalio/client';
import type { AppConfig } from '../config/env';
import type { Db } from '../db/connection';
import { createEventsActivities } from '../activities/events';
import { createEventEmitActivities } from '../activities/events/emit';
import {
  dispatchOutbox,
  handOverOutboxEvent,
  type OutboxDispatchReport,
} from '../activities/events/outbox';
import type { OutboxRow } from '../db/repositories/event-outbox';
import { syncAgentSchedules, type ScheduleSyncReport } from '../activities/events/schedules';
import { EventsClient, type EventsClientOptions } from '../client/events-client';
import { AnalysisClient } from '../client/analysis-client';
import { createAgentRunsActivities } from '../activities/agent-runs';
import {
  AGENTS_DIR,
  loadAgentDefinitions,
  syncAgents,
  type AgentDefinition,
} from '../activities/agent-runs/agent-files';
import { loadPriceTable } from '../activities/agent-runs/pricing';

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

/** The agent runtime both the events and the agents domains build on. */
export interface AgentRuntime {
  definitions: AgentDefinition[];
  /** The events domain's activities: event rows and dispatch, and the platform's emitters. */
  eventsActivities: Record<string, (...args: never[]) => unknown>;
  /** The agents domain's activities: run bookkeeping, slots, tools, model calls. */
  runsActivities: Record<string, (...args: never[]) => unknown>;
  /** Makes the agents' Temporal Schedules match their files (the events domain's job). */
  syncSchedules(): Promise<ScheduleSyncReport>;
}

/**
 * The agent runtime's registration: loads agents/ (a bad definition throws AgentConfigError
 * naming file and field, which stops the worker), syncs them to the database, and builds the
 * events and agent-runs domains' activities over the worker's connection. `taskQueue` is the
 * deployment's base queue: the clients inside derive each domain's queue from it.
 */
export async function registerAgentRuntime(deps: {
  cfg: AppConfig;
  db: Db;
  client: Client;
  taskQueue: string;
  options?: AgentRuntimeOptions;
}): Promise<AgentRuntime> {
  const o = deps.options ?? {};
  const definitions = loadAgentDefinitions(o.agentsDir ?? AGENTS_DIR);
  await syncAgents(deps.db, definitions);
  const anthropic = anthropicFor(deps.cfg, o.anthropic);
  // The worker's client (its connection, and the payload codec every process uses).
  const client = deps.client;
  const events = createEventsActivities({
    db: deps.db,
    agents: new Map(definitions.map((d) => [d.config.agent_type, d.snapshot])),
    defaultOrgMaxConcurrentRuns: o.orgMaxConcurrentRuns ?? RUNTIME_DEFAULTS.orgMaxConcurrentRuns,
    globalLlmConcurrency: o.globalLlmConcurrency ?? RUNTIME_DEFAULTS.globalLlmConcurrency,
    llmAvailable: anthropic !== null,
    callbackRunLimit: deps.cfg.CALLBACK_RUN_LIMIT,
    retry: {
      budgetMs: deps.cfg.DB_RETRY_BUDGET_MS,
      maximumIntervalMs: deps.cfg.DB_RETRY_MAX_INTERVAL_MS,
    },
  });
  const runs = createAgentRunsActivities({
    db: deps.db,
    client,
    taskQueue: deps.taskQueue,
    analysis: new AnalysisClient(client, deps.taskQueue),
    anthropic,
    prices: loadPriceTable(),
    prompts: new Map(definitions.map((d) => [d.config.agent_type, d.prompt])),
    defaultOrgMonthlyBudgetMicroUsd:
      o.orgMonthlyBudgetMicroUsd !== undefined
        ? o.orgMonthlyBudgetMicroUsd
        : RUNTIME_DEFAULTS.orgMonthlyBudgetMicroUsd,
    analysisSettleMs: o.analysisSettleMs,
  });
  const emitters = createEventEmitActivities({
    db: deps.db,
    events: platformEventsClient({ ...deps, client }),
  });
  return {
    definitions,
    eventsActivities: { ...events, ...emitters },
    runsActivities: runs,
    // Agent schedules become Temporal Schedules firing on the events queue (idempotent).
    syncSchedules: () =>
      syncAgentSchedules(
        client,
        deps.taskQueue,
        definitions.map((d) => d.config),
      ),
  };
}

/** The entry point of the events the platform emits itself, on the base's events queue. */
function platformEventsClient(deps: {
  db: Db;
  client: Client;
  taskQueue: string;
  options?: AgentRuntimeOptions;
}): EventsClient {
  return new EventsClient(deps.client, deps.db, {
    ...deps.options?.events,
    taskQueue: deps.taskQueue,
  });
}

/**
 * Hands an outbox event (an applied write's `write.applied`) over to its event workflow: what
 * the gateway domain runs after its apply activity, and the outbox dispatcher for the rest.
 * Needs no agent definitions.
 */
export function outboxHandOver(deps: {
  db: Db;
  client: Client;
  taskQueue: string;
  options?: AgentRuntimeOptions;
}): (row: OutboxRow) => Promise<{ workflowId: string }> {
  const events = platformEventsClient(deps);
  return (row) => handOverOutboxEvent({ db: deps.db, events }, row);
}

/** One round of the outbox dispatcher over the platform's events client. */
export function outboxDispatcher(deps: {
  db: Db;
  client: Client;
  taskQueue: string;
  options?: AgentRuntimeOptions;
}): (opts: {
  graceMs: number;
  limit: number;
  heartbeat?: () => void;
}) => Promise<OutboxDispatchReport> {
  const events = platformEventsClient(deps);
  return (opts) => dispatchOutbox({ db: deps.db, events }, opts);
}
