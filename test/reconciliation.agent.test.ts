import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { useSeededWorker } from './support/seeded-worker';
import { FIXTURES } from './support/fixtures';
import { importStatementAsEvents } from '../client/intake-client';
import { GatewayClient, WriteRefusedError } from '../client/gateway-client';
import { RequestsClient } from '../client/requests-client';
import { accountId } from '../db/ledger/default-chart';
import { getRunRecord, runsOfOrg, setOrgAgentSettings } from '../db/repositories/agent-runs';
import { getEntry } from '../db/repositories/ledger';
import { unmatchedEntriesOn } from '../db/repositories/reconciliation';
import { upsertAgentIdentity } from '../db/repositories/credentials';
import { ensureOrganization } from '../db/repositories/organizations';
import {
  bankLineClassifications,
  bankLineReconciliations,
  bankLines,
  billSettlements,
  bills,
  events,
  humanRequests,
  payments,
} from '../db/schema';
import { gatewayWorkflowId, type GatewayWriteInput } from '../workflows/gateway.contract';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';
import { READ_TOOLS } from '../activities/agent-runs/tools/read-tools';

/**
 * The reconciliation agent end to end on the dev server with PostgreSQL, in code mode, through
 * the gateway: a CAMT.053 file (two statements of one account, imported by the real importer)
 * against an org with vendors, open bills and a payment.send entry. The bill the line names
 * (reworded) is settled, the payment's line matches its entry, the ambiguous line (two open
 * bills of its amount, no reference) goes to one request and is settled after the answer, the
 * rest reach the bank transaction processor credited to the statement's bank account; the
 * same file again changes nothing; the two statements never reconcile at the same time; an
 * unknown account is one configuration request; bill.settle refuses a double settlement, a
 * matched line and another amount.
 */
const env = useSeededWorker();
const ORG = 'recon-e2e';
const OWNER = `${ORG}-owner`;
const CLERK = `${ORG}-clerk`;
const APPROVERS = [`${ORG}-ann`, `${ORG}-abe`];
const IBAN = 'DE44500105175407324931';
const FILE = join(FIXTURES, 'statements', 'camt', 'reconciliation.xml');
const acc = (code: string) => accountId(ORG, code);

let gw: GatewayClient;
let seq = 0;

/** A write as the owner, approved by the approvers as its lane needs, applied. */
async function apply(kind: string, payload: Record<string, unknown>): Promise<string> {
  const w: GatewayWriteInput = {
    orgId: ORG,
    idempotencyKey: `seed-${kind.replace('.', '-')}-${++seq}`,
    submitter: { kind: 'user', userId: OWNER },
    source: { type: 'manual', id: 'test-seed' },
    kind,
    payload,
  };
  await gw.submit(w);
  const view = await gw.settle(ORG, w.idempotencyKey);
  if (view.status === 'awaiting_approval')
    for (const a of APPROVERS.slice(0, view.risk?.requiredApprovals ?? 0))
      await gw.approve(ORG, w.idempotencyKey, a);
  const r = await gw.result(ORG, w.idempotencyKey);
  expect(r.outcome).toBe('applied');
  return r.submissionId;
}

/**
 * Waits until no event of the org is pending or processing and no run is unfinished,
 * approving (as the approvers) whatever agent write waits in an approval lane.
 */
async function quiet(
  until: (runs: Awaited<ReturnType<typeof runsOfOrg>>) => boolean = () => true,
  timeoutMs = 60_000,
): Promise<void> {
  const { db } = env.deps();
  const deadline = Date.now() + timeoutMs;
  const voted = new Set<string>();
  const prefix = gatewayWorkflowId(ORG, '');
  for (;;) {
    const runs = await runsOfOrg(db, ORG);
    for (const run of runs.filter((r) => r.state === 'waiting_approval')) {
      const record = await getRunRecord(db, ORG, run.id);
      for (const s of record?.submissions ?? []) {
        const key = s.submissionId.slice(prefix.length);
        const view = await gw.state(ORG, key).catch(() => null);
        if (view?.status !== 'awaiting_approval') continue;
        for (const a of APPROVERS) {
          if (voted.has(`${key}#${view.revision}#${a}`)) continue;
          voted.add(`${key}#${view.revision}#${a}`);
          await gw.approve(ORG, key, a).catch(() => undefined);
        }
      }
    }
    const [busy] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(events)
      .where(and(eq(events.orgId, ORG), inArray(events.state, ['pending', 'processing'])));
    const unfinished = runs.filter((r) =>
      ['pending', 'running', 'waiting_approval'].includes(r.state),
    );
    if (busy!.n === 0 && unfinished.length === 0 && until(runs)) return;
    if (Date.now() > deadline)
      throw new Error(`org not quiet: ${busy!.n} event(s), ${unfinished.length} run(s) busy`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const triggerOf = (r: { trigger: unknown }) => (r.trigger as { eventType: string }).eventType;
const reconRunsIn = (runs: Awaited<ReturnType<typeof runsOfOrg>>) =>
  runs.filter((r) => r.agentType === 'reconciliation');
const reconRuns = async () =>
  (await runsOfOrg(env.deps().db, ORG))
    .filter((r) => r.agentType === 'reconciliation')
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());

beforeAll(async () => {
  const { db, client, taskQueue } = env.deps();
  gw = new GatewayClient(client, db, taskQueue);
  await ensureOrganization(db, { id: ORG, name: 'Reconciliation GmbH' });
  await seedDefaultChart(db, ORG);
  await ensureUser(db, {
    id: OWNER,
    email: `owner@${ORG}.example`,
    displayName: 'Owner',
    orgId: ORG,
    roles: ['owner'],
  });
  await ensureUser(db, {
    id: CLERK,
    email: `clerk@${ORG}.example`,
    displayName: 'Clerk',
    orgId: ORG,
    roles: ['analyst'],
  });
  for (const a of APPROVERS)
    await ensureUser(db, {
      id: a,
      email: `${a}@${ORG}.example`,
      displayName: a,
      orgId: ORG,
      roles: ['approver'],
    });
  await setOrgAgentSettings(db, { orgId: ORG, operatorUserId: CLERK });
  for (const [agentId, allowedWorkflows] of [
    ['reconciliation', ['bank_line.match', 'bill.settle']],
    ['bank_transaction_processor', ['journal.post_batch']],
  ] as const)
    await upsertAgentIdentity(db, {
      orgId: ORG,
      agentId,
      operatorUserId: CLERK,
      allowedWorkflows: [...allowedWorkflows],
      by: OWNER,
    });

  await apply('bank_account.create', {
    bankAccountId: 'bank-main',
    details: { holderName: 'Reconciliation GmbH', iban: IBAN, currency: 'EUR' },
    ledgerAccountId: acc('1010'),
  });
  await apply('vendor.create', {
    vendorId: 'ven-nordlicht',
    name: 'Nordlicht Papier GmbH',
    bankAccount: {
      holderName: 'Nordlicht Papier GmbH',
      iban: 'DE02120300000000202051',
      currency: 'EUR',
    },
  });
  await apply('vendor.create', { vendorId: 'ven-kontor', name: 'Kontor Buerobedarf GmbH' });
  const bill = (vendorId: string, billNumber: string, amountMinor: string) =>
    apply('bill.post', {
      vendorId,
      billNumber,
      billDate: '2025-03-03',
      dueDate: '2025-04-02',
      currency: 'EUR',
      lines: [{ description: 'Office supplies', amountMinor }],
    });
  await bill('ven-nordlicht', 'NP-2025-0042', '119000');
  await bill('ven-kontor', 'KB-101', '25000');
  await bill('ven-kontor', 'KB-102', '25000');
  await apply('payment.send', {
    vendorId: 'ven-nordlicht',
    fromBankAccountId: 'bank-main',
    amountMinor: '48000',
    currency: 'EUR',
    paymentDate: '2025-03-10',
    reference: 'Advance payment',
  });
}, 60_000);

it('reconciles a statement: settles, matches, asks once, hands on; idempotent; one run at a time', async () => {
  const deps = env.deps();
  const { db } = deps;
  const started = Date.now();
  const bytes = readFileSync(FILE);
  const imported = await importStatementAsEvents(deps, {
    orgId: ORG,
    connectorId: 'bank-sync',
    file: 'reconciliation.xml',
    bytes,
  });
  expect(imported).toMatchObject({ ok: true, lines: 6 });
  await quiet((runs) => reconRunsIn(runs).length === 2);

  // Two statements at once, two runs — never at the same time: the second starts running
  // only after the first's handler logged its last step (the slot is held until then).
  const statementRuns = await reconRuns();
  expect(statementRuns).toHaveLength(2);
  const records = await Promise.all(statementRuns.map((r) => getRunRecord(db, ORG, r.id)));
  const [first, second] = records
    .map((r) => r!)
    .sort((a, b) => a.run.startedAt!.getTime() - b.run.startedAt!.getTime());
  const firstLastStep = Math.max(...first!.progress.map((p) => p.at.getTime()));
  expect(second!.run.startedAt!.getTime()).toBeGreaterThanOrEqual(firstLastStep);

  const data = Object.fromEntries(
    records.map((r) => {
      const d = (r!.run.output as { data: Record<string, unknown> }).data;
      return [d.statementRef as string, d];
    }),
  );
  expect(data['RECON-STMT-2025-03']).toMatchObject({
    lines: 5,
    stored: 5,
    matched: 1,
    settled: 1,
    asked: 1,
    handedOn: 2,
    left: 0,
  });
  expect(data['RECON-STMT-2025-04']).toMatchObject({ lines: 1, handedOn: 1, asked: 0 });

  const lines = await db.select().from(bankLines).where(eq(bankLines.orgId, ORG));
  expect(lines).toHaveLength(6);
  const byExt = new Map(lines.map((l) => [l.externalId, l]));

  // The bill named "np 2025 42" is settled: balanced entry Dr AP / Cr bank, line matched.
  const [np] = await db
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, ORG), eq(bills.billNumber, 'NP-2025-0042')));
  expect(np!.settledAt).not.toBeNull();
  const [settlement] = await db
    .select()
    .from(billSettlements)
    .where(and(eq(billSettlements.orgId, ORG), eq(billSettlements.billId, np!.id)));
  expect(settlement).toMatchObject({
    bankLineId: byExt.get('bank:RC-0002')!.id,
    amountMinor: 119000n,
  });
  expect(byExt.get('bank:RC-0002')!.matchedEntryId).toBe(settlement!.entryId);
  const entry = await getEntry(db, ORG, settlement!.entryId);
  expect(entry).toMatchObject({ status: 'posted', entryDate: '2025-03-20' });
  expect(entry!.lines.map((l) => [l.accountId, l.debit, l.credit])).toEqual([
    [acc('2000'), 119000n, 0n],
    [acc('1010'), 0n, 119000n],
  ]);

  // The payment.send line matches the payment's entry.
  const [payment] = await db.select().from(payments).where(eq(payments.orgId, ORG));
  expect(byExt.get('bank:RC-0001')!.matchedEntryId).toBe(payment!.entryId);

  // The rest reach the bank transaction processor, credited to the statement's bank account.
  const handed = await db
    .select()
    .from(bankLineClassifications)
    .where(eq(bankLineClassifications.orgId, ORG));
  expect(handed.map((h) => h.lineKey).sort()).toEqual(
    ['bank:RC-0004', 'bank:RC-0005', 'bank:RC-0006']
      .map((e) => `statement:${byExt.get(e)!.id}`)
      .sort(),
  );
  expect(handed.every((h) => h.creditAccountId === acc('1010'))).toBe(true);
  // Money out is spend for it (positive), the customer receipt negative.
  expect(handed.find((h) => h.merchant === 'Kunde Hansen KG')!.amountMinor).toBe(-150000n);
  expect(handed.find((h) => h.merchant === 'Tankstelle Nord')!.amountMinor).toBe(4217n);

  // ONE request for the ambiguous line, offering both bills; answered, the chosen one settles.
  const asked = await db
    .select()
    .from(bankLineReconciliations)
    .where(
      and(eq(bankLineReconciliations.orgId, ORG), eq(bankLineReconciliations.status, 'asked')),
    );
  expect(asked).toHaveLength(1);
  const ambiguous = byExt.get('bank:RC-0003')!;
  expect(asked[0]!.bankLineId).toBe(ambiguous.id);
  const kontor = await db
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, ORG), eq(bills.vendorId, 'ven-kontor')));
  const kb102 = kontor.find((b) => b.billNumber === 'KB-102')!;
  expect(asked[0]!.candidates.sort()).toEqual(kontor.map((b) => `bill:${b.id}`).sort());
  const requests = new RequestsClient(deps.client, db, { taskQueue: deps.taskQueue });
  const answer = { lines_1: { [ambiguous.id]: kb102.id } };
  await requests.answerRequest({
    requestId: asked[0]!.requestId!,
    orgId: ORG,
    answeredBy: OWNER,
    answer,
  });
  await quiet((runs) =>
    reconRunsIn(runs).some((r) => triggerOf(r) === 'request.completed' && r.state === 'completed'),
  );
  const [afterAnswer] = await db
    .select()
    .from(bankLines)
    .where(and(eq(bankLines.orgId, ORG), eq(bankLines.id, ambiguous.id)));
  const [kbSettled] = await db
    .select()
    .from(billSettlements)
    .where(and(eq(billSettlements.orgId, ORG), eq(billSettlements.billId, kb102.id)));
  expect(afterAnswer!.matchedEntryId).toBe(kbSettled!.entryId);
  const [kb101] = await db
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, ORG), eq(bills.billNumber, 'KB-101')));
  expect(kb101!.settledAt).toBeNull();
  // What the bill processor is shown of the vendor: the settled bill is no longer owed.
  const ap = await READ_TOOLS.ap_context(db, ORG, { vendorId: 'ven-kontor' });
  expect(ap.openBills.map((b) => [b.billNumber, b.paidMinor])).toEqual(
    kontor
      .filter((b) => b.id !== kb102.id)
      .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.id.localeCompare(b.id))
      .map((b) => [b.billNumber, '0']),
  );

  // The bank processor's answers post the handed-on lines against the statement's bank
  // account; those entries are that line's own, never a rule-a candidate for another line.
  const bankRequests = await db
    .select()
    .from(humanRequests)
    .where(
      and(
        eq(humanRequests.orgId, ORG),
        eq(humanRequests.createdByAgentType, 'bank_transaction_processor'),
      ),
    );
  expect(bankRequests).toHaveLength(2);
  const bankRunsBefore = (await runsOfOrg(db, ORG)).filter(
    (r) => r.agentType === 'bank_transaction_processor',
  ).length;
  for (const r of bankRequests) {
    const fields = (r.answerSchema as { fields: { name: string; items: { id: string }[] }[] })
      .fields;
    await requests.answerRequest({
      requestId: r.id,
      orgId: ORG,
      answeredBy: OWNER,
      answer: Object.fromEntries(
        fields.map((f) => [
          f.name,
          Object.fromEntries(
            f.items.map((i) => [
              i.id,
              i.id.endsWith(byExt.get('bank:RC-0005')!.id) ? '4000' : '7900',
            ]),
          ),
        ]),
      ),
    });
  }
  await quiet(
    (runs) =>
      runs.filter(
        (r) =>
          r.agentType === 'bank_transaction_processor' &&
          triggerOf(r) === 'request.completed' &&
          r.state === 'completed',
      ).length >= bankRequests.length && runs.length > bankRunsBefore,
  );
  const posted = await db.execute<{
    key: string;
    account_id: string;
    debit: string;
    credit: string;
  }>(
    sql`select e.idempotency_key as key, l.account_id, l.debit::text, l.credit::text
          from journal_entries e join journal_lines l on l.entry_id = e.id
         where e.org_id = ${ORG} and e.idempotency_key like 'batch-entry:statement:%'
         order by e.idempotency_key, l.line_no`,
  );
  const bankSide = posted.rows.filter((r) => r.account_id === acc('1010'));
  expect(bankSide.map((r) => [r.debit, r.credit]).sort()).toEqual(
    [
      ['0', '1250'],
      ['0', '4217'],
      ['150000', '0'],
    ].sort(),
  );
  const candidates = await unmatchedEntriesOn(
    db,
    ORG,
    acc('1010'),
    'EUR',
    '2025-03-01',
    '2025-05-31',
  );
  // Every other entry on the bank account is matched: nothing is left to match a new line to.
  expect(candidates).toEqual([]);

  // The same file again changes nothing: no line, write, request or hand-on more.
  const count = async () => ({
    lines: (await db.select().from(bankLines).where(eq(bankLines.orgId, ORG))).length,
    settlements: (await db.select().from(billSettlements).where(eq(billSettlements.orgId, ORG)))
      .length,
    requests: (await db.select().from(humanRequests).where(eq(humanRequests.orgId, ORG))).length,
    handed: (
      await db.select().from(bankLineClassifications).where(eq(bankLineClassifications.orgId, ORG))
    ).length,
  });
  const before = await count();
  const runsBefore = (await reconRuns()).length;
  const statementRunsBefore = (await reconRuns()).filter(
    (r) => triggerOf(r) === 'connector.statement_imported',
  ).length;
  await importStatementAsEvents(deps, {
    orgId: ORG,
    connectorId: 'bank-sync',
    file: 'reconciliation.xml',
    bytes,
  });
  await quiet(
    (runs) =>
      reconRunsIn(runs).filter((r) => triggerOf(r) === 'connector.statement_imported').length ===
      statementRunsBefore + 2,
  );
  expect(await count()).toEqual(before);
  const again = (await reconRuns()).slice(runsBefore);
  expect(again).toHaveLength(2);
  for (const r of again) {
    const rec = await getRunRecord(db, ORG, r.id);
    expect(rec!.run.state).toBe('completed');
    expect(rec!.submissions).toEqual([]);
    expect((rec!.run.output as { data: { pending: number } }).data.pending).toBe(0);
  }
  console.log(`reconciliation e2e: ${Date.now() - started} ms`);
}, 120_000);

it('a statement of an unknown account is one configuration request; nothing stored', async () => {
  const deps = env.deps();
  const bytes = readFileSync(join(FIXTURES, 'statements', 'camt', 'jpy-statement.xml'));
  const before = (await deps.db.select().from(bankLines).where(eq(bankLines.orgId, ORG))).length;
  const runsBefore = (await reconRuns()).length;
  await importStatementAsEvents(deps, { orgId: ORG, connectorId: 'jp', file: 'jp.xml', bytes });
  await quiet((runs) => reconRunsIn(runs).length > runsBefore);
  const run = (await reconRuns()).pop()!;
  expect(run.state).toBe('waiting_human');
  const data = (run.output as { data: { requestId: string; unknownAccount: string } }).data;
  expect(data.unknownAccount).toBe('1234567');
  const [req] = await deps.db
    .select()
    .from(humanRequests)
    .where(and(eq(humanRequests.orgId, ORG), eq(humanRequests.id, data.requestId)));
  expect(req).toMatchObject({ type: 'configuration', status: 'open' });
  expect(req!.question).toMatch(/1234567/);
  expect((await deps.db.select().from(bankLines).where(eq(bankLines.orgId, ORG))).length).toBe(
    before,
  );
}, 60_000);

it('bill.settle refuses a settled bill, a matched line and another amount', async () => {
  const { db } = env.deps();
  const lines = await db.select().from(bankLines).where(eq(bankLines.orgId, ORG));
  const ext = (e: string) => lines.find((l) => l.externalId === e)!.id;
  const billOf = async (n: string) =>
    (
      await db
        .select()
        .from(bills)
        .where(and(eq(bills.orgId, ORG), eq(bills.billNumber, n)))
    )[0]!.id;
  const settle = async (billId: string, bankLineId: string) => {
    const key = `settle-${++seq}`;
    await gw.submit({
      orgId: ORG,
      idempotencyKey: key,
      submitter: { kind: 'user', userId: OWNER },
      kind: 'bill.settle',
      payload: { billId, bankLineId },
    });
    return gw.result(ORG, key);
  };
  // The settled bill again, with a line still unmatched (the bank fee).
  await expect(settle(await billOf('NP-2025-0042'), ext('bank:RC-0006'))).rejects.toThrow(
    /already settled/,
  );
  // A line already matched (to the payment's entry).
  await expect(settle(await billOf('KB-101'), ext('bank:RC-0001'))).rejects.toThrow(
    /already matched/,
  );
  // Another amount: the fee does not pay KB-101.
  const refused = settle(await billOf('KB-101'), ext('bank:RC-0006'));
  await expect(refused).rejects.toThrow(WriteRefusedError);
  await expect(refused).rejects.toThrow(/moves -1250.*totals 25000/);
}, 60_000);
