import { and, eq } from 'drizzle-orm';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import type { Database } from '../db/connection';
import { GatewayClient, WriteRefusedError } from '../client/gateway-client';
import { countEntries, getEntry } from '../db/repositories/ledger';
import { READ_TOOLS } from '../activities/agent-runs/tools/read-tools';
import { bills, vendorCredits } from '../db/schema';
import type { GatewayWriteInput } from '../workflows/gateway.contract';
import {
  APPROVER_1,
  CLERK,
  ORG,
  acc,
  agent,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * bill.credit on the dev server: a vendor credit reverses a bill's accounts (Dr AP, Cr the
 * expense the bill debited and the input tax), is applied against the bill it names for at
 * most what is open on it, stays an open credit on the vendor otherwise, and posts once per
 * vendor and credit-note number.
 */
let database: Database;
let worker: TestWorker;
let gw: GatewayClient;
const VENDOR = 'ven-credit';

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
    payload: { vendorId: VENDOR, name: 'Kredit Lieferant GmbH', email: 'ap@kredit-lieferant.de' },
  };
  await gw.submit(ven);
  await gw.settle(ORG, ven.idempotencyKey);
  await gw.approve(ORG, ven.idempotencyKey, APPROVER_1);
  await gw.result(ORG, ven.idempotencyKey);
  // The bill: 800.00 professional fees + 200.00 input tax.
  const bill = write('bill.post', {
    vendorId: VENDOR,
    billNumber: 'B-100',
    billDate: '2025-03-03',
    currency: 'USD',
    lines: [
      { description: 'audit', amountMinor: '80000', accountId: acc('6400') },
      { description: 'input tax', amountMinor: '20000', accountId: acc('1400') },
    ],
  });
  await gw.submit(bill);
  expect((await gw.result(ORG, bill.idempotencyKey)).outcome).toBe('applied');
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

function write(kind: string, payload: unknown): GatewayWriteInput {
  return {
    orgId: ORG,
    idempotencyKey: key(kind.replace('.', '-')),
    submitter: agent(key('agent')),
    source: { type: 'document', id: 'credit-note-1' },
    kind,
    payload,
  };
}
const credit = (creditNumber: string, over: Record<string, unknown> = {}) =>
  write('bill.credit', {
    vendorId: VENDOR,
    creditNumber,
    creditDate: '2025-03-10',
    currency: 'USD',
    precedingBillNumber: 'B-100',
    lines: [
      { description: 'audit, partly credited', amountMinor: '30000' },
      { description: 'input tax', amountMinor: '7500', accountId: acc('1400') },
    ],
    ...over,
  });
const creditRow = async (creditNumber: string) =>
  (
    await database.db
      .select()
      .from(vendorCredits)
      .where(and(eq(vendorCredits.orgId, ORG), eq(vendorCredits.creditNumber, creditNumber)))
  )[0];
const theBill = async () =>
  (
    await database.db
      .select()
      .from(bills)
      .where(and(eq(bills.orgId, ORG), eq(bills.billNumber, 'B-100')))
  )[0]!;

it('reverses the bill’s accounts, low risk, and is applied against the bill it names', async () => {
  const open = await READ_TOOLS.ap_context(database.db, ORG, { vendorId: VENDOR });
  expect(open.openBills.map((b) => b.billNumber)).toEqual(['B-100']);
  const w = credit('CN-1');
  await gw.submit(w);
  const r = await gw.result(ORG, w.idempotencyKey);
  expect(r).toMatchObject({ outcome: 'applied', risk: { lane: 'low', rules: [] } });
  const bill = await theBill();
  const row = await creditRow('CN-1');
  expect(row).toMatchObject({
    vendorId: VENDOR,
    totalMinor: 37500n,
    precedingBillNumber: 'B-100',
    appliedBillId: bill.id,
    appliedMinor: 37500n,
  });
  // The line without an account goes back to the expense the bill debited (6400), not the
  // vendor's default.
  const entry = await getEntry(database.db, ORG, row!.entryId);
  expect(entry?.lines.map((l) => [l.accountId, l.debit, l.credit])).toEqual([
    [acc('2000'), 37500n, 0n],
    [acc('6400'), 0n, 30000n],
    [acc('1400'), 0n, 7500n],
  ]);
  expect(r.effects).toEqual(
    expect.arrayContaining([
      { entityType: 'vendor_credit', entityId: row!.id, action: 'created' },
      { entityType: 'bill', entityId: bill.id, action: 'credited' },
    ]),
  );
  expect(bill.settledAt).toBeNull();
  // Partly credited, it is still owed; a credit is not a payment.
  const after = await READ_TOOLS.ap_context(database.db, ORG, { vendorId: VENDOR });
  expect(after.openBills.map((b) => [b.billNumber, b.totalMinor, b.paidMinor])).toEqual([
    ['B-100', '100000', '0'],
  ]);
});

it('the same credit note again, however spaced, is refused and writes nothing', async () => {
  const before = await countEntries(database.db, ORG);
  const w = credit('# cn-1');
  await gw.submit(w);
  const err = await gw.result(ORG, w.idempotencyKey).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WriteRefusedError);
  expect(err).toMatchObject({
    type: 'DuplicateEntity',
    issues: [
      { path: 'payload.creditNumber', message: expect.stringMatching(/^already posted as vcr-/) },
    ],
  });
  expect(await countEntries(database.db, ORG)).toBe(before);
});

it('takes off the bill no more than is open on it, and settles the bill it covers', async () => {
  // 1 000.00 billed, 375.00 credited: 625.00 open; this credit is 700.00.
  const w = credit('CN-2', {
    lines: [{ description: 'audit cancelled', amountMinor: '70000' }],
  });
  await gw.submit(w);
  const r = await gw.result(ORG, w.idempotencyKey);
  expect(r.outcome).toBe('applied');
  const bill = await theBill();
  expect(await creditRow('CN-2')).toMatchObject({
    totalMinor: 70000n,
    appliedBillId: bill.id,
    appliedMinor: 62500n,
  });
  expect(bill.settledAt).not.toBeNull();
  expect(r.effects).toEqual(
    expect.arrayContaining([{ entityType: 'bill', entityId: bill.id, action: 'settled' }]),
  );
  // The agents' AP context no longer lists it as open.
  const ap = await READ_TOOLS.ap_context(database.db, ORG, { vendorId: VENDOR });
  expect(ap.openBills.map((b) => b.billNumber)).not.toContain('B-100');
  // Nothing is open on the bill any more: a third credit is an open credit on the vendor.
  const w3 = credit('CN-3', { lines: [{ description: 'goodwill', amountMinor: '1000' }] });
  await gw.submit(w3);
  await gw.result(ORG, w3.idempotencyKey);
  expect(await creditRow('CN-3')).toMatchObject({ appliedBillId: null, appliedMinor: 0n });
});

it('without a known preceding invoice it is an open credit, reversing the vendor’s default expense', async () => {
  const w = credit('CN-4', {
    precedingBillNumber: 'B-NOT-HERE',
    lines: [{ description: 'rebate', amountMinor: '5000' }],
  });
  await gw.submit(w);
  expect((await gw.result(ORG, w.idempotencyKey)).outcome).toBe('applied');
  const row = await creditRow('CN-4');
  expect(row).toMatchObject({
    appliedBillId: null,
    appliedMinor: 0n,
    precedingBillNumber: 'B-NOT-HERE',
  });
  const entry = await getEntry(database.db, ORG, row!.entryId);
  expect(entry?.lines.map((l) => [l.accountId, l.debit, l.credit])).toEqual([
    [acc('2000'), 5000n, 0n],
    [acc('7900'), 0n, 5000n],
  ]);
});

it('a credit in another currency than the bill it names is refused at the currency', async () => {
  const w = credit('CN-5', { currency: 'EUR' });
  await gw.submit(w);
  const err = await gw.result(ORG, w.idempotencyKey).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toMatchObject({
    type: 'CurrencyMismatch',
    issues: [{ path: 'payload.currency', message: 'the bill it corrects is in USD' }],
  });
  expect(await creditRow('CN-5')).toBeUndefined();
});

it('an amount in the moderate band needs an approval, like any write', async () => {
  const w = credit('CN-6', {
    precedingBillNumber: undefined,
    lines: [{ description: 'big rebate', amountMinor: '600000' }],
  });
  const dry = await gw.submit(w, { dryRun: true });
  expect(dry).toMatchObject({ valid: true, lane: 'moderate' });
  expect(dry.risk?.rules.map((r) => r.rule)).toEqual(['amount_at_or_above_moderate_threshold']);
});
