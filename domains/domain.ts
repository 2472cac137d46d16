import type { Client } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import type { AppConfig } from '../config/env';
import type { Database } from '../db/connection';
import type { AgentRuntime, AgentRuntimeOptions } from './agent-runtime';
import type { RequestsRuntimeOptions } from './requests-runtime';
import type { Domain } from '../workflows/task-queue';
import type * as Workflows from '../workflows';

export type Activities = Record<string, (...args: never[]) => unknown>;

/** What a domain's registration gets from the process composing it (worker.ts). */
export interface DomainContext {
  cfg: AppConfig;
  database: Database;
  connection: NativeConnection;
  /** A client over the worker's connection (nothing extra to close). */
  client: Client;
  /** The deployment's base task queue; every domain's queue derives from it. */
  baseQueue: string;
  agentRuntime?: AgentRuntimeOptions;
  requests?: RequestsRuntimeOptions;
  /** agents/ loaded, validated and synced once per process, shared by events and agents. */
  loadAgentRuntime(): Promise<AgentRuntime>;
}

/**
 * One domain: its task queue (derived from the base), the workflow types that run on it, and
 * its activities. A worker process composes any set of them (WORKER_DOMAINS), one Temporal
 * worker per domain, so each domain's activity names are its own and a domain scales alone.
 */
export interface DomainModule {
  readonly domain: Domain;
  taskQueue(baseQueue: string): string;
  /** The workflow types started on this domain's queue (exports of workflows/index.ts). */
  readonly workflows: readonly (keyof typeof Workflows)[];
  /**
   * This domain's share of the process's workflow cache, relative to the others it runs with
   * (the events and agent-run workflows are the many; the cache budget is per process).
   */
  readonly cacheWeight: number;
  /** Builds the activities (and does the domain's start-up syncs, e.g. its Schedules). */
  activities(ctx: DomainContext): Promise<Activities>;
}
