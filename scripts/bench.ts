import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime } from '@temporalio/worker';

/**
 * `npm run bench -- [SUITE] [options]`: one suite (floor, gateway, gateway-batch, events,
 * analysis, bank-lines, bills, db-outage), or `all` (also when no suite is named) — events with the polling
 * baseline, gateway, gateway-batch, analysis and bank-lines in one process, one table and one
 * JSON. Each suite starts the platform it needs on its own ports (CS_BENCH_TEMPORAL_PORT /
 * CS_BENCH_PG_PORT + an offset per suite) and stops it. Never a timed test: the figures are printed and written with --json.
 */
const USAGE = [
  'usage: npm run bench -- [all] [--short] [--poll-ms 5000] [--json FILE]',
  '     | gateway [--n 300] [--concurrency 20] [--json FILE]',
  '     | events [--n 1000] [--probe 50] [--cap 20] [--small-orgs 5 --small-n 100] [--json FILE]',
  '     | db-outage [--minutes 15] [--interval-ms 250] [--json FILE]',
  '     | gateway-batch [--batches 5] [--size 1000] [--json FILE]',
  '     | analysis [--n 60] [--concurrency 6] [--json FILE]',
  '     | bank-lines [--lines 2000] [--per-event 500] [--json FILE]',
  '     | bills [--n 200] [--per-event 50] [--json FILE]',
  '     | floor [--n 300] [--concurrency 20] [--json FILE]',
].join('\n');

/** Bad command-line input: its message is all the user needs, no stack trace. */
class BenchUsageError extends Error {}

/** An integer option within [min, max], its default when absent; anything else is a usage error. */
function intOption(
  name: string,
  raw: string | undefined,
  dflt: number,
  min: number,
  max: number,
): number {
  const v = raw === undefined ? dflt : Number(raw);
  if (!Number.isInteger(v) || v < min || v > max)
    throw new BenchUsageError(`${name} must be an integer from ${min} to ${max}, got ${raw}`);
  return v;
}

function writeJson(file: string | undefined, value: unknown): void {
  const text = JSON.stringify(value, null, 2);
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${text}\n`);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const named = argv[0] !== undefined && !argv[0].startsWith('-');
  const suite = named ? argv[0] : 'all';
  const parse = () =>
    parseArgs({
      args: named ? argv.slice(1) : argv,
      options: {
        json: { type: 'string' },
        short: { type: 'boolean' },
        'poll-ms': { type: 'string' },
        n: { type: 'string' },
        concurrency: { type: 'string' },
        probe: { type: 'string' },
        cap: { type: 'string' },
        minutes: { type: 'string' },
        'interval-ms': { type: 'string' },
        batches: { type: 'string' },
        size: { type: 'string' },
        'small-orgs': { type: 'string' },
        'small-n': { type: 'string' },
        lines: { type: 'string' },
        'per-event': { type: 'string' },
      },
      strict: true,
    });
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse().values;
  } catch (err) {
    throw new BenchUsageError(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
  // The SDK's own INFO lines (worker start and stop, per suite) would bury the figures.
  Runtime.install({ logger: new DefaultLogger('WARN') });

  if (suite === 'all') {
    const { benchAll, benchAllTable } = await import('./bench-all');
    const pollMs = Number(values['poll-ms'] ?? 5000);
    if (!Number.isInteger(pollMs) || pollMs < 10 || pollMs > 600_000)
      throw new BenchUsageError(
        `--poll-ms must be an integer from 10 to 600000, got ${values['poll-ms']}`,
      );
    const r = await benchAll(values.short ? 'short' : 'full', pollMs, (l) => console.error(l));
    writeJson(values.json, r);
    console.log(benchAllTable(r));
    if (values.json) console.log(`figures written to ${values.json}`);
    const { bankLinesFailures } = await import('./bench-bank-lines');
    const failures = [
      ...(r.events.dropped > 0 ? [`${r.events.dropped} events dropped`] : []),
      ...(r.polling.notPicked > 0 ? [`${r.polling.notPicked} polled rows never picked`] : []),
      ...(r.analysis.outcomes.unsettled > 0
        ? [`${r.analysis.outcomes.unsettled} analysis requests unsettled`]
        : []),
      ...bankLinesFailures(r.bankLines).map((f) => `bank-lines: ${f}`),
    ];
    if (failures.length > 0) {
      console.error(`bench failed: ${failures.join('; ')}`);
      process.exitCode = 3;
    }
    return;
  }
  if (suite === 'events') {
    const { benchEvents } = await import('./bench-events');
    const r = await benchEvents({
      n: Math.max(1, Number(values.n ?? 1000)),
      probe: Math.max(1, Number(values.probe ?? 50)),
      cap: Math.max(1, Number(values.cap ?? 20)),
      smallOrgs: Math.max(0, Number(values['small-orgs'] ?? 0)),
      smallN: Math.max(0, Number(values['small-n'] ?? 100)),
    });
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    return;
  }
  if (suite === 'db-outage') {
    const { benchDbOutage } = await import('./bench-db-outage');
    const r = await benchDbOutage(
      {
        minutes: Math.min(60, Math.max(0.1, Number(values.minutes ?? 15))),
        intervalMs: Math.max(20, Number(values['interval-ms'] ?? 250)),
        leadSeconds: 10,
      },
      (line) => console.error(line),
    );
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    const ok =
      r.applied === r.writes &&
      r.moderateAppliedWithVote === r.moderateWrites &&
      r.entriesPerAppliedWrite === 1 &&
      r.unbalancedOrgs + r.doublePostings + r.auditGaps + r.duplicateAuditRows === 0 &&
      r.auditChainIntact;
    if (!ok) process.exitCode = 3;
    return;
  }
  if (suite === 'gateway-batch') {
    const { benchGatewayBatch } = await import('./bench-gateway-batch');
    const r = await benchGatewayBatch({
      batches: Math.min(50, Math.max(1, Number(values.batches ?? 5))),
      size: Math.min(1000, Math.max(1, Number(values.size ?? 1000))),
    });
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    return;
  }
  if (suite === 'analysis') {
    const { benchAnalysis } = await import('./bench-analysis');
    const r = await benchAnalysis({
      n: intOption('--n', values.n, 60, 1, 5000),
      concurrency: intOption('--concurrency', values.concurrency, 6, 1, 200),
    });
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    if (r.outcomes.unsettled > 0) process.exitCode = 3;
    return;
  }
  if (suite === 'bank-lines') {
    const { benchBankLines, bankLinesFailures } = await import('./bench-bank-lines');
    const r = await benchBankLines({
      lines: intOption('--lines', values.lines, 2000, 1, 100_000),
      perEvent: intOption('--per-event', values['per-event'], 500, 1, 10_000),
    });
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    const failures = bankLinesFailures(r);
    if (failures.length > 0) {
      console.error(`bank-lines failed: ${failures.join('; ')}`);
      process.exitCode = 3;
    }
    return;
  }
  if (suite === 'bills') {
    const { benchBills, billsFailures } = await import('./bench-bills');
    const r = await benchBills({
      n: intOption('--n', values.n, 200, 1, 5000),
      perEvent: intOption('--per-event', values['per-event'], 50, 1, 100),
    });
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    const failures = billsFailures(r);
    if (failures.length > 0) {
      console.error(`bills failed: ${failures.join('; ')}`);
      process.exitCode = 3;
    }
    return;
  }
  if (suite === 'floor') {
    const { benchFloor } = await import('./bench-floor');
    const r = await benchFloor({
      n: intOption('--n', values.n, 300, 1, 5000),
      concurrency: intOption('--concurrency', values.concurrency, 20, 1, 200),
    });
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    return;
  }
  if (suite === 'gateway') {
    const { benchGateway } = await import('./bench-gateway');
    const r = await benchGateway(
      Math.min(2000, Math.max(1, Number(values.n ?? 300))),
      Math.max(1, Number(values.concurrency ?? 20)),
    );
    console.log(JSON.stringify(r, null, 2));
    writeJson(values.json, r);
    return;
  }
  throw new BenchUsageError(`unknown suite ${suite}\n${USAGE}`);
}

main().then(
  // Everything the suite started is stopped by then; a handle the Temporal runtime keeps
  // (seen with `bench events` alone) must not keep a finished bench alive.
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    if (err instanceof BenchUsageError) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
