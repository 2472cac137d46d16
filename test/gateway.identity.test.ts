import fc from 'fast-check';
import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import { waitFor } from './support/wait';
import type { Database } from '../db/connection';
import { GatewayClient, IdempotencyConflictError } from '../client/gateway-client';
import { InvalidRequestError } from '../client/errors';
import { auditTrail } from '../db/repositories/audit';
import { countEntries } from '../db/repositories/ledger';
import {
  approvalUpdate,
  gatewayWorkflowId,
  type GatewayWriteInput,
  type SignedApprovalDecision,
} from '../workflows/gateway.contract';
import { defaultPayloadConverter } from '@temporalio/common';
import {
  APPROVER_1,
  APPROVER_2,
  CLERK,
  ORG,
  OWNER,
  acc,
  directGateway,
  journalPost,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * Approved means applied as approved; a key names one write; hostile writes start nothing.
 * Real dev server, real worker. (Outages during the apply: test/faults/gateway.outage.test.ts.)
 */
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

/** Through the apply layer: an org bank account to pay from and a vendor with bank details. */
async function payableVendor(vendorId: string): Promise<void> {
  const g = directGateway(database.db);
  for (const w of [
    {
      orgId: ORG,
      idempotencyKey: key('bank'),
      submitter: { kind: 'user', userId: OWNER },
      kind: 'bank_account.create',
      payload: {
        bankAccountId: `bank-op-${vendorId}`,
        details: { holderName: 'Acme', accountNumber: '12345678', currency: 'USD' },
        ledgerAccountId: acc('1010'),
      },
    },
    {
      orgId: ORG,
      idempotencyKey: key('ven'),
      submitter: { kind: 'user', userId: CLERK },
      kind: 'vendor.create',
      payload: {
        vendorId,
        name: 'Paper Co',
        email: 'ap@paperco.com',
        bankAccount: { holderName: 'Paper Co', accountNumber: '11112222', currency: 'USD' },
      },
    },
  ] as GatewayWriteInput[]) {
    const ev = await g.evaluate(w);
    for (const u of [APPROVER_1, APPROVER_2].slice(0, ev.risk.requiredApprovals))
      await g.vote(ev.submissionId, u, 'approve');
    await g.apply(ev.submissionId);
  }
}

const handleOf = (w: GatewayWriteInput) =>
  worker.client.workflow.getHandle(gatewayWorkflowId(w.orgId, w.idempotencyKey));

/** An approval Update as the history holds it (decision, plan and proof), for one approver. */
async function liftedApproval(
  w: GatewayWriteInput,
  userId: string,
): Promise<SignedApprovalDecision> {
  const history = await handleOf(w).fetchHistory();
  for (const e of history.events ?? []) {
    const input = e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
    if (input?.name !== approvalUpdate.name) continue;
    const [arg] = (input.args?.payloads ?? []).map((p) =>
      defaultPayloadConverter.fromPayload<SignedApprovalDecision>(p),
    );
    if (arg?.approver.userId === userId && arg.proof) return arg;
  }
  throw new Error(`no approval by ${userId} in the history`);
}

describe('approved means applied as approved', () => {
  it('a payee bank account changed between the approvals and the apply sends the payment back for approval', async () => {
    const vendorId = `ven-${key('pc')}`;
    await payableVendor(vendorId);
    const pay: GatewayWriteInput = {
      orgId: ORG,
      idempotencyKey: key('pay'),
      submitter: { kind: 'user', userId: OWNER },
      kind: 'payment.send',
      payload: {
        vendorId,
        fromBankAccountId: `bank-op-${vendorId}`,
        amountMinor: '5000',
        currency: 'USD',
        paymentDate: '2025-03-20',
      },
    };
    await gw.submit(pay);
    const first = await gw.settle(ORG, pay.idempotencyKey);
    expect(first).toMatchObject({
      status: 'awaiting_approval',
      revision: 0,
      risk: { lane: 'high', requiredApprovals: 2 },
      payee: { holderName: 'Paper Co', accountNumber: '11112222' },
    });
    await gw.approve(ORG, pay.idempotencyKey, APPROVER_1);
    // Between the votes, the vendor's bank details change (through the gateway, approved).
    const g = directGateway(database.db);
    const change = await g.evaluate({
      orgId: ORG,
      idempotencyKey: key('vu'),
      submitter: { kind: 'user', userId: CLERK },
      kind: 'vendor.update',
      payload: {
        vendorId,
        changes: {
          bankAccount: { holderName: 'Paper Co', accountNumber: '99998888', currency: 'USD' },
        },
      },
    });
    for (const u of [APPROVER_1, APPROVER_2].slice(0, change.risk.requiredApprovals))
      await g.vote(change.submissionId, u, 'approve');
    await g.apply(change.submissionId);
    const before = await countEntries(database.db, ORG);
    await gw.approve(ORG, pay.idempotencyKey, APPROVER_2);
    // The apply found another payee than the one approved: back to approval, revision 1.
    const second = await waitFor(
      () => gw.state(ORG, pay.idempotencyKey),
      (v) => v.status === 'awaiting_approval' && v.revision === 1,
    );
    expect(second.payee).toMatchObject({ accountNumber: '99998888' });
    expect(second.planHash).not.toBe(first.planHash);
    expect(second.risk?.lane).toBe('high');
    expect(second.risk?.requiredApprovals).toBe(2);
    expect(await countEntries(database.db, ORG)).toBe(before);
    // Issue 25 item 6: a page still showing revision 0 cannot approve revision 1. The vote is
    // refused before history, naming the plan that is current.
    // Idle: the new revision's inbox entry opened and its approval timer started.
    let historyBefore = 0;
    for (let i = 0; i < 200 && !historyBefore; i++) {
      const events = (await handleOf(pay).fetchHistory()).events ?? [];
      if (events.at(-1)?.timerStartedEventAttributes) historyBefore = events.length;
      else await new Promise((r) => setTimeout(r, 300));
    }
    await expect(
      gw.decide(ORG, pay.idempotencyKey, {
        decision: 'approve',
        approver: { userId: APPROVER_1, orgId: ORG },
        revision: first.revision,
        planHash: first.planHash ?? '',
      }),
    ).rejects.toMatchObject({
      type: 'StalePlanRevision',
      message: `The decision is for plan revision 0 (hash ${first.planHash}); the current plan is revision 1 (hash ${second.planHash}): review it and decide again`,
    });
    // Nor can a proof read from history: APPROVER_1's signed vote on revision 0, sent again
    // as it was, or relabelled with the current plan.
    const lifted = await liftedApproval(pay, APPROVER_1);
    for (const args of [
      lifted,
      { ...lifted, revision: second.revision, planHash: second.planHash ?? '' },
    ])
      await expect(
        handleOf(pay).executeUpdate(approvalUpdate, { args: [args] }),
      ).rejects.toMatchObject({
        cause: { type: expect.stringMatching(/^(StalePlanRevision|DecisionProofInvalid)$/) },
      });
    expect((await handleOf(pay).fetchHistory()).events?.length).toBe(historyBefore);
    // The old approvals do not carry over; the same people approve the new plan.
    await gw.approve(ORG, pay.idempotencyKey, APPROVER_1);
    await gw.approve(ORG, pay.idempotencyKey, APPROVER_2);
    const r = await gw.result(ORG, pay.idempotencyKey);
    expect(r.outcome).toBe('applied');
    expect(r.votes.map((v) => [v.userId, v.revision])).toEqual([
      [APPROVER_1, 0],
      [APPROVER_2, 0],
      [APPROVER_1, 1],
      [APPROVER_2, 1],
    ]);
    const { rows } = await database.pool.query<{ account_number: string }>(
      `select b.account_number from payments p join bank_accounts b on b.id = p.payee_bank_account_id where p.submission_id = $1`,
      [r.submissionId],
    );
    expect(rows).toEqual([{ account_number: '99998888' }]);
    const trail = await auditTrail(database.db, ORG, 'gateway_submission', r.submissionId);
    // Every step is on the org's hash chain, written by the database in its own transaction:
    // the votes on revision 0, the new revision, the votes on it, the apply.
    expect(trail.map((t) => [t.event, t.idempotencyKey])).toEqual([
      ['submitted', `${r.submissionId}:submitted`],
      ['vote', `${r.submissionId}:vote:${APPROVER_1}`],
      ['vote', `${r.submissionId}:vote:${APPROVER_2}`],
      ['replanned:1', `${r.submissionId}:replanned:1`],
      ['vote', `${r.submissionId}:vote:1:${APPROVER_1}`],
      ['vote', `${r.submissionId}:vote:1:${APPROVER_2}`],
      ['applied', `${r.submissionId}:applied`],
    ]);
    expect(trail[3]?.payload).toMatchObject({
      from: { revision: 0, planHash: first.planHash },
      to: { revision: 1, planHash: second.planHash },
    });
    // "Who signed it" names the votes on the revision that was applied, not the voided ones.
    const signed = await database.pool.query<{ approver_user_id: string; same: boolean }>(
      `select a.approver_user_id, a.decided_at = v.decided_at as same
         from gateway_approvals a
         join gateway_plan_votes v on v.submission_id = a.submission_id
                                  and v.approver_user_id = a.approver_user_id and v.revision = 1
        where a.submission_id = $1 order by 1`,
      [r.submissionId],
    );
    expect(signed.rows).toEqual(
      [APPROVER_1, APPROVER_2].sort().map((u) => ({ approver_user_id: u, same: true })),
    );
  });

  it('a plan revision and a vote are append-only in the database', async () => {
    // The runtime role (the platform's connection) holds no UPDATE or DELETE on them ...
    for (const [table, stmt] of [
      ['gateway_plan_votes', `update gateway_plan_votes set decision = 'approve'`],
      ['gateway_plan_votes', `delete from gateway_plan_votes`],
      ['gateway_plan_revisions', `update gateway_plan_revisions set plan_hash = 'x'`],
      ['gateway_plan_revisions', `delete from gateway_plan_revisions`],
    ] as const) {
      const err = (await database.pool.query(stmt).catch((e: unknown) => e)) as {
        code?: string;
        message: string;
      };
      expect({ code: err.code, message: err.message }).toEqual({
        code: '42501',
        message: `permission denied for table ${table}`,
      });
    }
    // ... and even the owner is refused by the trigger.
    const owner = new PgClient({ connectionString: database.ownerUrl });
    await owner.connect();
    try {
      const err = (await owner
        .query(`update gateway_plan_votes set decision = 'approve'`)
        .catch((e: unknown) => e)) as { code?: string; message: string };
      expect(err.code).toBe('23000');
      expect(err.message).toBe('gateway_plan_votes is append-only: UPDATE refused');
    } finally {
      await owner.end();
    }
  });
});

describe('one idempotency key, one write', () => {
  it('a resubmission joins; another payload under the same key is refused, running or finished', async () => {
    const w = journalPost({
      lines: [
        { accountId: acc('6400'), debit: '10' },
        { accountId: acc('1010'), credit: '10' },
      ],
    });
    expect(await gw.submit(w)).toMatchObject({ started: true, joined: false });
    expect(await gw.submit(w)).toMatchObject({ started: false, joined: true });
    await gw.settle(ORG, w.idempotencyKey);
    const other = { ...w, payload: { ...(w.payload as object), memo: 'something else' } };
    const err = await gw.submit(other).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IdempotencyConflictError);
    expect(err).toMatchObject({ type: 'IdempotencyConflict' });
    await gw.approve(ORG, w.idempotencyKey, APPROVER_1);
    expect((await gw.result(ORG, w.idempotencyKey)).outcome).toBe('applied');
    expect(await gw.submit(w)).toMatchObject({ started: false, joined: true });
    await expect(gw.submit(other)).rejects.toBeInstanceOf(IdempotencyConflictError);
  });
});

describe('hostile writes through the client start nothing', () => {
  it('refuses them as InvalidRequestError with issue paths; no workflow exists afterwards', async () => {
    const memo = (v: unknown) => (p: Record<string, unknown>) => ({ ...p, memo: v });
    const hostile = fc.constantFrom(
      memo('a\u0000b'),
      memo('\ud800'),
      memo(JSON.parse('{"__proto__":{"x":1}}') as unknown),
      (p: Record<string, unknown>) => ({ ...p, entryDate: '0000-01-01' }),
      (p: Record<string, unknown>) => ({ ...p, entryDate: '2201-01-01' }),
      (p: Record<string, unknown>) => ({
        ...p,
        lines: [
          { accountId: acc('6200'), currency: 'USD', debit: '1000000000000000' },
          { accountId: acc('1010'), currency: 'USD', credit: '1000000000000000' },
        ],
      }),
      (p: Record<string, unknown>) => {
        let deep: unknown = 'x';
        for (let i = 0; i < 40; i++) deep = { d: deep };
        return { ...p, memo: deep };
      },
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (mutate) => {
        const w = journalPost({ key: key('hostile') });
        const raw = { ...w, payload: mutate(w.payload as Record<string, unknown>) };
        const err = await gw.submit(raw).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InvalidRequestError);
        expect((err as InvalidRequestError).issues.length).toBeGreaterThan(0);
        await expect(
          worker.client.workflow.getHandle(gatewayWorkflowId(ORG, w.idempotencyKey)).describe(),
        ).rejects.toMatchObject({ name: 'WorkflowNotFoundError' });
      }),
      { numRuns: 25 },
    );
  });
});
