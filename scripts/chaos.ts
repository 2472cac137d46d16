import { cpus } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { bringUpChaosPlatform } from './chaos/harness';
import { gatewayWorkerKill, type GatewayWorkerKillResult } from './chaos/gateway-worker-kill';
import { analysisWorkerKill, type AnalysisWorkerKillResult } from './chaos/analysis-worker-kill';
import { restartUnderLoad, type RestartUnderLoadResult } from './chaos/restart-under-load';
import { eventsFaults, type EventsFaultsResult } from './chaos/events-faults';
import { loopBreaker, type LoopBreakerResult } from './chaos/loop-breaker';
import { fairnessBurst, STARVED_FRACTION, type FairnessBurstResult } from './chaos/fairness-burst';
import { invariantViolations, writeAppliedViolations } from './chaos/invariants';
import { eventsOutage, type EventsOutageResult } from './chaos/events-outage';

/**
 * `npm run chaos -- [--short] [--scenario NAME[,NAME…]|all] [--writes N] [--events N] [--runs N]
 * [--kills K] [--seconds S] [--down S] [--big N] [--small-n N] [--json FILE]`: fault scenarios against a platform of
 * its own (dev server, embedded PostgreSQL, a worker process), bounded in time, loopback only.
 * Prints a table and writes the figures; exits non-zero when an invariant broke.
 */
const SCENARIOS = [
  'gateway-worker-kill',
  'analysis-worker-kill',
  'events-faults',
  'loop-breaker',
  'fairness-burst',
  'temporal-restart',
  'postgres-restart',
  'events-outage',
] as const;

const ArgsSchema = z.object({
  short: z.boolean().default(false),
  // One scenario, a comma-separated list, or all.
  scenario: z
    .string()
    .default('all')
    .transform((v) => v.split(',').map((x) => x.trim()))
    .pipe(z.array(z.enum([...SCENARIOS, 'all'])).min(1)),
  // The fairness burst's sizes (default 1,000 and 100, short 100 and 10).
  big: z.coerce.number().int().min(1).max(5000).optional(),
  smallN: z.coerce.number().int().min(1).max(1000).optional(),
  writes: z.coerce.number().int().min(1).max(5000).optional(),
  events: z.coerce.number().int().min(1).max(5000).optional(),
  runs: z.coerce.number().int().min(1).max(2000).optional(),
  kills: z.coerce.number().int().min(0).max(200).optional(),
  seconds: z.coerce.number().int().min(20).max(900).optional(),
  down: z.coerce.number().int().min(0).max(1800).optional(),
  concurrency: z.coerce.number().int().min(1).max(100).default(10),
  json: z.string().optional(),
});

type Scenario = (
  | GatewayWorkerKillResult
  | AnalysisWorkerKillResult
  | RestartUnderLoadResult
  | EventsFaultsResult
  | LoopBreakerResult
  | FairnessBurstResult
  | EventsOutageResult
) & { workerCrashes: { at: string; exit: string; lastLine: string }[] };

function printScenario(r: Scenario): void {
  console.log(r.scenario);
  for (const [k, v] of Object.entries(r)) {
    if (k === 'scenario') continue;
    const shown = Array.isArray(v)
      ? `${v.length}${v.length ? ` e.g. ${JSON.stringify(v[0])}` : ''}`
      : typeof v === 'object' && v !== null
        ? JSON.stringify(v)
        : String(v);
    console.log(`  ${k.padEnd(24)} ${shown}`);
  }
}

/** What broke in one scenario: its own promises, then the invariants every scenario ends with. */
function broken(r: Scenario): string[] {
  const why: string[] = [];
  if (r.stuckRuns > 0) why.push(`${r.stuckRuns} stuck at the deadline`);
  switch (r.scenario) {
    case 'events-faults':
      if (r.lostEvents > 0) why.push(`${r.lostEvents} events lost (accepted, never terminal)`);
      if (r.runsTwice > 0) why.push(`${r.runsTwice} events or runs run twice`);
      if (r.duplicateEventRows > 0) why.push(`${r.duplicateEventRows} events recorded twice`);
      if (r.completed !== r.events) why.push(`${r.events - r.completed} events not completed`);
      break;
    case 'gateway-worker-kill':
      for (const n of r.notAsPlanned) why.push(`${n.key}: ${n.outcome}, planned ${n.planned}`);
      if (r.entries !== r.applied) why.push(`${r.entries} entries for ${r.applied} applied writes`);
      break;
    case 'analysis-worker-kill':
      for (const d of r.differentFromFaultFree) why.push(`${d.requestId}: ${d.detail}`);
      for (const d of r.auditTrailDiffers) why.push(`${d.requestId} audit trail: ${d.detail}`);
      break;
    case 'loop-breaker':
      if (r.eventsPastCap > 0) why.push(`${r.eventsPastCap} events beyond the hop cap`);
      if (r.breakerStops !== r.chains)
        why.push(`the breaker stopped ${r.breakerStops} of ${r.chains} loops`);
      if (r.eventsPerChain.some((n) => n !== r.hopCap + 1))
        why.push(`events per loop ${r.eventsPerChain.join(',')}, expected ${r.hopCap + 1}`);
      if (r.runsTwice > 0) why.push(`${r.runsTwice} events run twice`);
      break;
    case 'events-outage':
      if (r.applied !== r.writes)
        why.push(`${r.writes - r.applied} of ${r.writes} writes not applied`);
      why.push(...writeAppliedViolations(r));
      break;
    case 'fairness-burst':
      if (r.lostEvents > 0) why.push(`${r.lostEvents} events lost`);
      if (r.notCompleted > 0) why.push(`${r.notCompleted} events not completed`);
      if (r.capExceeded > 0) why.push(`${r.capExceeded} orgs ran more than their cap at once`);
      if (r.smallDoneFraction === null || r.smallDoneFraction >= STARVED_FRACTION)
        why.push(
          `small orgs starved: the last finished at ${r.smallDoneFraction ?? '?'} of the burst's time`,
        );
      break;
    default:
      if (r.applied !== r.writes)
        why.push(`${r.writes - r.applied} of ${r.writes} writes not applied`);
      if (r.recoverySeconds === null && r.secondsAfterBack >= 70)
        why.push('throughput not back to 95% of the baseline within 60 s');
  }
  if (r.workerCrashes.length > 0) why.push(`${r.workerCrashes.length} worker crashes`);
  return [...why, ...invariantViolations(r)];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      short: { type: 'boolean' },
      scenario: { type: 'string' },
      big: { type: 'string' },
      'small-n': { type: 'string' },
      writes: { type: 'string' },
      events: { type: 'string' },
      runs: { type: 'string' },
      kills: { type: 'string' },
      seconds: { type: 'string' },
      down: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const args = ArgsSchema.parse({ ...values, smallN: values['small-n'] });
  const run = (s: (typeof SCENARIOS)[number]) =>
    args.scenario.includes('all') || args.scenario.includes(s);
  const log = (s: string) => console.error(s);
  const platform = await bringUpChaosPlatform(log);
  // Ctrl-C or a kill stops what we started: no dev server, database or worker left behind.
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.once(sig, () => void platform.stop().finally(() => process.exit(130)));
  const results: Scenario[] = [];
  const crashesBefore = () => platform.worker.crashes.length;
  try {
    if (run('gateway-worker-kill')) {
      const writes = args.writes ?? (args.short ? 40 : 300);
      const kills = args.kills ?? (args.short ? 3 : 10);
      log(`gateway-worker-kill: ${writes} writes, ${kills} worker kills…`);
      const c0 = crashesBefore();
      const r = await gatewayWorkerKill(
        platform,
        { writes, kills, concurrency: args.concurrency, deadlineMs: 240_000 },
        log,
      );
      results.push({ ...r, workerCrashes: platform.worker.crashes.slice(c0) });
    }
    if (run('analysis-worker-kill')) {
      const runs = args.runs ?? (args.short ? 12 : 60);
      const kills = args.kills ?? (args.short ? 3 : 10);
      log(`analysis-worker-kill: ${runs} analyses, ${kills} worker kills…`);
      const c0 = crashesBefore();
      const r = await analysisWorkerKill(
        platform,
        { runs, kills, concurrency: Math.min(args.concurrency, 6), deadlineMs: 240_000 },
        log,
      );
      results.push({ ...r, workerCrashes: platform.worker.crashes.slice(c0) });
    }
    if (run('loop-breaker')) {
      const chains = args.short ? 3 : 10;
      const kills = args.kills ?? (args.short ? 1 : 3);
      log(`loop-breaker: ${chains} self-triggering loops, ${kills} worker kills…`);
      const c0 = crashesBefore();
      const r = await loopBreaker(
        platform,
        { chains, kills, quietMs: 5000, deadlineMs: 180_000 },
        log,
      );
      results.push({ ...r, workerCrashes: platform.worker.crashes.slice(c0) });
    }
    if (run('fairness-burst')) {
      const sizes = {
        bigN: args.big ?? (args.short ? 100 : 1000),
        smallOrgs: 5,
        smallN: args.smallN ?? (args.short ? 10 : 100),
      };
      const kills = args.kills ?? 1;
      log(
        `fairness-burst: ${sizes.bigN} events for one org, ${sizes.smallN} for each of ${sizes.smallOrgs} others, ${kills} worker kill…`,
      );
      const c0 = crashesBefore();
      const r = await fairnessBurst(
        platform,
        { ...sizes, cap: 4, kills, deadlineMs: args.short ? 300_000 : 1_800_000 },
        log,
      );
      results.push({ ...r, workerCrashes: platform.worker.crashes.slice(c0) });
    }
    if (run('events-faults')) {
      const events = args.events ?? (args.short ? 40 : 200);
      const kills = args.kills ?? (args.short ? 3 : 10);
      const downMs = (args.down ?? (args.short ? 3 : 10)) * 1000;
      log(`events-faults: ${events} events, ${kills} worker kills, one PostgreSQL restart…`);
      const c0 = crashesBefore();
      const r = await eventsFaults(
        platform,
        { events, kills, downMs, concurrency: args.concurrency, deadlineMs: 300_000 },
        log,
      );
      results.push({ ...r, workerCrashes: platform.worker.crashes.slice(c0) });
    }
    for (const target of ['temporal', 'postgres'] as const) {
      if (!run(`${target}-restart`)) continue;
      const seconds = args.seconds ?? (args.short ? 30 : 150);
      const downMs = (args.down ?? (args.short ? 3 : 10)) * 1000;
      log(`${target}-restart: ${seconds} s of writes, ${downMs / 1000} s down…`);
      const c0 = crashesBefore();
      const r = await restartUnderLoad(
        platform,
        target,
        { seconds, downMs, concurrency: args.concurrency, deadlineMs: 240_000 },
        log,
      );
      results.push({ ...r, workerCrashes: platform.worker.crashes.slice(c0) });
    }
    if (run('events-outage')) {
      // Several minutes down (short: 90 s, still twice the event's quick local retries).
      const seconds = args.seconds ?? (args.short ? 60 : 150);
      const downMs = (args.down ?? (args.short ? 90 : 300)) * 1000;
      log(`events-outage: ${seconds} s of writes (3/s), PostgreSQL down ${downMs / 1000} s…`);
      const c0 = crashesBefore();
      const r = await eventsOutage(
        platform,
        { seconds, downMs, ratePerSecond: 3, deadlineMs: 600_000 },
        log,
      );
      results.push({ ...r, workerCrashes: platform.worker.crashes.slice(c0) });
    }
  } finally {
    // A call a scenario gave up on at its deadline may still be retrying on the client's
    // channel: once the platform is stopped, its "channel shut down" is not a new failure.
    process.on('uncaughtException', (err) => {
      if (/Channel has been shut down/.test(String(err))) return;
      console.error(err);
      process.exit(1);
    });
    await platform.stop();
  }
  for (const r of results) printScenario(r);
  const runsOf = (r: Scenario): number => {
    switch (r.scenario) {
      case 'events-faults':
        return r.events;
      case 'analysis-worker-kill':
        return r.runs;
      case 'loop-breaker':
        return r.eventsPerChain.reduce((a, n) => a + n, 0);
      case 'fairness-burst':
        return r.bigOrgEvents + r.smallOrgs * r.smallOrgEvents;
      default:
        return r.writes;
    }
  };
  const sum = (f: (r: Scenario) => number) => results.reduce((a, r) => a + f(r), 0);
  const failures = results.flatMap((r) => broken(r).map((w) => `${r.scenario}: ${w}`));
  const report = {
    mode: args.short ? 'short' : 'full',
    cores: cpus().length,
    runs: sum(runsOf),
    workerKills: sum((r) => ('workerKills' in r ? r.workerKills : 0)),
    doublePostings: sum((r) => r.doublePostings),
    lostEvents: sum((r) => ('lostEvents' in r ? r.lostEvents : 0)),
    unbalancedOrgs: Math.max(0, ...results.map((r) => r.unbalancedOrgs)),
    stuckRuns: sum((r) => r.stuckRuns),
    auditChainsBroken: sum((r) => r.auditChainsBroken.length),
    unmatchedApprovals: sum((r) => r.unmatchedApprovals.length),
    approvalsChecked: sum((r) => r.approvalsChecked),
    invariantViolations: failures,
    scenarios: Object.fromEntries(results.map((r) => [r.scenario, r])),
  };
  if (args.json) {
    mkdirSync(dirname(args.json), { recursive: true });
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  if (failures.length) {
    console.error(`INVARIANT BROKEN:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

// Exit when the report is out: a handle something left open (a client retrying a call a
// scenario gave up on) must not keep the suite running past its result.
main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
