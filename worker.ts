import { bundleWorkflowCode, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { createLogger } from './config/logging';
import { tracingPlugins } from './config/tracing';
import { loadConfig, type AppConfig } from './config/env';
import { openDatabase, type Database } from './db/connection';
import { runMigrations } from './db/migrate';
import { connectWorker } from './client/temporal-connection';
import { createAnalysisActivities } from './activities/analysis';
import { createDocumentActivities } from './activities/documents/ingest';
import { createGatewayActivities } from './activities/gateway';
import { createIdentityActivities } from './activities/identity';
import { decisionSecret } from './activities/identity/decision-secret';
import { LlmExtractor } from './activities/analysis/llm-extraction';
import { ANALYSIS_TASK_QUEUE } from './workflows/analysis.contract';
import { registerAgentRuntime, type AgentRuntimeOptions } from './activities/agent-runs/register';
import { Client } from '@temporalio/client';
import { syncDelegationWatchSchedule } from './activities/requests/watch';
import { registerRequests, type RequestsRuntimeOptions } from './activities/requests/register';
import { defaultMaxCachedWorkflows } from './config/worker-cache';
import { withWriteAppliedEvent } from './activities/events/write-applied';
import { slotsTaskQueue } from './workflows/agent-runs/contract';
import { WorkerGroup } from './worker-group';

/**
 * Builds the worker: one task queue for analysis and ingestion workflows, activities wired
 * once over the database and (when a key is set) the LLM. Exported so tests and the start
 * script can run the same worker in-process.
 */
export async function createWorker(opts: {
  cfg: AppConfig;
  database: Database;
  taskQueue?: string;
  workflowBundle?: { code: string };
  activityOverrides?: Record<string, (...args: never[]) => unknown>;
  agentRuntime?: AgentRuntimeOptions;
  requests?: RequestsRuntimeOptions;
}) {
  const connection = await connectWorker(opts.cfg);
  const taskQueue = opts.taskQueue ?? ANALYSIS_TASK_QUEUE;
  // Events and agent runs: loads and validates agents/ (a bad config stops the worker here).
  const agentRuntime = await registerAgentRuntime({
    cfg: opts.cfg,
    db: opts.database.db,
    connection,
    taskQueue,
    options: opts.agentRuntime,
  }).catch(async (err: unknown) => {
    await connection.close();
    throw err;
  });
  if (opts.cfg.DELEGATION_WATCH_MINUTES > 0)
    await syncDelegationWatchSchedule(
      new Client({ connection, namespace: opts.cfg.TEMPORAL_NAMESPACE }),
      taskQueue,
      opts.cfg.DELEGATION_WATCH_MINUTES,
    ).catch(async (err: unknown) => {
      await connection.close();
      throw err;
    });
  const gateway = createGatewayActivities({
    db: opts.database.db,
    retry: {
      budgetMs: opts.cfg.DB_RETRY_BUDGET_MS,
      maximumIntervalMs: opts.cfg.DB_RETRY_MAX_INTERVAL_MS,
    },
  });
  const activities = {
    ...createAnalysisActivities({ db: opts.database.db, llm: LlmExtractor.fromConfig(opts.cfg) }),
    ...createDocumentActivities(opts.database.db, {
      timeLimitMs: opts.cfg.DOCUMENT_EXTRACT_TIME_LIMIT_MS,
      maxMemoryMb: opts.cfg.DOCUMENT_EXTRACT_MEMORY_MB,
    }),
    ...gateway,
    // Downstream rules: every applied write is announced as a write.applied event.
    gatewayApply: withWriteAppliedEvent(
      gateway.gatewayApply,
      opts.database.db,
      agentRuntime.announceApplied,
    ),
    ...createIdentityActivities({ secret: decisionSecret(opts.cfg) }),
    ...agentRuntime.activities,
    ...registerRequests({
      cfg: opts.cfg,
      db: opts.database.db,
      connection,
      taskQueue,
      options: opts.requests,
    }),
    ...(opts.activityOverrides ?? {}),
  };
  // One bundle for both workers (bundling is the slow part of start-up).
  const workflowBundle =
    opts.workflowBundle ??
    (await bundleWorkflowCode({ workflowsPath: require.resolve('./workflows') }));
  const worker = await Worker.create({
    connection,
    namespace: opts.cfg.TEMPORAL_NAMESPACE,
    taskQueue,
    workflowBundle,
    activities,
    // OpenTelemetry spans for workflows and activities when an exporter is configured.
    plugins: await tracingPlugins(opts.cfg),
    maxCachedWorkflows: opts.cfg.WORKER_MAX_CACHED_WORKFLOWS ?? defaultMaxCachedWorkflows(),
    // Deploys send SIGTERM: in-flight activities finish (or time out and retry elsewhere).
    shutdownGraceTime: '20s',
  });
  // The concurrency semaphores (a few long-lived workflows per org and agent), no activities.
  const slots = await Worker.create({
    connection,
    namespace: opts.cfg.TEMPORAL_NAMESPACE,
    taskQueue: slotsTaskQueue(taskQueue),
    workflowBundle,
    maxCachedWorkflows: 200,
    maxConcurrentWorkflowTaskExecutions: 8,
    shutdownGraceTime: '20s',
  });
  return { worker: new WorkerGroup(worker, slots), connection };
}

async function main(): Promise<void> {
  // Started by `npm start` with an IPC channel: if that parent dies — at any moment, start-up
  // included — drain and exit too, rather than live on polling with code that may be stale.
  let parentGone = false;
  let onParentGone = (): void => process.exit(0); // nothing to drain before the worker runs
  if (process.connected) {
    process.once('disconnect', () => {
      parentGone = true;
      onParentGone();
    });
  }
  const cfg = loadConfig();
  // JSON lines carrying each workflow's and activity's ids (LOG_FORMAT=pretty for a terminal).
  Runtime.install({ logger: createLogger(cfg.LOG_LEVEL as LogLevel, cfg.LOG_FORMAT, 'worker') });
  const database = await openDatabase(cfg);
  await runMigrations(database);
  const { worker, connection } = await createWorker({
    cfg,
    database,
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    agentRuntime: cfg.AGENTS_DIR ? { agentsDir: cfg.AGENTS_DIR } : undefined,
  });
  Runtime.instance().logger.info('worker started', {
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    namespace: cfg.TEMPORAL_NAMESPACE,
    database: cfg.embeddedDatabase ? 'embedded' : 'DATABASE_URL',
  });
  onParentGone = () => {
    const state = worker.getState();
    if (state === 'RUNNING') worker.shutdown();
    else if (state === 'INITIALIZED') process.exit(0); // not polling yet: nothing to drain
  };
  if (parentGone) onParentGone();
  try {
    // Resolves after SIGINT/SIGTERM once in-flight tasks have drained.
    await worker.run();
  } finally {
    await connection.close();
    await database.close();
    // An open IPC channel would keep this process alive after the worker stopped.
    if (process.connected) process.disconnect();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
