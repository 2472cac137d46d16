import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { connectClient } from '../../client/temporal-connection';
import type { WorkerGroup } from '../../worker-group';
import type { NativeConnection } from '@temporalio/worker';
import { GatewayClient } from '../../client/gateway-client';
import type { Database } from '../../db/connection';
import { auditTrail } from '../../db/repositories/audit';
import { countEntries } from '../../db/repositories/ledger';
import { PROJECT_ROOT } from '../../scripts/lib/temporal-binaries';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import { createWorker } from '../../worker';
import { createTestDatabase } from '../support/database';
import { testConfig, workflowBundle } from '../support/worker';
import { ORG, journalPost, seedGatewayOrgs, warmAccounts } from '../gateway.fixtures';

/**
 * Item 9 of issue 8: a worker killed (SIGKILL) while its database step is in flight. The step
 * heartbeats with a 10 s heartbeat timeout, so the server gives it to the other worker within
 * seconds, not after its 60 s start-to-close timeout — and it is applied once.
 */
const HEARTBEAT_TIMEOUT_MS = 10_000;
let database: Database;
let doomed: ChildProcess | undefined;
let survivor:
  { worker: WorkerGroup; connection: NativeConnection; running: Promise<void> } | undefined;
let client: Client | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
});
afterAll(async () => {
  if (doomed?.exitCode === null) doomed.kill('SIGKILL');
  if (survivor) {
    survivor.worker.shutdown();
    await survivor.running;
    await survivor.connection.close();
  }
  await client?.connection.close();
  await database?.close();
});

function lineFrom(child: ChildProcess, prefix: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(
      () => reject(new Error(`no "${prefix}" from the worker process within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith(prefix));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
    child.once('exit', (code) =>
      reject(new Error(`worker process exited (${code}) before "${prefix}"`)),
    );
  });
}

it('a worker killed mid-apply: the other worker applies it within the heartbeat timeout, once', async () => {
  const cfg = testConfig(database);
  const taskQueue = `kill-${randomBytes(4).toString('hex')}`;
  doomed = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'test/fixtures/heartbeat/slow-apply-worker.ts')],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        // It applies: the gateway worker's own role (countersign_gateway).
        DATABASE_URL: database.gatewayUrl,
        TEMPORAL_TASK_QUEUE: taskQueue,
        LOG_LEVEL: 'WARN',
        // As the test's own worker and client (testConfig): clear payloads, no anchors.
        TEMPORAL_PAYLOAD_CODEC: cfg.TEMPORAL_PAYLOAD_CODEC,
        AUDIT_ANCHOR_EVERY_MINUTES: String(cfg.AUDIT_ANCHOR_EVERY_MINUTES),
      },
    },
  );
  await lineFrom(doomed, 'WORKER_READY', 60_000);
  client = await connectClient(cfg, database.db);
  const gw = new GatewayClient(client, database.db, taskQueue);

  const w = journalPost({ amount: '777' });
  const entriesBefore = await countEntries(database.db, ORG);
  const applyStarted = lineFrom(doomed, 'APPLY_STARTED', 60_000);
  await gw.submit(w);
  expect(await applyStarted).toMatch(/attempt 1$/);

  // The second worker joins the queue, then the first dies with the apply in flight.
  const s = await createWorker({ cfg, database, taskQueue, workflowBundle: workflowBundle() });
  survivor = { ...s, running: s.worker.run() };
  const killedAt = Date.now();
  doomed.kill('SIGKILL');

  const result = await gw.result(ORG, w.idempotencyKey);
  const doneMs = Date.now() - killedAt;
  expect(result.outcome).toBe('applied');

  // When did the apply's next attempt start on the survivor?
  const history = await client.workflow
    .getHandle(gatewayWorkflowId(ORG, w.idempotencyKey))
    .fetchHistory();
  const scheduled = new Map<string, string>();
  let retriedAtMs: number | undefined;
  let attempts = 0;
  for (const e of history.events ?? []) {
    const sched = e.activityTaskScheduledEventAttributes;
    if (sched) scheduled.set(String(e.eventId), sched.activityType?.name ?? '');
    const started = e.activityTaskStartedEventAttributes;
    if (started && scheduled.get(String(started.scheduledEventId)) === 'gatewayApply') {
      attempts = started.attempt ?? 0;
      const t = e.eventTime;
      retriedAtMs = Number(t?.seconds ?? 0) * 1000 + Math.floor((t?.nanos ?? 0) / 1e6);
    }
  }
  const handoverMs = (retriedAtMs ?? Infinity) - killedAt;
  console.log(
    `killed mid-apply: next attempt (${attempts}) started ${handoverMs} ms after the kill; write applied ${doneMs} ms after`,
  );
  expect(attempts).toBe(2);
  expect(handoverMs).toBeLessThan(HEARTBEAT_TIMEOUT_MS + 3000);
  expect(doneMs).toBeLessThan(30_000); // the 60 s start-to-close timeout never mattered

  // Applied once: one posted entry, one `applied` row on the audit chain.
  expect(await countEntries(database.db, ORG)).toBe(entriesBefore + 1);
  const audit = await auditTrail(
    database.db,
    ORG,
    'gateway_submission',
    result.submissionId ?? gatewayWorkflowId(ORG, w.idempotencyKey),
  );
  expect(audit.filter((r) => r.event === 'applied')).toHaveLength(1);
});
