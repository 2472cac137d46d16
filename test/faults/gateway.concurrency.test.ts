import type { WorkerGroup } from '../../worker-group';
import { createTestDatabase } from '../support/database';
import { startTestWorker, testConfig, workflowBundle, type TestWorker } from '../support/worker';
import type { Database } from '../../db/connection';
import { createWorker } from '../../worker';
import { GatewayClient, ApprovalRefusedError } from '../../client/gateway-client';
import { trialBalance } from '../../db/repositories/ledger';
import {
  APPROVER_1,
  APPROVER_2,
  APPROVER_3,
  ORG,
  journalPost,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from '../gateway.fixtures';

let database: Database;
let worker: TestWorker;
let second: { worker: WorkerGroup; running: Promise<void>; close: () => Promise<void> };
let gw: GatewayClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  worker = await startTestWorker(database);
  // A second worker on the same task queue: activities and workflow tasks race across both.
  const w2 = await createWorker({
    cfg: testConfig(database),
    database,
    taskQueue: worker.taskQueue,
    workflowBundle: workflowBundle(),
  });
  second = { worker: w2.worker, running: w2.worker.run(), close: () => w2.connection.close() };
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
});
afterAll(async () => {
  second?.worker.shutdown();
  await second?.running;
  await second?.close();
  await worker?.stop();
  await database?.close();
});

it('many submissions and approvals at once on two workers: no double posting, no lost approval', async () => {
  const low = Array.from({ length: 24 }, () => journalPost({ amount: '100' }));
  const moderate = Array.from({ length: 8 }, () => journalPost({ amount: '600000' }));
  const high = Array.from({ length: 6 }, () => journalPost({ amount: '3000000' }));
  const all = [...low, ...moderate, ...high];
  // Every write submitted twice at once: the second joins the first run.
  await Promise.all(all.flatMap((w) => [gw.submit(w), gw.submit(w)]));
  await Promise.all([...moderate, ...high].map((w) => gw.settle(ORG, w.idempotencyKey)));
  const outcomes = await Promise.allSettled([
    ...moderate.flatMap((w) => [
      gw.approve(ORG, w.idempotencyKey, APPROVER_1),
      gw.approve(ORG, w.idempotencyKey, APPROVER_1),
    ]),
    ...high.flatMap((w) => [
      gw.approve(ORG, w.idempotencyKey, APPROVER_2),
      gw.approve(ORG, w.idempotencyKey, APPROVER_3),
      gw.approve(ORG, w.idempotencyKey, APPROVER_2),
    ]),
  ]);
  const results = await Promise.all(all.map((w) => gw.result(ORG, w.idempotencyKey)));
  expect(results.every((r) => r.outcome === 'applied')).toBe(true);
  // Double votes by the same approver are refused (typed), never counted twice.
  const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  for (const r of refused) expect(r.reason).toBeInstanceOf(ApprovalRefusedError);
  for (const r of refused)
    expect((r.reason as ApprovalRefusedError).type).toMatch(/DuplicateApproval|ApprovalNotOpen/);
  // Both distinct approvers of each high-risk write were counted.
  for (const w of high) {
    const r = results[all.indexOf(w)];
    expect(r?.votes.map((v) => v.userId).sort()).toEqual([APPROVER_3, APPROVER_2].sort());
  }
  const ids = results.map((r) => r.submissionId);
  const entries = await database.pool.query(
    `select submission_id, count(*)::int as n from journal_entries where submission_id = any($1) group by 1`,
    [ids],
  );
  expect(entries.rows).toHaveLength(all.length);
  expect(entries.rows.every((r: { n: number }) => r.n === 1)).toBe(true);
  // Every vote the workflows counted is in the database, and nothing else.
  const votes = await database.pool.query(
    `select count(*)::int as n from gateway_approvals where submission_id = any($1)`,
    [ids],
  );
  expect(votes.rows[0].n).toBe(results.reduce((n, r) => n + r.votes.length, 0));
  expect((await trialBalance(database.db, ORG)).totals.every((t) => t.net === '0')).toBe(true);
});

it('a concurrent close and postings into the same period serialize: each posting lands before the close or is refused', async () => {
  const posts = Array.from({ length: 10 }, () =>
    journalPost({ amount: '5', entryDate: '2025-05-20' }),
  );
  const close = {
    orgId: ORG,
    idempotencyKey: key('close'),
    submitter: { kind: 'user' as const, userId: 'olga' },
    kind: 'period.close',
    payload: { period: '2025-05' },
  };
  await gw.submit(close);
  await gw.settle(ORG, close.idempotencyKey);
  await Promise.all([
    ...posts.map((p) => gw.submit(p)),
    gw.approve(ORG, close.idempotencyKey, APPROVER_1),
  ]);
  const settled = await Promise.allSettled(posts.map((p) => gw.result(ORG, p.idempotencyKey)));
  await gw.result(ORG, close.idempotencyKey);
  for (const s of settled)
    if (s.status === 'rejected') expect((s.reason as { type: string }).type).toBe('PeriodClosed');
  // Commit order cannot be read from now() timestamps (they are transaction start times);
  // test/ledger.invariants.test.ts drives both lock orders deterministically. Here: every
  // posting is either in the books once or refused, and the period ends closed.
  const applied = settled.filter((s) => s.status === 'fulfilled').length;
  const inPeriod = await database.pool.query(
    `select count(*)::int as n from journal_entries where org_id = $1 and submission_id = any($2)`,
    [ORG, posts.map((p) => `gateway:${ORG}:${p.idempotencyKey}`)],
  );
  expect(inPeriod.rows[0].n).toBe(applied);
  const period = await database.pool.query(
    `select status from fiscal_periods where org_id = $1 and period = '2025-05'`,
    [ORG],
  );
  expect(period.rows[0].status).toBe('closed');
});
