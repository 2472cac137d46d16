import { and, eq, inArray } from 'drizzle-orm';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import type { Database } from '../db/connection';
import { GatewayClient, WriteRefusedError } from '../client/gateway-client';
import { journalEntries } from '../db/schema';
import type { GatewayWriteInput } from '../workflows/gateway.contract';
import { splitIdempotencyKey } from '../workflows/gateway/writes';
import { batchEntryId } from '../activities/gateway/journal-batch';
import { createGatewayActivities } from '../activities/gateway';
import { findSubmissionByKey } from '../db/repositories/gateway';
import { GATEWAY_WORKFLOW, gatewayWorkflowId } from '../workflows/gateway.contract';
import { domainTaskQueue } from '../workflows/task-queue';
import {
  APPROVER_1,
  APPROVER_2,
  CLERK,
  ORG,
  acc,
  journalPost,
  key,
  seedGatewayOrgs,
} from './gateway.fixtures';

/**
 * journal.post_batch end to end on the dev server: many entries in one submission applied in
 * one transaction, each entry idempotent by its own key, each risk-scored (the batch takes the
 * highest lane of what it carries), a high-risk entry split out to its own approval.
 */
let database: Database;
let worker: TestWorker;
let gw: GatewayClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  worker = await startTestWorker(database);
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
  // First postings wait for an approval: warm the two accounts the tests post to.
  const warm = batch([entry('warm-0', '100')]);
  await gw.submit(warm);
  await gw.settle(ORG, warm.idempotencyKey);
  await gw.approve(ORG, warm.idempotencyKey, APPROVER_1);
  expect((await gw.result(ORG, warm.idempotencyKey)).outcome).toBe('applied');
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

const entry = (k: string, amount: string, account = acc('6200')) => ({
  key: k,
  entryDate: '2025-04-11',
  memo: `card line ${k}`,
  lines: [
    { accountId: account, currency: 'GBP', debit: amount },
    { accountId: acc('1010'), currency: 'GBP', credit: amount },
  ],
});
const batch = (entries: ReturnType<typeof entry>[], idempotencyKey = key('batch')) =>
  ({
    orgId: ORG,
    idempotencyKey,
    submitter: { kind: 'user', userId: CLERK },
    source: { type: 'event', id: 'statement-1' },
    kind: 'journal.post_batch',
    payload: { entries },
  }) satisfies GatewayWriteInput;

const postedKeys = async (keys: string[]) =>
  (
    await database.db
      .select({ id: journalEntries.id })
      .from(journalEntries)
      .where(
        and(
          eq(journalEntries.orgId, ORG),
          inArray(
            journalEntries.id,
            keys.map((k) => batchEntryId(ORG, k)),
          ),
          eq(journalEntries.status, 'posted'),
        ),
      )
  ).length;

it('applies a low-risk batch at once, and an entry already posted is skipped, not posted twice', async () => {
  const t = key('t1');
  const first = batch(Array.from({ length: 50 }, (_, i) => entry(`${t}-${i}`, String(100 + i))));
  await gw.submit(first);
  const r1 = await gw.result(ORG, first.idempotencyKey);
  expect(r1).toMatchObject({ outcome: 'applied', risk: { lane: 'low' } });
  expect(r1.entryIds).toHaveLength(50);
  // Another submission carrying 10 of the same entries and 5 new ones posts only the new ones.
  const second = batch([
    ...Array.from({ length: 10 }, (_, i) => entry(`${t}-${i}`, String(100 + i))),
    ...Array.from({ length: 5 }, (_, i) => entry(`${t}-new-${i}`, '250')),
  ]);
  await gw.submit(second);
  const r2 = await gw.result(ORG, second.idempotencyKey);
  expect(r2.outcome).toBe('applied');
  expect(r2.entryIds).toHaveLength(5);
  expect(r2.effects.filter((e) => e.action === 'already_posted')).toHaveLength(10);
  expect(await postedKeys([...Array.from({ length: 50 }, (_, i) => `${t}-${i}`)])).toBe(50);
  const tb = await gw.trialBalance(ORG);
  expect(tb.totals.every((x) => x.net === '0')).toBe(true);
});

it('refuses the whole batch when one entry is invalid: nothing of it is posted', async () => {
  const t = key('t2');
  const w = batch([entry(`${t}-0`, '100'), entry(`${t}-1`, '100', `${acc('6200')}-missing`)]);
  await expect(gw.submit(w).then(() => gw.result(ORG, w.idempotencyKey))).rejects.toMatchObject({
    name: 'WriteRefusedError',
    issues: [expect.objectContaining({ path: 'payload.entries.1.lines.0.accountId' })],
  });
  expect(await postedKeys([`${t}-0`, `${t}-1`])).toBe(0);
  // Unbalanced or duplicate keys are refused before anything starts.
  await expect(gw.submit(batch([entry(`${t}-2`, '100'), entry(`${t}-2`, '100')]))).rejects.toThrow(
    /entries\.1\.key: duplicate entry key/,
  );
  expect(WriteRefusedError).toBeDefined();
});

it('takes the highest lane of its entries: one moderate entry makes the batch wait for an approval', async () => {
  const t = key('t3');
  const w = batch([entry(`${t}-0`, '1200'), entry(`${t}-1`, '600000'), entry(`${t}-2`, '900')]);
  await gw.submit(w);
  const view = await gw.settle(ORG, w.idempotencyKey);
  expect(view).toMatchObject({ status: 'awaiting_approval', risk: { lane: 'moderate' } });
  expect(view.risk?.rules.map((r) => r.rule)).toEqual(['amount_at_or_above_moderate_threshold']);
  expect(view.risk?.rules[0]?.detail).toContain(`${t}-1`);
  expect(await postedKeys([`${t}-0`, `${t}-1`, `${t}-2`])).toBe(0);
  await gw.approve(ORG, w.idempotencyKey, APPROVER_1);
  const r = await gw.result(ORG, w.idempotencyKey);
  expect(r.entryIds).toHaveLength(3);
  expect(await postedKeys([`${t}-0`, `${t}-1`, `${t}-2`])).toBe(3);
});

it('splits a high-risk entry out to its own approval instead of holding the batch', async () => {
  const t = key('t4');
  const w = batch([entry(`${t}-0`, '1200'), entry(`${t}-big`, '3000000'), entry(`${t}-2`, '900')]);
  await gw.submit(w);
  const r = await gw.result(ORG, w.idempotencyKey);
  expect(r).toMatchObject({ outcome: 'applied', risk: { lane: 'low' } });
  expect(r.entryIds).toHaveLength(2);
  expect(r.splitOut).toEqual([
    { entryKey: `${t}-big`, submissionId: `gateway:${ORG}:${splitIdempotencyKey(`${t}-big`)}` },
  ]);
  const splitKey = splitIdempotencyKey(`${t}-big`);
  const view = await gw.settle(ORG, splitKey);
  expect(view).toMatchObject({
    status: 'awaiting_approval',
    risk: { lane: 'high', requiredApprovals: 2 },
  });
  expect(await postedKeys([`${t}-big`])).toBe(0);
  await gw.approve(ORG, splitKey, APPROVER_1);
  await gw.approve(ORG, splitKey, APPROVER_2);
  expect((await gw.result(ORG, splitKey)).entryIds).toEqual([batchEntryId(ORG, `${t}-big`)]);
  // Submitting the batch's entries again posts nothing twice.
  const again = batch([entry(`${t}-0`, '1200'), entry(`${t}-big`, '3000000')]);
  await gw.submit(again);
  const r2 = await gw.result(ORG, again.idempotencyKey);
  expect(r2.entryIds).toHaveLength(0);
  expect(r2.effects.map((e) => e.action)).toEqual(['already_posted', 'already_posted']);
});

// Issue 25 item 8: an entry key names one entry, ever. Before, an entry already posted under
// the key was skipped and a split-out submission under it joined, whatever they carried.
it('refuses a batch that reuses an entry key for a different entry, posted or split out; the same entry still joins', async () => {
  const t = key('t5');
  const first = batch([entry(`${t}-0`, '1200'), entry(`${t}-1`, '900')]);
  await gw.submit(first);
  expect((await gw.result(ORG, first.idempotencyKey)).outcome).toBe('applied');

  const changed = batch([entry(`${t}-new`, '100'), entry(`${t}-0`, '1300')]);
  await gw.submit(changed);
  await expect(gw.result(ORG, changed.idempotencyKey)).rejects.toMatchObject({
    type: 'IdempotencyConflict',
    issues: [expect.objectContaining({ path: 'payload.entries.1.key' })],
  });
  expect(await postedKeys([`${t}-new`])).toBe(0);

  // A high-risk entry split out and awaiting its approvals: another batch carrying a different
  // entry under its key is refused; one carrying the same entry joins that submission.
  const split = batch([entry(`${t}-2`, '1200'), entry(`${t}-big`, '3000000')]);
  await gw.submit(split);
  expect((await gw.result(ORG, split.idempotencyKey)).splitOut).toHaveLength(1);
  await gw.settle(ORG, splitIdempotencyKey(`${t}-big`));
  const other = batch([entry(`${t}-3`, '900'), entry(`${t}-big`, '3100000')]);
  await gw.submit(other);
  await expect(gw.result(ORG, other.idempotencyKey)).rejects.toMatchObject({
    type: 'IdempotencyConflict',
    issues: [expect.objectContaining({ path: 'payload.entries.1.key' })],
  });
  expect(await postedKeys([`${t}-3`])).toBe(0);
  const same = batch([entry(`${t}-4`, '900'), entry(`${t}-big`, '3000000')]);
  await gw.submit(same);
  expect((await gw.result(ORG, same.idempotencyKey)).splitOut).toEqual([
    { entryKey: `${t}-big`, submissionId: `gateway:${ORG}:${splitIdempotencyKey(`${t}-big`)}` },
  ]);
});

it('joins a split-out submission that was already running only once it is seen to carry the entry', async () => {
  const acts = createGatewayActivities({ db: database.db });
  const t = key('t6');
  // The batch whose split-out met a running submission: it waits for approval meanwhile.
  const parent = batch([entry(`${t}-0`, '1200'), entry(`${t}-mod`, '600000')]);
  await gw.submit(parent);
  await gw.settle(ORG, parent.idempotencyKey);
  const parentRow = await findSubmissionByKey(database.db, ORG, parent.idempotencyKey);
  const splitKey = splitIdempotencyKey(`${t}-big`);
  const big = entry(`${t}-big`, '3000000');
  // Not registered yet: the check waits for the registration, then compares.
  const confirmed = acts.gatewayConfirmSplitOut({
    submissionId: parentRow!.id,
    orgId: ORG,
    idempotencyKey: splitKey,
    entry: big,
  });
  await new Promise((r) => setTimeout(r, 300));
  await gw.submit(batch([big], splitKey));
  await gw.settle(ORG, splitKey);
  await expect(confirmed).resolves.toBeUndefined();
  // A different entry under that key: refused, and the refusal is recorded on the batch.
  await expect(
    acts.gatewayConfirmSplitOut({
      submissionId: parentRow!.id,
      orgId: ORG,
      idempotencyKey: splitKey,
      entry: entry(`${t}-big`, '3000001'),
    }),
  ).rejects.toMatchObject({ type: 'IdempotencyConflict' });
  expect(await findSubmissionByKey(database.db, ORG, parent.idempotencyKey)).toMatchObject({
    status: 'failed',
    error: expect.objectContaining({ type: 'IdempotencyConflict' }),
  });
});

it('refuses a run started again under an applied key with a different write, instead of reporting the old one as applied', async () => {
  const w = journalPost({ amount: '1500', entryDate: '2025-04-11' });
  await gw.submit(w);
  expect((await gw.result(ORG, w.idempotencyKey)).outcome).toBe('applied');
  // As a batch's startChild does (the default reuse policy runs a closed id again).
  const handle = await worker.client.workflow.start(GATEWAY_WORKFLOW, {
    workflowId: gatewayWorkflowId(ORG, w.idempotencyKey),
    taskQueue: domainTaskQueue(worker.taskQueue, 'gateway'),
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    args: [{ ...w, payload: { ...(w.payload as object), memo: 'something else' } }],
  });
  await expect(gw.result(ORG, w.idempotencyKey)).rejects.toMatchObject({
    type: 'IdempotencyConflict',
  });
  expect(handle.workflowId).toBe(gatewayWorkflowId(ORG, w.idempotencyKey));
  const again = await worker.client.workflow.start(GATEWAY_WORKFLOW, {
    workflowId: gatewayWorkflowId(ORG, w.idempotencyKey),
    taskQueue: domainTaskQueue(worker.taskQueue, 'gateway'),
    workflowIdReusePolicy: 'ALLOW_DUPLICATE',
    args: [w],
  });
  expect(await again.result()).toMatchObject({ outcome: 'applied' });
});
