import {
  bundleWorkflowCode,
  Runtime,
  Worker,
  type LogLevel,
  type NativeConnection,
  type WorkerPlugin,
} from '@temporalio/worker';
import { Client } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { untilReachable } from './config/until-reachable';
import { createLogger } from './config/logging';
import { tracingPlugins } from './config/tracing';
import { loadConfig, type AppConfig } from './config/env';
import { openDatabase, type Database } from './db/connection';
import { runMigrations } from './db/migrate';
import { connectWorker } from './client/temporal-connection';
import { createPayloadCodec, dataConverterOf } from './client/codec/payload-codec';
import {
  registerAgentRuntime,
  type AgentRuntime,
  type AgentRuntimeOptions,
} from './domains/agent-runtime';
import type { RequestsRuntimeOptions } from './domains/requests-runtime';
import { defaultMaxCachedWorkflows } from './config/worker-cache';
import {
  DOMAINS,
  RESERVED_QUEUE_SUFFIXES,
  slotsTaskQueue,
  type Domain,
} from './workflows/task-queue';
import { DOMAIN_MODULES } from './domains';
import type { Activities, DomainContext } from './domains/domain';
import { WorkerGroup } from './worker-group';

type Bundle = { code: string } | { codePath: string };

/**
 * Splits the process's workflow-cache budget over the domains it runs, by their weights
 * (each domain is its own Temporal worker with its own cache; together they stay within the
 * budget the heap allows — config/worker-cache.ts).
 */
export function cacheShares(domains: readonly Domain[], budget: number): Map<Domain, number> {
  const total = domains.reduce((n, d) => n + DOMAIN_MODULES[d].cacheWeight, 0);
  return new Map(
    domains.map((d) => [
      d,
      Math.max(2, Math.floor((budget * DOMAIN_MODULES[d].cacheWeight) / total)),
    ]),
  );
}

/**
 * The Temporal workers for a set of domains on a base queue: one per domain on
 * `<base>-<domain>` with that domain's activities, plus the slot worker on `<base>-slots`
 * when the agents domain is among them. createWorker uses it with the real activities; the
 * time-skipping tests with their stubs.
 */
export async function createDomainWorkers(opts: {
  connection: NativeConnection;
  namespace: string;
  baseQueue: string;
  domains: readonly Domain[];
  workflowBundle: Bundle;
  activitiesOf: (domain: Domain) => Activities;
  /** The process's cache budget, split over the domains (default: sized from the heap). */
  maxCachedWorkflows?: number;
  plugins?: () => Promise<WorkerPlugin[]>;
  /** The payload codec (createWorker passes the installation's; stub-activity tests none). */
  dataConverter?: DataConverter;
  /**
   * Also poll the bare base queue with every workflow and every domain's activities: what
   * the single worker served before the split, so runs started then finish (their own
   * activities stay on the base queue; their calls into other domains go to those queues).
   */
  drainBaseQueue?: boolean;
}): Promise<WorkerGroup> {
  const suffix = RESERVED_QUEUE_SUFFIXES.find((s) => opts.baseQueue.endsWith(`-${s}`));
  if (suffix)
    throw new Error(
      `task queue ${opts.baseQueue} is not a base queue (it ends in -${suffix}): the domains' queues derive from the base`,
    );
  if (opts.domains.length === 0) throw new Error('no domains to run');
  if (opts.drainBaseQueue && opts.domains.length !== DOMAINS.length)
    throw new Error('draining the base queue needs every domain in the process');
  const shares = cacheShares(opts.domains, opts.maxCachedWorkflows ?? defaultMaxCachedWorkflows());
  // Created side by side: each Worker.create loads the workflow bundle into its own V8 context
  // on its own thread, the slow part of a worker's start (a test file starts one per domain).
  const pending: [string, Promise<Worker>][] = opts.domains.map((domain) => [
    domain,
    (async () =>
      Worker.create({
        connection: opts.connection,
        namespace: opts.namespace,
        taskQueue: DOMAIN_MODULES[domain].taskQueue(opts.baseQueue),
        workflowBundle: opts.workflowBundle,
        activities: opts.activitiesOf(domain),
        dataConverter: opts.dataConverter,
        // OpenTelemetry spans for workflows and activities when an exporter is configured.
        plugins: (await opts.plugins?.()) ?? [],
        maxCachedWorkflows: shares.get(domain),
        // Deploys send SIGTERM: in-flight activities finish (or time out and retry elsewhere).
        shutdownGraceTime: '20s',
      }))(),
  ]);
  if (opts.drainBaseQueue) {
    pending.push([
      'base',
      (async () =>
        Worker.create({
          connection: opts.connection,
          namespace: opts.namespace,
          taskQueue: opts.baseQueue,
          workflowBundle: opts.workflowBundle,
          activities: Object.assign({}, ...DOMAINS.map((d) => opts.activitiesOf(d))) as Activities,
          dataConverter: opts.dataConverter,
          plugins: (await opts.plugins?.()) ?? [],
          maxCachedWorkflows: 50,
          shutdownGraceTime: '20s',
        }))(),
    ]);
  }
  if (opts.domains.includes('agents'))
    // The concurrency semaphores (a few long-lived workflows per org and agent), no activities.
    pending.push([
      'slots',
      Worker.create({
        connection: opts.connection,
        namespace: opts.namespace,
        taskQueue: slotsTaskQueue(opts.baseQueue),
        workflowBundle: opts.workflowBundle,
        dataConverter: opts.dataConverter,
        maxCachedWorkflows: 200,
        maxConcurrentWorkflowTaskExecutions: 8,
        shutdownGraceTime: '20s',
      }),
    ]);
  const created = await Promise.all(pending.map(([, w]) => w));
  const workers = pending.map(([name], i): [string, Worker] => [name, created[i]!]);
  return new WorkerGroup(workers);
}

/**
 * Builds the worker for the domains this process serves (`domains`, else the config's
 * WORKER_DOMAINS, else all five), each on its own queue derived from the base queue, its
 * activities wired once over the database and (when a key is set) the LLM. Exported so tests
 * and the start script can run the same workers in-process.
 */
export async function createWorker(opts: {
  cfg: AppConfig;
  database: Database;
  /** The base task queue (default: the config's TEMPORAL_TASK_QUEUE). */
  taskQueue?: string;
  domains?: readonly Domain[];
  workflowBundle?: Bundle;
  /** Replace activities by name, in whichever of the served domains registers them. */
  activityOverrides?: Record<string, (...args: never[]) => unknown>;
  agentRuntime?: AgentRuntimeOptions;
  requests?: RequestsRuntimeOptions;
}): Promise<{ worker: WorkerGroup; connection: NativeConnection }> {
  // Every payload this worker writes to history is encrypted (client/codec); master keys are
  // read here, so a bad CODEC_MASTER_KEYS stops the worker before it connects.
  const dataConverter = dataConverterOf(createPayloadCodec(opts.cfg, opts.database.db));
  const connection = await connectWorker(opts.cfg);
  const baseQueue = opts.taskQueue ?? opts.cfg.TEMPORAL_TASK_QUEUE;
  const domains = opts.domains ?? opts.cfg.WORKER_DOMAINS;
  try {
    let agentRuntime: Promise<AgentRuntime> | undefined;
    const ctx: DomainContext = {
      cfg: opts.cfg,
      database: opts.database,
      connection,
      // The worker's own connection (and codec) serves the activities' clients too.
      client: new Client({ connection, namespace: opts.cfg.TEMPORAL_NAMESPACE, dataConverter }),
      baseQueue,
      agentRuntime: opts.agentRuntime,
      requests: opts.requests,
      // Events and agent runs: loads and validates agents/ once (a bad config stops the
      // worker here).
      loadAgentRuntime: () =>
        (agentRuntime ??= registerAgentRuntime({
          cfg: opts.cfg,
          db: opts.database.db,
          client: ctx.client,
          taskQueue: baseQueue,
          options: opts.agentRuntime,
        })),
    };
    const activities = new Map<Domain, Activities>();
    for (const d of DOMAINS.filter((x) => domains.includes(x)))
      activities.set(d, await DOMAIN_MODULES[d].activities(ctx));
    const overrides = Object.entries(opts.activityOverrides ?? {});
    for (const [name, fn] of overrides) {
      const owners = [...activities.values()].filter((a) => name in a);
      if (owners.length === 0 && domains.length === DOMAINS.length)
        throw new Error(`activity override ${name}: no domain registers an activity of that name`);
      for (const a of owners) a[name] = fn;
    }
    // One bundle for every worker (bundling is the slow part of start-up).
    const workflowBundle =
      opts.workflowBundle ??
      (await bundleWorkflowCode({ workflowsPath: require.resolve('./workflow-bundle') }));
    const worker = await createDomainWorkers({
      connection,
      namespace: opts.cfg.TEMPORAL_NAMESPACE,
      baseQueue,
      domains: [...activities.keys()],
      workflowBundle,
      activitiesOf: (d) => activities.get(d) ?? {},
      maxCachedWorkflows: opts.cfg.WORKER_MAX_CACHED_WORKFLOWS,
      plugins: () => tracingPlugins(opts.cfg),
      dataConverter,
      drainBaseQueue: opts.cfg.WORKER_DRAIN_BASE_QUEUE,
    });
    return { worker, connection };
  } catch (err) {
    await connection.close();
    throw err;
  }
}

async function main(): Promise<void> {
  // Started by `npm start` with an IPC channel: if that parent dies — at any moment, start-up
  // included — drain and exit too, rather than live on polling with code that may be stale.
  let parentGone = false;
  let onParentGone = (): void => process.exit(0); // nothing to drain before the worker runs
  const cfg = loadConfig();
  // Spawned with a channel that is already closed: the parent died while this process was
  // still loading its modules, before anything could listen for it.
  if (cfg.CS_WATCH_PARENT === '1' && !process.connected) onParentGone();
  if (process.connected) {
    process.once('disconnect', () => {
      parentGone = true;
      onParentGone();
    });
  }
  // JSON lines carrying each workflow's and activity's ids (LOG_FORMAT=pretty for a terminal).
  Runtime.install({ logger: createLogger(cfg.LOG_LEVEL as LogLevel, cfg.LOG_FORMAT, 'worker') });
  const database = await openDatabase(cfg);
  // Started during an outage (a supervisor restarting it, a database restarting), the worker
  // waits for its servers instead of crashing into a restart loop.
  const waitFor = {
    budgetMs: cfg.WORKER_STARTUP_WAIT_MS,
    log: (message: string) => Runtime.instance().logger.warn(message),
  };
  await untilReachable('database', () => runMigrations(database), waitFor);
  const { worker, connection } = await untilReachable(
    'worker start',
    () =>
      createWorker({
        cfg,
        database,
        taskQueue: cfg.TEMPORAL_TASK_QUEUE,
        domains: cfg.WORKER_DOMAINS,
        agentRuntime: cfg.AGENTS_DIR ? { agentsDir: cfg.AGENTS_DIR } : undefined,
      }),
    waitFor,
  );
  Runtime.instance().logger.info('worker started', {
    taskQueue: cfg.TEMPORAL_TASK_QUEUE,
    domains: cfg.WORKER_DOMAINS,
    queues: [...worker.workers.values()].map((w) => w.options.taskQueue),
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
