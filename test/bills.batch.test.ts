import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import { useSeededWorker } from './support/seeded-worker';
import { ingestFile } from '../client/documents';
import { GatewayClient } from '../client/gateway-client';
import { bills } from '../db/schema';
import { ensureUser } from '../activities/gateway/org-bootstrap';
import { ciiInvoice, ublInvoice, type InvoiceSpec } from '../scripts/lib/einvoice-builder';
import { driveEvent, processBillFile, seedBillOrg } from '../scripts/eval/invoices';
import type { BillOutcome } from '../agents/bill_processor/outcome';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import { splitIdempotencyKey } from '../workflows/gateway/writes';

/**
 * The bill processor on a batch (one bill.received event carrying several documents), in code
 * mode on the dev server: the bills are read side by side and posted as one bill.post_batch;
 * the same invoice twice in the batch is a duplicate, a bill the gateway sends to approvers goes
 * to its own submission, and a bill the gateway refuses goes to a person while the rest post.
 */
const env = useSeededWorker();
const SELLER = 'Stapel Lieferant GmbH';
const spec = (number: string, net: string, over: Partial<InvoiceSpec> = {}): InvoiceSpec => ({
  number,
  seller: SELLER,
  lines: [{ name: `Material ${number}`, net, rate: '19' }],
  ...over,
});

it('posts a batch of structured bills as one bill.post_batch, each bill with its own verdict', async () => {
  const deps = env.deps();
  const org = 'bills-batch';
  await seedBillOrg(deps.db, org);
  const dir = mkdtempSync(join(tmpdir(), 'cs-bill-batch-'));
  try {
    // The vendor's first bill alone: master data creates the vendor, the accounts are warmed.
    writeFileSync(join(dir, 'first.xml'), ciiInvoice(spec('ST-0001', '100.00')));
    const first = await processBillFile(deps, org, {
      file: 'first.xml',
      path: join(dir, 'first.xml'),
      expected: { issuer: SELLER, invoice_number: 'ST-0001', amount: '119.00' },
    });
    expect(first).toMatchObject({ outcome: 'posted' });

    const files: [string, string][] = [
      ['a.xml', ciiInvoice(spec('ST-0002', '210.00'))],
      // Asks to be paid to another IBAN than the vendor's (the UBL builder's default account):
      // the payee-change rule sends it to two approvers, on its own.
      ['b.xml', ublInvoice(spec('ST-0003', '35.50'))],
      ['c.xml', ciiInvoice(spec('ST-0004', '99.99'))],
      // The same invoice as a.xml, delivered twice in one batch.
      ['d.xml', ublInvoice(spec('ST-0002', '210.00'))],
      // Large enough for the high lane: its own approval.
      ['e.xml', ciiInvoice(spec('ST-0005', '40000.00'))],
      // Dated in a closed period: refused by the gateway, so it goes to a person.
      ['f.xml', ciiInvoice(spec('ST-0006', '10.00', { date: '2025-01-15' }))],
      // Already posted (alone, above): a duplicate.
      ['g.xml', ciiInvoice(spec('ST-0001', '100.00'))],
    ];
    const ids: string[] = [];
    for (const [name, xml] of files) {
      writeFileSync(join(dir, name), xml);
      const r = await ingestFile(
        { db: deps.db, client: deps.client, taskQueue: deps.taskQueue },
        { orgId: org, path: join(dir, name) },
      );
      ids.push(r.document.id);
    }
    const gw = new GatewayClient(deps.client, deps.db, deps.taskQueue);
    const close = {
      orgId: org,
      idempotencyKey: 'close-2025-01',
      submitter: { kind: 'user' as const, userId: `${org}-controller` },
      kind: 'period.close',
      payload: { period: '2025-01' },
    };
    await ensureUser(deps.db, {
      id: `${org}-controller`,
      email: `controller@${org}.example`,
      displayName: 'Controller',
      orgId: org,
      roles: ['owner'],
    });
    await gw.submit(close);
    await gw.settle(org, close.idempotencyKey);
    await gw.approve(org, close.idempotencyKey, `${org}-approver-1`);
    expect((await gw.result(org, close.idempotencyKey)).outcome).toBe('applied');

    const trace: string[] = [];
    const run = await driveEvent(
      deps,
      { orgId: org, type: 'bill.received', payload: { documentIds: ids } },
      trace,
    );
    const out = ((run?.output?.data ?? run?.output) as { bills: BillOutcome[] }).bills;
    expect(out.map((b) => [b.documentId, b.outcome])).toEqual([
      [ids[0], 'posted'],
      [ids[1], 'posted'],
      [ids[2], 'posted'],
      [ids[3], 'duplicate'],
      [ids[4], 'posted'],
      [ids[5], 'human_review'],
      [ids[6], 'duplicate'],
    ]);
    expect(out[5]!.reasons.join(' ')).toMatch(/PeriodClosed: period 2025-01 is closed/);
    expect(out[3]!.reasons.join(' ')).toMatch(/also document .* of this batch/);
    // The gateway's dry run refused the first batch, naming the bill of the closed period; the
    // batch without it was started: one submission, two of its bills split out to approvers.
    const batches = run!.submissions.filter((s) => s.kind === 'bill.post_batch');
    expect(batches).toHaveLength(1);
    expect(batches[0]!.outcome).toBe('applied');
    expect(run!.submissions.filter((s) => s.kind === 'bill.post')).toHaveLength(0);
    expect(out[0]!.submissionId).toBe(batches[0]!.submissionId);
    expect(out[2]!.submissionId).toBe(batches[0]!.submissionId);
    for (const [i, rule] of [
      [1, 'payee_bank_details_changed'],
      [4, 'amount_at_or_above_high_threshold'],
    ] as const) {
      const splitKey = splitIdempotencyKey(`doc:${ids[i]}`);
      expect(out[i]!.submissionId).toBe(gatewayWorkflowId(org, splitKey));
      const view = await gw.settle(org, splitKey);
      expect(view).toMatchObject({ status: 'awaiting_approval', risk: { lane: 'high' } });
      expect(view.risk!.rules.map((r) => r.rule)).toEqual([rule]);
    }

    const posted = await deps.db
      .select({ number: bills.billNumber, total: bills.totalMinor })
      .from(bills)
      .where(
        and(
          eq(bills.orgId, org),
          inArray(bills.billNumber, ['ST-0002', 'ST-0003', 'ST-0004', 'ST-0005', 'ST-0006']),
        ),
      );
    expect(posted.map((b) => [b.number, b.total]).sort()).toEqual([
      ['ST-0002', 24990n],
      ['ST-0004', 11899n],
    ]);
    const tb = await gw.trialBalance(org);
    expect(tb.totals.every((x) => x.net === '0')).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
