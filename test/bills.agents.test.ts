import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { useSeededWorker } from './support/seeded-worker';
import { FIXTURES } from './support/fixtures';
import { ingestFile } from '../client/documents';
import { GatewayClient, WriteRefusedError } from '../client/gateway-client';
import { bills, vendors } from '../db/schema';
import { loadDataset, summarize } from '../scripts/eval/invoices-scoring';
import { driveEvent, processBillFile, seedBillOrg, OPERATOR } from '../scripts/eval/invoices';
import type { BillOutcome } from '../agents/bill_processor/handler';

/**
 * The bill processor and master data agents end to end on the dev server with PostgreSQL, in
 * code mode, through the gateway — the invoices eval's CI short mode on three of the synthetic
 * bills: a bill from an unknown vendor resumes after master data created the vendor (with its
 * placeholder email flagged); a bill that fails a check goes to a person and writes nothing;
 * the same invoice again is refused, by the agent and by the gateway whatever its spacing.
 */
const env = useSeededWorker();
const ORG_ID = 'bills-e2e';
const DIR = join(FIXTURES, 'bills');

it('posts, delegates, refuses duplicates and sends what fails a check to a person', async () => {
  const deps = env.deps();
  await seedBillOrg(deps.db, ORG_ID);
  const files = loadDataset(DIR).filter((f) =>
    ['de-rechnung.txt', 'ca-hosting.pdf', 'trap-rate.txt'].includes(f.file),
  );
  const items = [];
  for (const f of files) items.push(await processBillFile(deps, ORG_ID, f));
  const s = summarize(items);
  expect(s).toMatchObject({ files: 3, posted: 2, wrongPosted: 0 });
  expect(s.expectedOutcomeMatches).toEqual({ checked: 3, matched: 3 });

  // The unknown vendor went to master data, was created with a flagged placeholder email, and
  // the bill resumed and was applied.
  const de = items.find((i) => i.file === 'de-rechnung.txt')!;
  expect(de.trace).toEqual(
    expect.arrayContaining([
      'bill_processor: vendor_unknown',
      expect.stringMatching(
        /^delegation hr_.* answered by agent:master_data: vendor ven-holzwerk-berger$/,
      ),
      'bill_processor: posted',
      'bill.post applied',
    ]),
  );
  const [vendor] = await deps.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.orgId, ORG_ID), eq(vendors.name, 'Holzwerk Berger GmbH')));
  expect(vendor).toMatchObject({ taxId: 'DE812345678' });
  // The printed address is the vendor's own domain: kept, no placeholder.
  expect(vendor!.email).toBe('buchhaltung@holzwerk-berger.de');
  expect(vendor!.placeholderFields).toEqual([]);
  const [canadian] = await deps.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.orgId, ORG_ID), eq(vendors.name, 'Maple Cloud Hosting Inc.')));
  expect(canadian!.email).toMatch(/\.invalid$/);
  expect(canadian!.placeholderFields).toEqual(['email']);
  const [bill] = await deps.db
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, ORG_ID), eq(bills.billNumber, 'RE-2024-0815')));
  expect(bill).toMatchObject({ currency: 'EUR', totalMinor: 146913n, billDate: '2024-03-12' });

  // The trap wrote nothing: no vendor request, no submission.
  const trap = items.find((i) => i.file === 'trap-rate.txt')!;
  expect(trap).toMatchObject({ outcome: 'human_review' });
  expect(trap.trace).toEqual(['bill_processor: human_review']);

  // The same bill again: the agent refuses it from the vendor's open bills ...
  const { document } = await ingestFile(deps, {
    orgId: ORG_ID,
    path: join(DIR, 'de-rechnung.txt'),
  });
  const trace: string[] = [];
  const again = await driveEvent(
    deps,
    {
      orgId: ORG_ID,
      type: 'bill.received',
      payload: { documentId: document.id, vendorId: vendor!.id },
    },
    trace,
  );
  const bill2 = (again!.output as { data: { bills: BillOutcome[] } }).data.bills[0]!;
  expect(bill2.outcome).toBe('duplicate');
  expect(again!.submissions).toEqual([]);
  // ... and the gateway refuses it too, however the number is spaced or cased.
  const gw = new GatewayClient(deps.client, deps.db, deps.taskQueue);
  await expect(
    gw
      .submit({
        orgId: ORG_ID,
        idempotencyKey: 'dup-by-hand',
        submitter: { kind: 'user', userId: `${ORG_ID}-${OPERATOR}` },
        kind: 'bill.post',
        payload: {
          vendorId: vendor!.id,
          billNumber: '# re-2024-0815',
          billDate: '2024-03-12',
          currency: 'EUR',
          lines: [{ description: 'again', amountMinor: '146913' }],
        },
      })
      .then(() => gw.result(ORG_ID, 'dup-by-hand')),
  ).rejects.toThrow(WriteRefusedError);
  await expect(gw.result(ORG_ID, 'dup-by-hand')).rejects.toThrow(/already posted/);
});
