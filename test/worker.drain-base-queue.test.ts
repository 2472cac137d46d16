import { GATEWAY_WORKFLOW, gatewayWorkflowId } from '../workflows/gateway.contract';
import { GatewayClient } from '../client/gateway-client';
import type { Database } from '../db/connection';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import { APPROVER_1, ORG, journalPost, seedGatewayOrgs } from './gateway.fixtures';

/**
 * WORKER_DRAIN_BASE_QUEUE: a write started on the bare base queue — as every run was before
 * the split into domains — still finishes. It waits for its approval there, its own
 * activities run on the base queue, and its inbox entry goes to the requests domain's queue.
 */
let database: Database;
let worker: TestWorker;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  worker = await startTestWorker(database, undefined, {
    WORKER_DRAIN_BASE_QUEUE: '1',
    DELEGATION_WATCH_MINUTES: '0',
  });
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

it('finishes a write started on the bare base queue before the split', async () => {
  const w = journalPost({ amount: '1000' });
  const workflowId = gatewayWorkflowId(ORG, w.idempotencyKey);
  await worker.client.workflow.start(GATEWAY_WORKFLOW, {
    args: [w],
    taskQueue: worker.taskQueue,
    workflowId,
  });
  const gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
  expect((await gw.settle(ORG, w.idempotencyKey)).status).toBe('awaiting_approval');
  await gw.approve(ORG, w.idempotencyKey, APPROVER_1);
  expect((await gw.result(ORG, w.idempotencyKey)).outcome).toBe('applied');

  const events = (await worker.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const queues = new Map<string, Set<string>>();
  for (const e of events) {
    const s = e.activityTaskScheduledEventAttributes;
    if (!s) continue;
    const type = s.activityType?.name ?? '?';
    const q = queues.get(type) ?? new Set<string>();
    q.add(s.taskQueue?.name ?? '?');
    queues.set(type, q);
  }
  expect([...(queues.get('gatewayApply') ?? [])]).toEqual([worker.taskQueue]);
  expect([...(queues.get('requestOpenLinked') ?? [])]).toEqual([`${worker.taskQueue}-requests`]);
});
