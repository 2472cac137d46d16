import { mkdirSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/env';
import { ensureOrganization } from '../db/repositories/organizations';
import { accountId } from '../db/ledger/default-chart';
import { createWorker } from '../worker';
import { GatewayClient } from '../client/gateway-client';
import type { GatewayWriteInput } from '../workflows/gateway.contract';
import { benchPorts, bringUpBenchPlatform, runBenchWorker } from './lib/bench-platform';
import { PROJECT_ROOT } from './lib/temporal-binaries';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * `npm run bench -- gateway-batch [--json FILE] [--batches 5] [--size 1000]`: journal.post_batch
 * end to end — submit through the gateway client, the workflow evaluates (each entry scored),
 * applies all entries in one transaction, the result comes back. `entriesPerSecond` is the
 * entries applied divided by the wall time from the first submit to the last result.
 */
export interface GatewayBatchBench {
  suite: 'gateway-batch';
  batches: number;
  entriesPerBatch: number;
  entriesApplied: number;
  database: 'DATABASE_URL' | 'embedded';
  entriesPerSecond: number;
  batchLatencyMs: { p50: number; max: number };
  cores: number;
}

const round = (n: number) => Math.round(n * 10) / 10;

export async function benchGatewayBatch(opts: {
  batches: number;
  size: number;
}): Promise<GatewayBatchBench> {
  const cfg = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true }); // the dev server's log goes there
  try {
    const { database, runCfg } = await bringUpBenchPlatform(
      cfg,
      { name: 'gateway-batch', ...benchPorts(20, { temporal: 17_930, pg: 25_496 }) },
      stops,
    );
    const org = `bench-batch-${Date.now().toString(36)}`;
    await ensureOrganization(database.db, { id: org, name: 'Batch Bench Org' });
    await seedDefaultChart(database.db, org);
    for (const [id, role] of [
      [`${org}-clerk`, 'analyst'],
      [`${org}-approver`, 'approver'],
    ] as const)
      await ensureUser(database.db, {
        id,
        email: `${id}@bench.example`,
        displayName: id,
        orgId: org,
        roles: [role],
      });
    const taskQueue = 'bench-gateway-batch';
    const { worker, connection } = await createWorker({ cfg: runCfg, database, taskQueue });
    const client = await runBenchWorker({ worker, connection }, { runCfg, database }, stops);
    const gw = new GatewayClient(client, database.db, taskQueue, {
      decisionSecret: runCfg.DECISION_SIGNING_SECRET,
    });
    const batch = (key: string, n: number): GatewayWriteInput => ({
      orgId: org,
      idempotencyKey: key,
      submitter: { kind: 'user', userId: `${org}-clerk` },
      kind: 'journal.post_batch',
      payload: {
        entries: Array.from({ length: n }, (_, i) => {
          const cents = String(100 + ((i * 37) % 9000));
          return {
            key: `${key}-${i}`,
            entryDate: '2025-06-15',
            memo: `card line ${i}`,
            lines: [
              { accountId: accountId(org, '6200'), currency: 'GBP', debit: cents },
              { accountId: accountId(org, '1010'), currency: 'GBP', credit: cents },
            ],
          };
        }),
      },
    });
    // A first posting to an account waits for one approval: warm the two accounts once.
    await gw.submit(batch('warm', 1));
    await gw.settle(org, 'warm');
    await gw.approve(org, 'warm', `${org}-approver`, 'warm-up');
    await gw.result(org, 'warm');

    const latencies: number[] = [];
    let applied = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: opts.batches }, async (_, b) => {
        const key = `b${b}`;
        const s = performance.now();
        await gw.submit(batch(key, opts.size));
        const r = await gw.result(org, key);
        if (r.outcome !== 'applied' || r.risk.lane !== 'low')
          throw new Error(`batch ${key} ended ${r.outcome} in the ${r.risk.lane} lane`);
        applied += r.entryIds.length;
        latencies.push(performance.now() - s);
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const tb = await gw.trialBalance(org);
    if (!tb.totals.every((t) => t.net === '0'))
      throw new Error('trial balance does not net to zero');
    if (applied !== opts.batches * opts.size)
      throw new Error(`applied ${applied} entries, expected ${opts.batches * opts.size}`);
    latencies.sort((a, b) => a - b);
    return {
      suite: 'gateway-batch',
      batches: opts.batches,
      entriesPerBatch: opts.size,
      entriesApplied: applied,
      database: cfg.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
      entriesPerSecond: round(applied / seconds),
      batchLatencyMs: {
        p50: round(latencies[Math.floor(latencies.length / 2)] ?? 0),
        max: round(latencies[latencies.length - 1] ?? 0),
      },
      cores: cpus().length,
    };
  } finally {
    for (const stop of stops.reverse())
      await stop().catch((err: unknown) => console.error('stop failed:', err));
  }
}
