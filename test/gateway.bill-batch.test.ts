import { and, eq, inArray } from 'drizzle-orm';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import type { Database } from '../db/connection';
import { GatewayClient } from '../client/gateway-client';
import { bills, journalEntries } from '../db/schema';
import type { GatewayWriteInput } from '../workflows/gateway.contract';
import { splitIdempotencyKey } from '../workflows/gateway/writes';
import { billBatchBillId } from '../activities/gateway/bill-batch';
import { dryRunWrite } from '../activities/gateway/evaluate';
import {
  APPROVER_1,
  APPROVER_2,
  CLERK,
  OWNER,
  ORG,
  acc,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * bill.post_batch on the dev server: each bill planned as bill.post plans it under a key of its
 * own (one journal entry and one bill row, whichever submission carries it), each risk-scored
 * on its own; the low-lane bills applied in one transaction, a bill that needs a person split
 * out to its own approval; a bill that fails its plan refuses the batch with its index in the
 * issue path, and nothing of the batch is posted.
 */
let database: Database;
let worker: TestWorker;
let gw: GatewayClient;
const VENDOR = 'ven-batch';

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['2000', '6400', '1400', '7900']);
  worker = await startTestWorker(database);
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
  const ven: GatewayWriteInput = {
    orgId: ORG,
    idempotencyKey: key('ven'),
    submitter: { kind: 'user', userId: CLERK },
    kind: 'vendor.create',
    payload: { vendorId: VENDOR, name: 'Stapel Lieferant GmbH', email: 'ap@stapel-lieferant.de' },
  };
  await gw.submit(ven);
  await gw.settle(ORG, ven.idempotencyKey);
  await gw.approve(ORG, ven.idempotencyKey, APPROVER_1);
  expect((await gw.result(ORG, ven.idempotencyKey)).outcome).toBe('applied');
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

/** A bill of `net` + 19% input tax (minor units), on the warmed expense and tax accounts. */
const bill = (k: string, number: string, net: number, over: Record<string, unknown> = {}) => ({
  key: k,
  sourceDocumentId: `doc-${k}`,
  vendorId: VENDOR,
  billNumber: number,
  billDate: '2025-03-03',
  currency: 'USD',
  lines: [
    { description: `goods ${number}`, amountMinor: String(net), accountId: acc('6400') },
    {
      description: 'input tax 19%',
      amountMinor: String(Math.round(net * 0.19)),
      accountId: acc('1400'),
    },
  ],
  ...over,
});
const batch = (entries: ReturnType<typeof bill>[], idempotencyKey = key('bills')) =>
  ({
    orgId: ORG,
    idempotencyKey,
    submitter: { kind: 'user', userId: CLERK },
    source: { type: 'event', id: 'bills-delivery-1' },
    kind: 'bill.post_batch',
    payload: { entries },
  }) satisfies GatewayWriteInput;

const billRows = (numbers: string[]) =>
  database.db
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, ORG), inArray(bills.billNumber, numbers)));

it('applies a batch of low-risk bills in one submission, one entry and one bill row each, and posts nothing twice', async () => {
  const t = key('t1');
  const numbers = Array.from({ length: 20 }, (_, i) => `${t}-B${i}`);
  const first = batch(numbers.map((n, i) => bill(`${t}-${i}`, n, 10_000 + i)));
  await gw.submit(first);
  const r1 = await gw.result(ORG, first.idempotencyKey);
  expect(r1).toMatchObject({ outcome: 'applied', risk: { lane: 'low' } });
  expect(r1.entryIds).toHaveLength(20);
  const rows = await billRows(numbers);
  expect(rows).toHaveLength(20);
  const third = rows.find((r) => r.billNumber === numbers[3])!;
  expect(third).toMatchObject({
    id: billBatchBillId(ORG, `${t}-3`),
    totalMinor: 10_003n + BigInt(Math.round(10_003 * 0.19)),
    dueDate: '2025-04-02',
  });
  // Each entry cites its own document.
  const [entry] = await database.db
    .select()
    .from(journalEntries)
    .where(eq(journalEntries.id, third.entryId));
  expect(entry!.sourceRef).toBe(`document:doc-${t}-3`);

  // The same bills under their keys again, with two new ones: only the new ones post.
  const again = batch([
    ...numbers.slice(0, 5).map((n, i) => bill(`${t}-${i}`, n, 10_000 + i)),
    bill(`${t}-new-0`, `${t}-N0`, 500),
    bill(`${t}-new-1`, `${t}-N1`, 700),
  ]);
  await gw.submit(again);
  const r2 = await gw.result(ORG, again.idempotencyKey);
  expect(r2.entryIds).toHaveLength(2);
  expect(r2.effects.filter((e) => e.action === 'already_posted')).toHaveLength(5);
  expect(await billRows([...numbers, `${t}-N0`, `${t}-N1`])).toHaveLength(22);
  const tb = await gw.trialBalance(ORG);
  expect(tb.totals.every((x) => x.net === '0')).toBe(true);
});

it('refuses the batch when one bill fails its plan, naming that bill by index: nothing is posted', async () => {
  const t = key('t2');
  const posted = batch([bill(`${t}-0`, `${t}-B0`, 900), bill(`${t}-1`, `${t}-B1`, 800)]);
  await gw.submit(posted);
  expect((await gw.result(ORG, posted.idempotencyKey)).outcome).toBe('applied');
  // B0 again under another key (a second copy of the invoice), and an unknown expense account.
  const w = batch([
    bill(`${t}-2`, `${t}-B2`, 1000),
    bill(`${t}-3`, `${t}-B0`, 900),
    bill(`${t}-4`, `${t}-B4`, 1000, {
      lines: [{ description: 'x', amountMinor: '1000', accountId: `${acc('6400')}-missing` }],
    }),
  ]);
  const dry = await dryRunWrite(database.db, w);
  expect(dry.valid).toBe(false);
  expect(dry.refusal!.issues).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ path: 'payload.entries.2.lines.0.accountId' }),
    ]),
  );
  // The unknown account is found by the reference check first; without it, the duplicate.
  const dup = batch([bill(`${t}-2`, `${t}-B2`, 1000), bill(`${t}-3`, `${t}-B0`, 900)]);
  const dryDup = await dryRunWrite(database.db, dup);
  expect(dryDup.refusal).toMatchObject({
    type: 'DuplicateEntity',
    issues: [
      {
        path: 'payload.entries.1.billNumber',
        message: expect.stringMatching(/^DuplicateEntity: already posted as bill-/),
      },
    ],
  });
  await gw.submit(dup);
  await expect(gw.result(ORG, dup.idempotencyKey)).rejects.toMatchObject({
    type: 'DuplicateEntity',
  });
  expect(await billRows([`${t}-B2`])).toHaveLength(0);
  // Two copies of one invoice in one batch are refused before anything starts.
  await expect(
    gw.submit(batch([bill(`${t}-5`, `${t}-B5`, 100), bill(`${t}-6`, `${t}-B5`, 100)])),
  ).rejects.toThrow(/entries\.1\.billNumber: bill .*-B5 of vendor ven-batch is also entries\.0/);
});

it('splits a bill that needs approvers out to its own submission; the rest post at once', async () => {
  const t = key('t3');
  const w = batch([
    bill(`${t}-0`, `${t}-B0`, 1200),
    bill(`${t}-big`, `${t}-BIG`, 3_000_000),
    bill(`${t}-2`, `${t}-B2`, 900),
  ]);
  const dry = await dryRunWrite(database.db, w);
  expect(dry).toMatchObject({ valid: true, lane: 'low', splitOut: [`${t}-big`] });
  await gw.submit(w);
  const r = await gw.result(ORG, w.idempotencyKey);
  expect(r).toMatchObject({ outcome: 'applied', risk: { lane: 'low' } });
  expect(r.entryIds).toHaveLength(2);
  expect(r.splitOut).toEqual([
    { entryKey: `${t}-big`, submissionId: `gateway:${ORG}:${splitIdempotencyKey(`${t}-big`)}` },
  ]);
  expect(r.effects).toContainEqual({
    entityType: 'bill',
    entityId: billBatchBillId(ORG, `${t}-big`),
    action: 'split_out',
  });
  const splitKey = splitIdempotencyKey(`${t}-big`);
  const view = await gw.settle(ORG, splitKey);
  expect(view).toMatchObject({ status: 'awaiting_approval', risk: { lane: 'high' } });
  expect(await billRows([`${t}-BIG`])).toHaveLength(0);
  await gw.approve(ORG, splitKey, APPROVER_1);
  await gw.approve(ORG, splitKey, APPROVER_2);
  expect((await gw.result(ORG, splitKey)).outcome).toBe('applied');
  const [big] = await billRows([`${t}-BIG`]);
  expect(big!.id).toBe(billBatchBillId(ORG, `${t}-big`));
  // The batch again: every bill is already on the books under its key.
  const again = batch(w.payload.entries);
  await gw.submit(again);
  const r2 = await gw.result(ORG, again.idempotencyKey);
  expect(r2.entryIds).toHaveLength(0);
  expect(r2.effects.map((e) => e.action)).toEqual([
    'already_posted',
    'already_posted',
    'already_posted',
  ]);
});

it('refuses a key that already names another bill, and a bill dated in a closed period', async () => {
  const t = key('t4');
  const first = batch([bill(`${t}-0`, `${t}-B0`, 1200), bill(`${t}-1`, `${t}-B1`, 900)]);
  await gw.submit(first);
  expect((await gw.result(ORG, first.idempotencyKey)).outcome).toBe('applied');
  const reused = batch([bill(`${t}-2`, `${t}-B2`, 100), bill(`${t}-0`, `${t}-OTHER`, 1200)]);
  const dry = await dryRunWrite(database.db, reused);
  expect(dry.refusal).toMatchObject({
    type: 'IdempotencyConflict',
    issues: [expect.objectContaining({ path: 'payload.entries.1.key' })],
  });

  const close: GatewayWriteInput = {
    orgId: ORG,
    idempotencyKey: key('close'),
    submitter: { kind: 'user', userId: OWNER },
    kind: 'period.close',
    payload: { period: '2025-01' },
  };
  await gw.submit(close);
  await gw.settle(ORG, close.idempotencyKey);
  await gw.approve(ORG, close.idempotencyKey, APPROVER_1);
  expect((await gw.result(ORG, close.idempotencyKey)).outcome).toBe('applied');
  const late = batch([
    bill(`${t}-3`, `${t}-B3`, 100),
    bill(`${t}-4`, `${t}-B4`, 100, { billDate: '2025-01-30' }),
  ]);
  const dryLate = await dryRunWrite(database.db, late);
  expect(dryLate.refusal).toMatchObject({
    type: 'PeriodClosed',
    issues: [
      {
        path: 'payload.entries.1.billDate',
        message: 'PeriodClosed: period 2025-01 is closed',
      },
    ],
  });
});
