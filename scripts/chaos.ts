import { cpus } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { bringUpChaosPlatform } from './chaos/harness';
import { gatewayWorkerKill, type GatewayWorkerKillResult } from './chaos/gateway-worker-kill';
import { restartUnderLoad, type RestartUnderLoadResult } from './chaos/restart-under-load';
import { eventsFaults, type EventsFaultsResult } from './chaos/events-faults';

/**
 * `npm run chaos -- [--short] [--scenario NAME|all] [--writes N] [--kills K] [--seconds S]
 * [--down S] [--json FILE]`: fault scenarios against
 * a platform of its own (dev server, embedded PostgreSQL, a worker process), bounded in time,
 * loopback only. Prints a table and writes the figures; exits non-zero when an invariant broke.
 */
const SCENARIOS = [
  'gateway-worker-kill',
  'temporal-restart',
  'postgres-restart',
  'events-faults',
] as const;

const ArgsSchema = z.object({
  short: z.boolean().default(false),
  scenario: z.enum([...SCENARIOS, 'all']).default('all'),
  writes: z.coerce.number().int().min(1).max(5000).optional(),
  events: z.coerce.number().int().min(1).max(5000).optional(),
  kills: z.coerce.number().int().min(0).max(200).optional(),
  seconds: z.coerce.number().int().min(20).max(900).optional(),
  down: z.coerce.number().int().min(0).max(1800).optional(),
  concurrency: z.coerce.number().int().min(1).max(100).default(10),
  json: z.string().optional(),
});

type GatewayScenario = (GatewayWorkerKillResult | RestartUnderLoadResult) & {
  workerCrashes: { at: string; exit: string; lastLine: string }[];
};
type Scenario = (GatewayWorkerKillResult | RestartUnderLoadResult | EventsFaultsResult) & {
  workerCrashes: { at: string; exit: string; lastLine: string }[];
};

function printScenario(r: Scenario): void {
  console.log(r.scenario);
  for (const [k, v] of Object.entries(r)) {
    if (k === 'scenario') continue;
    const shown = Array.isArray(v)
      ? `${v.length}${v.length ? ` e.g. ${JSON.stringify(v[0])}` : ''}`
      : String(v);
    console.log(`  ${k.padEnd(22)} ${shown}`);
  }
}

function broken(r: Scenario): string[] {
  const why: string[] = [];
  if (r.scenario === 'events-faults') {
    if (r.lostEvents > 0) why.push(`${r.lostEvents} events lost (accepted, never terminal)`);
    if (r.stuckRuns > 0) why.push(`${r.stuckRuns} events stuck at the deadline`);
    if (r.runsTwice > 0) why.push(`${r.runsTwice} events or runs run twice`);
    if (r.duplicateEventRows > 0) why.push(`${r.duplicateEventRows} events recorded twice`);
    if (r.completed !== r.events) why.push(`${r.events - r.completed} events not completed`);
    return why;
  }
  if (r.applied !== r.writes) why.push(`${r.writes - r.applied} of ${r.writes} writes not applied`);
  if (r.stuckRuns > 0) why.push(`${r.stuckRuns} stuck`);
  if (r.doublePostings > 0) why.push(`${r.doublePostings} double postings`);
  if (r.unbalancedOrgs > 0) why.push(`${r.unbalancedOrgs} unbalanced org/currency pairs`);
  if (r.auditGaps > 0) why.push(`${r.auditGaps} applied writes without their audit row`);
  if (r.duplicateAuditRows > 0) why.push(`${r.duplicateAuditRows} duplicated audit rows`);
  if ('entries' in r && r.entries !== r.writes)
    why.push(`${r.entries} entries for ${r.writes} writes`);
  return why;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      short: { type: 'boolean' },
      scenario: { type: 'string' },
      writes: { type: 'string' },
      events: { type: 'string' },
      kills: { type: 'string' },
      seconds: { type: 'string' },
      down: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const args = ArgsSchema.parse(values);
  const run = (s: (typeof SCENARIOS)[number]) => args.scenario === 'all' || args.scenario === s;
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
      const seconds = args.seconds ?? (args.short ? 30 : 120);
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
  } finally {
    await platform.stop();
  }
  for (const r of results) printScenario(r);
  const gateway = results.filter((r): r is GatewayScenario => r.scenario !== 'events-faults');
  const eventRuns = results.filter(
    (r): r is EventsFaultsResult & Scenario => r.scenario === 'events-faults',
  );
  const report = {
    cores: cpus().length,
    runs: gateway.reduce((a, r) => a + r.writes, 0) + eventRuns.reduce((a, r) => a + r.events, 0),
    workerKills: results.reduce((a, r) => a + ('workerKills' in r ? r.workerKills : 0), 0),
    doublePostings: Math.max(0, ...gateway.map((r) => r.doublePostings)),
    lostEvents: eventRuns.length ? eventRuns.reduce((a, r) => a + r.lostEvents, 0) : null,
    eventsRunTwice: eventRuns.length ? eventRuns.reduce((a, r) => a + r.runsTwice, 0) : null,
    unbalancedOrgs: Math.max(0, ...gateway.map((r) => r.unbalancedOrgs)),
    stuckRuns: results.reduce((a, r) => a + r.stuckRuns, 0),
    scenarios: Object.fromEntries(results.map((r) => [r.scenario, r])),
  };
  if (args.json) {
    mkdirSync(dirname(args.json), { recursive: true });
    writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  }
  const failures = results.flatMap((r) => broken(r).map((w) => `${r.scenario}: ${w}`));
  if (failures.length) {
    console.error(`INVARIANT BROKEN:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
