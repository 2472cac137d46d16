import { cpus, tmpdir } from 'node:os';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectClient } from '../client/temporal-connection';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../config/env';
import { ensureOrganization } from '../db/repositories/organizations';
import { runStates, runsOfEvent, setOrgAgentSettings } from '../db/repositories/agent-runs';
import { eventsByState, getEvent } from '../db/repositories/events';
import { slotsStateQuery, slotsWorkflowId } from '../workflows/agent-runs/contract';
import { createWorker } from '../worker';
import { EventsClient } from '../client/events-client';
import { TERMINAL_EVENT_STATES } from '../workflows/events/contract';
import { PROJECT_ROOT } from './lib/temporal-binaries';
import { benchPorts, bringUpBenchPlatform } from './lib/bench-platform';

/**
 * `npm run bench -- events [--json FILE] [--n 1000] [--probe 50] [--cap 20] [--small-orgs 5
 * --small-n 100]`: event pickup latency and sustained throughput of the agent runtime; with
 * --small-orgs, the fairness case (small orgs sending right behind the big org's burst). Runs
 * on a throw-away database (DATABASE_URL's server, else an embedded PostgreSQL) and its own
 * dev server (ports CS_BENCH_TEMPORAL_PORT, CS_BENCH_PG_PORT).
 *
 * The agent is the shipped document_analyst with its analysis replaced by a fake that
 * returns at once: what is measured is the runtime (event workflow, dispatch, slots, agent
 * instance, bookkeeping), not the analysis.
 *
 * - pickupLatencyMs: accepted → agent instance started (its row written by its first
 *   activity), over `probe` events sent one at a time on an idle runtime.
 * - pickupToRunningMs: accepted → running (slots granted), same events.
 * - eventsPerSecond: a burst of n events for one org (plus the small orgs'), first accept →
 *   last terminal state.
 * - dropped: burst events accepted that never reached a terminal state.
 * - rssMiBPerCachedWorkflow: the process's RSS growth per workflow in the worker's cache.
 */
export interface EventsBench {
  suite: 'events';
  events: number;
  probeEvents: number;
  orgCap: number;
  pickupLatencyMs: { p50: number; p95: number; p99: number };
  pickupToRunningMs: { p50: number; p95: number; p99: number };
  burstPickupLatencyMs: { p50: number; p95: number; p99: number };
  eventsPerSecond: number;
  /** Seconds from the burst's start until the big org's last event was terminal. */
  burstCompletedAtS: number;
  /** Per small org (fairness case): when its last event was terminal, and its pickup waits. */
  fairness: {
    orgId: string;
    events: number;
    completedAtS: number;
    pickupWaitMs: { p50: number; p95: number; p99: number };
  }[];
  dropped: number;
  maxConcurrentAnalyses: number;
  maxCachedWorkflows: number;
  /** Process RSS growth per cached workflow, from before the burst to its most-cached sample. */
  rssMiBPerCachedWorkflow: number | null;
  agentWork: string;
  cores: number;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (n: number) => Math.round(n * 10) / 10;
const dist = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { p50: round(pct(s, 50)), p95: round(pct(s, 95)), p99: round(pct(s, 99)) };
};

export async function benchEvents(opts: {
  n: number;
  probe: number;
  cap: number;
  /** The fairness case: this many other orgs send smallN events each, right after the burst. */
  smallOrgs?: number;
  smallN?: number;
  /**
   * Run after the probe, before the burst, on this bench's platform (the combined bench's
   * polling baseline): the database owner's URL and the gaps between the probe's sends, ms.
   */
  afterProbe?: (ctx: { ownerUrl: string; probeGapsMs: number[] }) => Promise<void>;
}): Promise<EventsBench> {
  const cfg = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  try {
    const { database, runCfg } = await bringUpBenchPlatform(
      cfg,
      {
        name: 'events',
        ...benchPorts(0, { temporal: 17_352, pg: 25_498 }),
      },
      stops,
    );
    const org = `bench-${Date.now().toString(36)}`;
    await ensureOrganization(database.db, { id: org, name: 'Bench Org' });
    await setOrgAgentSettings(database.db, { orgId: org, maxConcurrentRuns: opts.cap });

    const agentsDir = mkdtempSync(join(tmpdir(), 'cs-bench-agents-'));
    stops.push(async () => rmSync(agentsDir, { recursive: true, force: true }));
    const target = join(agentsDir, 'document_analyst');
    cpSync(join(PROJECT_ROOT, 'agents', 'document_analyst'), target, { recursive: true });
    const config = parse(readFileSync(join(target, 'config.yaml'), 'utf8')) as Record<
      string,
      unknown
    >;
    writeFileSync(
      join(target, 'config.yaml'),
      stringify({ ...config, max_concurrent_runs: opts.cap }),
    );

    let inFlight = 0;
    let maxInFlight = 0;
    const fakeAnalyze = async () => {
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      await Promise.resolve();
      inFlight -= 1;
      return { requestId: 'bench', outcome: 'delivered', answer: null };
    };
    // A base queue: the domains' queues derive from it (bench-ev-events, bench-ev-agents, …).
    const taskQueue = 'bench-ev';
    const { worker, connection } = await createWorker({
      cfg: runCfg,
      database,
      taskQueue,
      agentRuntime: { agentsDir },
      activityOverrides: { agentAnalyzeDocument: fakeAnalyze as never },
    });
    const running = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await running;
      await connection.close();
    });
    const client = await connectClient(runCfg, database.db);
    stops.push(() => client.connection.close());
    const events = new EventsClient(client, database.db, { taskQueue, retryDelaysMs: [] });
    const smallOrgs = Array.from({ length: opts.smallOrgs ?? 0 }, (_, k) => `${org}-small${k + 1}`);
    for (const o of smallOrgs) {
      await ensureOrganization(database.db, { id: o, name: o });
      await setOrgAgentSettings(database.db, { orgId: o, maxConcurrentRuns: opts.cap });
    }
    const send = (tag: string, i: number, orgId = org) =>
      events.acceptEvent({
        orgId,
        type: 'document.received',
        source: 'connector',
        payload: { documentId: `${tag}-${i}` },
      });

    // Read in the event's own org: events and runs are keyed by (org, id).
    const pickup = async (eventId: string, orgId = org) => {
      const ev = await getEvent(database.db, orgId, eventId);
      const [run] = await runsOfEvent(database.db, orgId, eventId);
      if (!ev || !run) return null;
      return {
        started: run.createdAt.getTime() - ev.acceptedAt.getTime(),
        running: run.startedAt ? run.startedAt.getTime() - ev.acceptedAt.getTime() : null,
      };
    };

    // Latency on an idle runtime: one event at a time.
    const probeStarted: number[] = [];
    const probeRunning: number[] = [];
    const probeSentAt: number[] = [];
    for (let i = 0; i < opts.probe; i++) {
      probeSentAt.push(performance.now());
      const a = await send('probe', i);
      await events.result(a.workflowId);
      const p = await pickup(a.eventId);
      if (p) {
        probeStarted.push(p.started);
        if (p.running !== null) probeRunning.push(p.running);
      }
    }

    await opts.afterProbe?.({
      ownerUrl: database.ownerUrl,
      probeGapsMs: probeSentAt.slice(1).map((t, i) => t - (probeSentAt[i] ?? t)),
    });

    // Throughput: a burst for one org. Progress goes to stderr every 10 s, so a stall shows
    // where it is (event and run states, the worker's cache and in-flight work, the slots).
    global.gc?.();
    const heapBase = {
      heap: process.memoryUsage().rss,
      cached: worker.getStatus().numCachedWorkflows,
    };
    let heapPeak = { heap: heapBase.heap, cached: heapBase.cached };
    const t0 = performance.now();
    const ticker = setInterval(() => {
      void (async () => {
        const st = worker.getStatus();
        // RSS, not heapUsed: workflows run in the worker's own thread and isolate.
        const heap = process.memoryUsage().rss;
        if (st.numCachedWorkflows > heapPeak.cached)
          heapPeak = { heap, cached: st.numCachedWorkflows };
        const slots = await Promise.all(
          [`agent:${org}:document_analyst`, `org:${org}`].map((scope) =>
            client.workflow
              .getHandle(slotsWorkflowId(taskQueue, scope))
              .query(slotsStateQuery)
              .then(
                (v) =>
                  `${scope.split(':')[0]} held ${v.held} waiting ${v.waiting} granted ${v.granted}`,
              )
              .catch(() => `${scope.split(':')[0]} ?`),
          ),
        );
        console.error(
          `[${Math.round((performance.now() - t0) / 1000)} s] events ${JSON.stringify(await eventsByState(database.db, org))} runs ${JSON.stringify(await runStates(database.db, org))} cached ${st.numCachedWorkflows} rss ${Math.round(heap / 2 ** 20)} MiB activations ${st.numInFlightWorkflowActivations} la ${st.numInFlightLocalActivities} acts ${st.numInFlightNonLocalActivities} | ${slots.join(' | ')}`,
        );
      })().catch((err: unknown) => console.error('progress failed:', err));
    }, 10_000);
    stops.push(async () => clearInterval(ticker));
    const accepted = await Promise.all(Array.from({ length: opts.n }, (_, i) => send('burst', i)));
    // Fairness: the small orgs' events arrive behind the whole burst of the big one.
    const small = await Promise.all(
      smallOrgs.flatMap((o) =>
        Array.from({ length: opts.smallN ?? 0 }, (_, i) =>
          send('small', i, o).then((a) => ({ ...a, orgId: o })),
        ),
      ),
    );
    const doneAt = new Map<string, number>();
    await Promise.all(
      [...accepted, ...small].map((a) =>
        Promise.race([
          events
            .result(a.workflowId)
            .catch(() => null)
            .then(() => void doneAt.set(a.eventId, (performance.now() - t0) / 1000)),
          new Promise((r) => setTimeout(r, 40 * 60_000)),
        ]),
      ),
    );
    const seconds = (performance.now() - t0) / 1000;
    clearInterval(ticker);
    let dropped = 0;
    const burstPickup: number[] = [];
    const fairness: EventsBench['fairness'] = [];
    for (const o of smallOrgs) {
      const mine = small.filter((a) => a.orgId === o);
      const waits: number[] = [];
      for (const a of mine) {
        const ev = await getEvent(database.db, a.orgId, a.eventId);
        if (!ev || !TERMINAL_EVENT_STATES.includes(ev.state)) dropped += 1;
        const p = await pickup(a.eventId, a.orgId);
        if (p) waits.push(p.started);
      }
      fairness.push({
        orgId: o,
        events: mine.length,
        completedAtS: round(Math.max(...mine.map((a) => doneAt.get(a.eventId) ?? Infinity))),
        pickupWaitMs: dist(waits),
      });
    }
    const bigDone = accepted.map((a) => doneAt.get(a.eventId) ?? Infinity);
    for (const a of accepted) {
      const ev = await getEvent(database.db, org, a.eventId);
      if (!ev || !TERMINAL_EVENT_STATES.includes(ev.state)) dropped += 1;
      const p = await pickup(a.eventId);
      if (p) burstPickup.push(p.started);
    }
    return {
      suite: 'events',
      events: opts.n,
      probeEvents: opts.probe,
      orgCap: opts.cap,
      pickupLatencyMs: dist(probeStarted),
      pickupToRunningMs: dist(probeRunning),
      burstPickupLatencyMs: dist(burstPickup),
      eventsPerSecond: round((opts.n + small.length) / seconds),
      burstCompletedAtS: round(Math.max(...bigDone)),
      fairness,
      dropped,
      maxConcurrentAnalyses: maxInFlight,
      maxCachedWorkflows: worker.maxCachedWorkflows,
      rssMiBPerCachedWorkflow:
        heapPeak.cached > heapBase.cached
          ? round((heapPeak.heap - heapBase.heap) / 2 ** 20 / (heapPeak.cached - heapBase.cached))
          : null,
      agentWork: 'document_analyst with a fake analyze_document that returns at once',
      cores: cpus().length,
    };
  } finally {
    for (const stop of stops.reverse())
      await stop().catch((err: unknown) => console.error('stop failed:', err));
  }
}
