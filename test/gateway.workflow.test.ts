import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import type { Database } from '../db/connection';
import { GatewayClient, ApprovalRefusedError, WriteRefusedError } from '../client/gateway-client';
import { InvalidRequestError } from '../client/errors';
import { countEntries, getEntry, trialBalance } from '../db/repositories/ledger';
import { getSubmission } from '../db/repositories/gateway';
import { getVendor } from '../db/repositories/master-data';
import { auditTrail } from '../db/repositories/audit';
import { gatewayWorkflowId, type GatewayWriteInput } from '../workflows/gateway.contract';
import {
  APPROVER_1,
  APPROVER_2,
  APPROVER_3,
  CLERK,
  OPERATOR,
  ORG,
  OTHER_ORG,
  OUTSIDER,
  OWNER,
  POSTING_AGENT,
  acc,
  agent,
  journalPost,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

let database: Database;
let worker: TestWorker;
let gw: GatewayClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010', '6300']);
  worker = await startTestWorker(database);
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

async function refusal(p: Promise<unknown>): Promise<WriteRefusedError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WriteRefusedError);
  return err as WriteRefusedError;
}
const entries = () => countEntries(database.db, ORG);

describe('gateway lanes on the dev server', () => {
  it('low risk: applies at once, posts one balanced entry with its attribution', async () => {
    const w = journalPost({ amount: '4200' });
    await gw.submit(w);
    const r = await gw.result(ORG, w.idempotencyKey);
    expect(r).toMatchObject({
      outcome: 'applied',
      risk: { lane: 'low', score: 0, requiredApprovals: 0, rules: [] },
      votes: [],
    });
    const entry = await getEntry(database.db, ORG, r.entryIds[0] as string);
    expect(entry).toMatchObject({
      status: 'posted',
      idempotencyKey: gatewayWorkflowId(ORG, w.idempotencyKey),
      submissionId: r.submissionId,
      sourceRef: 'document:receipt-1',
    });
    expect(entry?.lines.map((l) => [l.accountId, l.debit, l.credit])).toEqual([
      [acc('6200'), 4200n, 0n],
      [acc('1010'), 0n, 4200n],
    ]);
    expect(await getSubmission(database.db, r.submissionId)).toMatchObject({
      status: 'applied',
      lane: 'low',
      riskScore: 0,
      submitterUserId: CLERK,
    });
  });

  it('moderate risk: waits for one approval, then applies', async () => {
    const w = journalPost({
      lines: [
        { accountId: acc('6500'), debit: '900' },
        { accountId: acc('1010'), credit: '900' },
      ],
    });
    await gw.submit(w);
    const view = await gw.settle(ORG, w.idempotencyKey);
    expect(view.status).toBe('awaiting_approval');
    expect(view.risk).toMatchObject({
      lane: 'moderate',
      requiredApprovals: 1,
      rules: [{ rule: 'first_posting_to_account', detail: `first posting to ${acc('6500')}` }],
    });
    expect(view.preview[0]?.lines).toHaveLength(2);
    expect(view.dueAt).not.toBeNull();
    const before = await entries();
    await expect(gw.approve(ORG, w.idempotencyKey, APPROVER_1)).resolves.toEqual({
      accepted: true,
      approvals: 1,
      required: 1,
    });
    const r = await gw.result(ORG, w.idempotencyKey);
    expect(r.outcome).toBe('applied');
    expect(r.votes.map((v) => v.userId)).toEqual([APPROVER_1]);
    expect(await entries()).toBe(before + 1);
  });

  it('high risk: needs two distinct approvers; the submitter and a double vote are refused', async () => {
    const w = journalPost({ amount: '3000000', submitter: { kind: 'user', userId: OWNER } });
    await gw.submit(w);
    const view = await gw.settle(ORG, w.idempotencyKey);
    expect(view.risk).toMatchObject({ lane: 'high', requiredApprovals: 2 });
    expect(view.risk?.rules.map((r) => r.rule)).toEqual(['amount_at_or_above_high_threshold']);
    await expect(gw.approve(ORG, w.idempotencyKey, OWNER)).rejects.toMatchObject({
      name: 'ApprovalRefusedError',
      type: 'SelfApproval',
    });
    await expect(gw.approve(ORG, w.idempotencyKey, APPROVER_1)).resolves.toMatchObject({
      approvals: 1,
      required: 2,
    });
    await expect(gw.approve(ORG, w.idempotencyKey, APPROVER_1)).rejects.toMatchObject({
      type: 'DuplicateApproval',
    });
    expect((await gw.state(ORG, w.idempotencyKey)).status).toBe('awaiting_approval');
    await gw.approve(ORG, w.idempotencyKey, APPROVER_3);
    const r = await gw.result(ORG, w.idempotencyKey);
    expect(r.outcome).toBe('applied');
    expect(r.votes.map((v) => v.userId)).toEqual([APPROVER_1, APPROVER_3]);
  });

  it('refuses an approver from another org and a member without the approver role', async () => {
    const w = journalPost({
      lines: [
        { accountId: acc('6600'), debit: '10' },
        { accountId: acc('1010'), credit: '10' },
      ],
    });
    await gw.submit(w);
    await gw.settle(ORG, w.idempotencyKey);
    await expect(
      gw.decide(ORG, w.idempotencyKey, {
        decision: 'approve',
        approver: { userId: OUTSIDER, orgId: OTHER_ORG },
        ...(await gw.currentPlan(ORG, w.idempotencyKey)),
      }),
    ).rejects.toMatchObject({
      type: 'ApproverNotAuthorized',
      message: `Approver belongs to org ${OTHER_ORG}, not ${ORG}`,
    });
    // Claiming the right org does not help: the role is checked in the database.
    await expect(gw.approve(ORG, w.idempotencyKey, OUTSIDER)).rejects.toMatchObject({
      type: 'ApproverNotAuthorized',
      message: `User ${OUTSIDER} may not approve writes in org ${ORG}`,
    });
    await expect(gw.approve(ORG, w.idempotencyKey, 'bob-the-impostor')).rejects.toBeInstanceOf(
      ApprovalRefusedError,
    );
    expect((await gw.state(ORG, w.idempotencyKey)).votes).toEqual([]);
    await gw.reject(ORG, w.idempotencyKey, APPROVER_2, 'not our expense');
    const r = await gw.result(ORG, w.idempotencyKey);
    expect(r.outcome).toBe('rejected');
    expect(r.entryIds).toEqual([]);
    expect((await getSubmission(database.db, r.submissionId))?.status).toBe('rejected');
  });

  it('an agent’s operator cannot approve the agent’s write; attribution answers who signed what', async () => {
    const instance = key('agent-run');
    const w: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('ven'),
      submitter: agent(instance),
      source: { type: 'event', id: 'email-778' },
      kind: 'vendor.create',
      payload: {
        vendorId: `ven-${instance}`,
        name: 'Paper Co',
        email: 'ap@paperco.com',
        bankAccount: { holderName: 'Paper Co', iban: 'DE89370400440532013000', currency: 'EUR' },
      },
    };
    await gw.submit(w);
    const view = await gw.settle(ORG, w.idempotencyKey);
    expect(view.risk?.lane).toBe('high');
    expect(view.risk?.rules.map((r) => r.rule)).toEqual([
      'payee_bank_details_new',
      'new_master_data',
    ]);
    await expect(gw.approve(ORG, w.idempotencyKey, OPERATOR)).rejects.toMatchObject({
      type: 'SelfApproval',
    });
    await gw.approve(ORG, w.idempotencyKey, APPROVER_1);
    await gw.approve(ORG, w.idempotencyKey, APPROVER_2);
    expect((await gw.result(ORG, w.idempotencyKey)).outcome).toBe('applied');
    // Low-risk entry by the same agent: applied by policy, signed by nobody.
    const post = journalPost({ submitter: agent(instance), amount: '55' });
    await gw.submit(post);
    await gw.result(ORG, post.idempotencyKey);

    const changes = await gw.changesByAgentInstance(instance);
    expect(
      changes.map((c) => [c.kind, c.lane, c.sourceRef, c.signedBy.map((s) => s.userId)]),
    ).toEqual([
      ['vendor.create', 'high', 'event:email-778', [APPROVER_1, APPROVER_2]],
      ['journal.post', 'low', 'document:receipt-1', []],
    ]);
    expect(changes[0]?.effects).toEqual([
      { entityType: 'bank_account', entityId: expect.stringMatching(/^bank-/), action: 'created' },
      { entityType: 'vendor', entityId: `ven-${instance}`, action: 'created' },
    ]);
    expect(changes[0]).toMatchObject({
      agentType: 'bill_processor',
      operatorUserId: OPERATOR,
      riskScore: 50,
    });
    expect((await getVendor(database.db, ORG, `ven-${instance}`))?.createdBySubmission).toBe(
      changes[0]?.submissionId,
    );
  });

  it('submitting the same idempotency key again never posts twice', async () => {
    const w = journalPost({ amount: '77' });
    const before = await entries();
    expect(await gw.submit(w)).toMatchObject({ started: true });
    const second = await gw.submit(w);
    const r = await gw.result(ORG, w.idempotencyKey);
    expect(second.submissionId).toBe(r.submissionId);
    expect(await gw.submit(w)).toMatchObject({ started: false });
    expect(await entries()).toBe(before + 1);
  });

  it('a period close, then a posting into it is refused with the period path; reopen is approved', async () => {
    const close: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('close'),
      submitter: { kind: 'user', userId: OWNER },
      kind: 'period.close',
      payload: { period: '2025-02' },
    };
    await gw.submit(close);
    expect((await gw.settle(ORG, close.idempotencyKey)).risk?.lane).toBe('moderate');
    await gw.approve(ORG, close.idempotencyKey, APPROVER_1);
    expect((await gw.result(ORG, close.idempotencyKey)).outcome).toBe('applied');
    const before = await entries();
    const late = journalPost({ entryDate: '2025-02-27' });
    await gw.submit(late);
    const err = await refusal(gw.result(ORG, late.idempotencyKey));
    expect(err.type).toBe('PeriodClosed');
    expect(err.issues).toEqual([
      { path: 'payload.entryDate', message: 'period 2025-02 is closed' },
    ]);
    expect(await entries()).toBe(before);
    const reopen: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('reopen'),
      submitter: { kind: 'user', userId: OWNER },
      kind: 'period.reopen',
      payload: { period: '2025-02', reason: 'late invoice' },
    };
    await gw.submit(reopen);
    expect((await gw.settle(ORG, reopen.idempotencyKey)).risk).toMatchObject({
      lane: 'high',
      requiredApprovals: 2,
    });
    await gw.approve(ORG, reopen.idempotencyKey, APPROVER_1);
    await gw.approve(ORG, reopen.idempotencyKey, APPROVER_2);
    await gw.result(ORG, reopen.idempotencyKey);
    // The refused key may be reused for the corrected write once the period is open again.
    await gw.submit(late);
    expect((await gw.result(ORG, late.idempotencyKey)).outcome).toBe('applied');
  });
});

describe('refusals: typed, with the issue path, nothing written', () => {
  it('a hallucinated vendor id is refused naming the id', async () => {
    const before = await entries();
    const w: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('bill'),
      submitter: agent(key('agent')),
      kind: 'bill.post',
      payload: {
        vendorId: 'ven-does-not-exist',
        billNumber: 'INV-1',
        billDate: '2025-03-03',
        currency: 'USD',
        lines: [{ description: 'paper', amountMinor: '1200' }],
      },
    };
    await gw.submit(w);
    const err = await refusal(gw.result(ORG, w.idempotencyKey));
    expect(err.type).toBe('UnknownEntity');
    expect(err.message).toBe(
      `Unknown id(s) in org ${ORG}: vendor ven-does-not-exist (payload.vendorId)`,
    );
    expect(err.issues).toEqual([
      { path: 'payload.vendorId', message: `unknown vendor id ven-does-not-exist in org ${ORG}` },
    ]);
    expect(await entries()).toBe(before);
    expect(
      await getSubmission(database.db, gatewayWorkflowId(ORG, w.idempotencyKey)),
    ).toBeUndefined();
    const trail = await auditTrail(
      database.db,
      ORG,
      'gateway_submission',
      gatewayWorkflowId(ORG, w.idempotencyKey),
    );
    expect(trail.map((t) => [t.event, (t.payload as { type: string }).type])).toEqual([
      ['refused', 'UnknownEntity'],
    ]);
  });

  it('an unknown account (or one of another org) is refused at its line', async () => {
    const w = journalPost({
      lines: [
        { accountId: acc('6200'), debit: '5' },
        { accountId: acc('1010', OTHER_ORG), credit: '5' },
      ],
    });
    await gw.submit(w);
    const err = await refusal(gw.result(ORG, w.idempotencyKey));
    expect(err.type).toBe('UnknownEntity');
    expect(err.issues.map((i) => i.path)).toEqual(['payload.lines.1.accountId']);
  });

  it('wrong currency and negative amounts are refused in the client with zod paths, starting nothing', async () => {
    const w = journalPost({
      lines: [
        { accountId: acc('6200'), currency: 'usd', debit: '5' },
        { accountId: acc('1010'), credit: '-5' },
      ],
    });
    const err = await gw.submit(w).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).issues.map((i) => i.path)).toEqual([
      'payload.lines.0.currency',
      'payload.lines.1.credit',
    ]);
    await expect(
      worker.client.workflow.getHandle(gatewayWorkflowId(ORG, w.idempotencyKey)).describe(),
    ).rejects.toThrow(/not found/i);
  });

  it('an unbalanced or float-valued entry is refused by schema', async () => {
    const unbalanced = journalPost({
      lines: [
        { accountId: acc('6200'), debit: '5' },
        { accountId: acc('1010'), credit: '4' },
      ],
    });
    const e1 = (await gw.submit(unbalanced).catch((e: unknown) => e)) as InvalidRequestError;
    expect(e1.issues).toEqual([
      {
        path: 'payload.lines',
        message: 'the entry does not balance in USD: debits minus credits = 1',
      },
    ]);
    const floats = journalPost();
    (floats.payload as { lines: { debit?: unknown }[] }).lines[0]!.debit = 12.5;
    const e2 = (await gw.submit(floats).catch((e: unknown) => e)) as InvalidRequestError;
    expect(e2.issues.map((i) => i.path)).toContain('payload.lines.0.debit');
  });

  it('a user without a submitting role, and an agent outside its allowed workflows, are refused', async () => {
    const w = journalPost({ submitter: { kind: 'user', userId: APPROVER_1 } });
    await gw.submit(w);
    expect((await refusal(gw.result(ORG, w.idempotencyKey))).type).toBe('WriteNotPermitted');
    const pay: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('pay'),
      // The submission claims payment.send; the stored record says journal.post only.
      submitter: { ...agent(key('agent'), POSTING_AGENT), allowedWorkflows: ['payment.send'] },
      kind: 'payment.send',
      payload: {
        vendorId: 'v',
        fromBankAccountId: 'b',
        amountMinor: '5',
        currency: 'USD',
        paymentDate: '2025-03-03',
      },
    };
    await gw.submit(pay);
    const err = await refusal(gw.result(ORG, pay.idempotencyKey));
    expect(err.type).toBe('WriteNotPermitted');
    expect(err.message).toMatch(/may not submit payment\.send; allowed: journal\.post$/);
  });

  it('a payment in a currency the accounts do not hold is a CurrencyMismatch', async () => {
    const bank: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('bank'),
      submitter: { kind: 'user', userId: OWNER },
      kind: 'bank_account.create',
      payload: {
        bankAccountId: 'bank-op-usd',
        details: { holderName: 'Acme', accountNumber: '12345678', currency: 'USD' },
        ledgerAccountId: acc('1010'),
      },
    };
    await gw.submit(bank);
    await gw.settle(ORG, bank.idempotencyKey);
    await gw.approve(ORG, bank.idempotencyKey, APPROVER_1);
    await gw.result(ORG, bank.idempotencyKey);
    const ven: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('ven'),
      submitter: { kind: 'user', userId: CLERK },
      kind: 'vendor.create',
      payload: {
        vendorId: 'ven-eur',
        name: 'Euro GmbH',
        email: 'billing@example.com',
        bankAccount: { holderName: 'Euro GmbH', iban: 'DE89370400440532013000', currency: 'EUR' },
      },
    };
    await gw.submit(ven);
    const v = await gw.settle(ORG, ven.idempotencyKey);
    expect(v.risk?.rules.map((r) => r.rule)).toContain('placeholder_contact_data');
    await gw.approve(ORG, ven.idempotencyKey, APPROVER_1);
    await gw.approve(ORG, ven.idempotencyKey, APPROVER_2);
    await gw.result(ORG, ven.idempotencyKey);
    const dry = await gw.submit(
      {
        orgId: ORG,
        idempotencyKey: key('pay'),
        submitter: { kind: 'user', userId: OWNER },
        kind: 'payment.send',
        payload: {
          vendorId: 'ven-eur',
          fromBankAccountId: 'bank-op-usd',
          amountMinor: '500',
          currency: 'USD',
          paymentDate: '2025-03-04',
        },
      },
      { dryRun: true },
    );
    expect(dry).toMatchObject({
      valid: false,
      refusal: {
        type: 'CurrencyMismatch',
        issues: [{ path: 'payload.currency', message: 'the payee account holds EUR' }],
      },
    });
  });
});

describe('dry run', () => {
  it('a bill asking to be paid to another IBAN than the vendor’s stored one fires the payee-change rule', async () => {
    const ven: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('ven-iban'),
      submitter: { kind: 'user', userId: CLERK },
      kind: 'vendor.create',
      payload: {
        vendorId: 'ven-iban',
        name: 'Iban Lieferant GmbH',
        email: 'billing@iban-lieferant.example.com',
        bankAccount: {
          holderName: 'Iban Lieferant GmbH',
          iban: 'DE89370400440532013000',
          currency: 'USD',
        },
      },
    };
    await gw.submit(ven);
    await gw.settle(ORG, ven.idempotencyKey);
    await gw.approve(ORG, ven.idempotencyKey, APPROVER_1);
    await gw.approve(ORG, ven.idempotencyKey, APPROVER_2);
    await gw.result(ORG, ven.idempotencyKey);
    const bill = (payeeIban: string) =>
      gw.submit(
        {
          orgId: ORG,
          idempotencyKey: key('bill-iban'),
          submitter: { kind: 'user', userId: CLERK },
          kind: 'bill.post',
          payload: {
            vendorId: 'ven-iban',
            billNumber: `INV-${payeeIban.slice(-4)}`,
            billDate: '2025-03-04',
            currency: 'USD',
            payeeIban,
            lines: [{ description: 'paper', amountMinor: '1200' }],
          },
        },
        { dryRun: true },
      );
    const same = await bill('DE89370400440532013000');
    expect(same.valid).toBe(true);
    expect(same.risk?.rules.map((r) => r.rule)).not.toContain('payee_bank_details_changed');
    const other = await bill('DE02120300000000202051');
    expect(other.valid).toBe(true);
    expect(other.lane).toBe('high');
    expect(other.risk?.rules.map((r) => r.rule)).toContain('payee_bank_details_changed');
  });

  it('returns validation, risk, lane and the entries, changing nothing', async () => {
    const before = await entries();
    const tb = await trialBalance(database.db, ORG);
    const w = journalPost({
      amount: '600000',
      lines: [
        { accountId: acc('6300'), debit: '600000' },
        { accountId: acc('1010'), credit: '600000' },
      ],
      entryDate: '2025-07-01',
    });
    const dry = await gw.submit(w, { dryRun: true });
    expect(dry.valid).toBe(true);
    expect(dry.lane).toBe('moderate');
    expect(dry.risk?.rules.map((r) => r.rule)).toEqual(['amount_at_or_above_moderate_threshold']);
    expect(dry.entries[0]?.lines).toEqual([
      { accountId: acc('6300'), currency: 'USD', debit: '600000', credit: '0', memo: null },
      { accountId: acc('1010'), currency: 'USD', debit: '0', credit: '600000', memo: null },
    ]);
    expect(await entries()).toBe(before);
    expect(await trialBalance(database.db, ORG)).toEqual(tb);
    expect(
      await getSubmission(database.db, gatewayWorkflowId(ORG, w.idempotencyKey)),
    ).toBeUndefined();
    await expect(
      worker.client.workflow.getHandle(gatewayWorkflowId(ORG, w.idempotencyKey)).describe(),
    ).rejects.toThrow(/not found/i);
    const periods = await database.pool.query(
      `select count(*)::int as n from fiscal_periods where period = '2025-07'`,
    );
    expect(periods.rows[0].n).toBe(0);
  });
});
