import { cpus } from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { bringUpChaosPlatform } from './chaos/harness';
import { gatewayWorkerKill } from './chaos/gateway-worker-kill';

/**
 * `npm run chaos -- [--short] [--writes N] [--kills K] [--json FILE]`: fault scenarios against
 * a platform of its own (dev server, embedded PostgreSQL, a worker process), bounded in time,
 * loopback only. Prints a table and writes the figures; exits non-zero when an invariant broke.
 */
const ArgsSchema = z.object({
  short: z.boolean().default(false),
  writes: z.coerce.number().int().min(1).max(5000).optional(),
  kills: z.coerce.number().int().min(0).max(200).optional(),
  concurrency: z.coerce.number().int().min(1).max(100).default(10),
  json: z.string().optional(),
});

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      short: { type: 'boolean' },
      writes: { type: 'string' },
      kills: { type: 'string' },
      concurrency: { type: 'string' },
      json: { type: 'string' },
    },
    strict: true,
  });
  const args = ArgsSchema.parse(values);
  const writes = args.writes ?? (args.short ? 40 : 300);
  const kills = args.kills ?? (args.short ? 3 : 10);
  const log = (s: string) => console.error(s);
  const platform = await bringUpChaosPlatform(log);
  try {
    log(`gateway-worker-kill: ${writes} writes, ${kills} worker kills…`);
    const gateway = await gatewayWorkerKill(
      platform,
      { writes, kills, concurrency: args.concurrency, deadlineMs: 180_000 },
      log,
    );
    const report = {
      cores: cpus().length,
      runs: gateway.writes,
      workerKills: gateway.workerKills,
      doublePostings: gateway.doublePostings,
      // No event intake is exercised yet: the events domain adds its own scenario.
      lostEvents: null,
      unbalancedOrgs: gateway.unbalancedOrgs,
      stuckRuns: gateway.stuckRuns,
      scenarios: { 'gateway-worker-kill': gateway },
    };
    const rows: [string, string | number][] = [
      ['writes', gateway.writes],
      ['worker kills', gateway.workerKills],
      ['applied', gateway.applied],
      ['journal entries', gateway.entries],
      ['not applied', gateway.notApplied.length],
      ['stuck', gateway.stuckRuns],
      ['double postings', gateway.doublePostings],
      ['unbalanced org/currency', gateway.unbalancedOrgs],
      ['audit gaps', gateway.auditGaps],
      ['duplicate audit rows', gateway.duplicateAuditRows],
      ['wall seconds', gateway.wallSeconds],
    ];
    console.log('gateway-worker-kill');
    for (const [k, v] of rows) console.log(`  ${k.padEnd(26)} ${v}`);
    if (args.json) {
      mkdirSync(dirname(args.json), { recursive: true });
      writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
    }
    const broken =
      gateway.applied !== gateway.writes ||
      gateway.entries !== gateway.writes ||
      gateway.doublePostings > 0 ||
      gateway.unbalancedOrgs > 0 ||
      gateway.auditGaps > 0 ||
      gateway.duplicateAuditRows > 0;
    if (broken) {
      console.error('INVARIANT BROKEN: see the figures above');
      process.exitCode = 1;
    }
  } finally {
    await platform.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
