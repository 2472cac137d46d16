import { cpus } from 'node:os';
import { loadConfig } from '../config/env';
import { ensureOrganization } from '../db/repositories/organizations';
import { accountId } from '../db/ledger/default-chart';
import { createWorker } from '../worker';
import { createGatewayActivities } from '../activities/gateway';
import { GatewayClient } from '../client/gateway-client';
import { gatewayWorkflowId, type GatewayWriteInput } from '../workflows/gateway.contract';
import { benchPorts, bringUpBenchPlatform, runBenchWorker } from './lib/bench-platform';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * `npm run bench -- gateway [--json FILE] [--n 300] [--concurrency 20]`: starts what it needs
 * (a dev server on its own port, PostgreSQL from DATABASE_URL or an embedded one in a
 * temporary directory, an in-process worker), measures low-risk postings end to end and the
 * apply layer alone, prints and writes the figures, and stops what it started. History is
 * encrypted by the payload codec as in production; TEMPORAL_PAYLOAD_CODEC=off measures without.
 */
export interface GatewayBench {
  suite: 'gateway';
  submissions: number;
  concurrency: number;
  database: 'DATABASE_URL' | 'embedded';
  submitsPerSecond: number;
  appliesPerSecond: number;
  autoLaneLatencyMs: { p50: number; p95: number };
  cores: number;
  /** TEMPORAL_PAYLOAD_CODEC: history encrypted (the default) or `off` (the comparison run). */
  payloadCodec: 'aes-256-gcm' | 'off';
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const round = (n: number) => Math.round(n * 10) / 10;

async function pool<T>(items: T[], size: number, fn: (t: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (i < items.length) await fn(items[i++] as T);
    }),
  );
}

export async function benchGateway(n: number, concurrency: number): Promise<GatewayBench> {
  const cfg = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  try {
    const { database, runCfg } = await bringUpBenchPlatform(
      cfg,
      { name: 'gateway', ...benchPorts(10, { temporal: 17_900, pg: 25_499 }) },
      stops,
    );
    const org = `bench-${Date.now().toString(36)}`;
    await ensureOrganization(database.db, { id: org, name: 'Bench Org' });
    await seedDefaultChart(database.db, org);
    await ensureUser(database.db, {
      id: `${org}-clerk`,
      email: `clerk@${org}.example`,
      displayName: 'Clerk',
      orgId: org,
      roles: ['analyst'],
    });
    await ensureUser(database.db, {
      id: `${org}-approver`,
      email: `approver@${org}.example`,
      displayName: 'Approver',
      orgId: org,
      roles: ['approver'],
    });
    const write = (k: string): GatewayWriteInput => ({
      orgId: org,
      idempotencyKey: k,
      submitter: { kind: 'user', userId: `${org}-clerk` },
      kind: 'journal.post',
      payload: {
        entryDate: '2025-06-15',
        memo: 'bench',
        lines: [
          { accountId: accountId(org, '6200'), currency: 'USD', debit: '1250' },
          { accountId: accountId(org, '1010'), currency: 'USD', credit: '1250' },
        ],
      },
    });
    const direct = createGatewayActivities({ db: database.db });
    const evaluate = (w: GatewayWriteInput) => {
      const id = gatewayWorkflowId(org, w.idempotencyKey);
      const now = new Date().toISOString();
      return direct
        .gatewayEvaluate({
          write: w as never,
          submissionId: id,
          workflowId: id,
          runId: 'bench',
          dueAt: now,
          expiresAt: now,
        })
        .then((ev) => ({ id, ev }));
    };
    // First postings to an account need an approval: warm the two accounts once.
    const warm = await evaluate(write('warm'));
    await direct.gatewayRecordVote({
      submissionId: warm.id,
      vote: {
        userId: `${org}-approver`,
        decision: 'approve',
        note: null,
        decidedAt: new Date().toISOString(),
      },
    });
    await direct.gatewayApply({ submissionId: warm.id });

    // Apply layer alone: register n submissions, then time applying them.
    const registered: string[] = [];
    await pool(
      Array.from({ length: n }, (_, i) => `apply-${i}`),
      concurrency,
      async (k) => {
        const r = await evaluate(write(k));
        if (r.ev.risk.lane !== 'low') throw new Error(`bench write scored ${r.ev.risk.lane}`);
        registered.push(r.id);
      },
    );
    const applyStart = performance.now();
    await pool(registered, concurrency, async (id) => {
      await direct.gatewayApply({ submissionId: id });
    });
    const appliesPerSecond = n / ((performance.now() - applyStart) / 1000);

    // End to end through Temporal.
    const { worker, connection } = await createWorker({
      cfg: runCfg,
      database,
      taskQueue: 'bench-gw',
    });
    const client = await runBenchWorker({ worker, connection }, { runCfg, database }, stops);
    const gw = new GatewayClient(client, database.db, 'bench-gw');
    const latencies: number[] = [];
    const e2eStart = performance.now();
    await pool(
      Array.from({ length: n }, (_, i) => `e2e-${i}`),
      concurrency,
      async (k) => {
        const t0 = performance.now();
        await gw.submit(write(k));
        const r = await gw.result(org, k);
        if (r.outcome !== 'applied' || r.entryIds.length !== 1)
          throw new Error(`submission ${k} ended ${r.outcome}`);
        latencies.push(performance.now() - t0);
      },
    );
    const submitsPerSecond = n / ((performance.now() - e2eStart) / 1000);
    const tb = await gw.trialBalance(org);
    if (!tb.totals.every((t) => t.net === '0'))
      throw new Error('trial balance does not net to zero');
    latencies.sort((a, b) => a - b);
    return {
      suite: 'gateway',
      submissions: n,
      concurrency,
      database: cfg.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
      submitsPerSecond: round(submitsPerSecond),
      appliesPerSecond: round(appliesPerSecond),
      autoLaneLatencyMs: { p50: round(pct(latencies, 50)), p95: round(pct(latencies, 95)) },
      cores: cpus().length,
      payloadCodec: cfg.TEMPORAL_PAYLOAD_CODEC,
    };
  } finally {
    for (const stop of stops.reverse())
      await stop().catch((err: unknown) => console.error('stop failed:', err));
  }
}
