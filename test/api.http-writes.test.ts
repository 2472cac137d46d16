// The HTTP API carrying writes and analyses: submission, approval and review as the
// authenticated caller, agent keys, decisions sent around the API straight to Temporal, and
// asynchronous answers. Its edge (keys, input bounds, headers) is in api.http-boundary.test.ts.
import { accountId } from '../db/ledger/default-chart';
import { gatewayWorkflowId, approvalUpdate } from '../workflows/gateway.contract';
import { analysisWorkflowId, reviewUpdate } from '../workflows/analysis.contract';
import { signDecisionProof } from '../activities/identity/secrets';
import { decisionSecret } from '../activities/identity/decision-secret';
import { testConfig } from './support/worker';
import { ORG } from './support/fixtures';
import {
  AGENT,
  APPROVER,
  CLERK,
  GINA,
  RITA,
  base,
  call,
  database,
  planOf,
  post,
  startHttpApi,
  stopHttpApi,
  worker,
} from './api.fixtures';

beforeAll(startHttpApi);
afterAll(stopHttpApi);

describe('HTTP API', () => {
  it('submits through the same gateway as the caller; the approver signs; the books balance', async () => {
    const dry = await call(
      'POST',
      `/v1/orgs/${ORG}/writes?dryRun=true`,
      CLERK,
      post('http-1', '2500'),
    );
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ risk: { lane: 'moderate' } });
    const sub = await call('POST', `/v1/orgs/${ORG}/writes`, CLERK, post('http-1', '2500'));
    expect(sub.status).toBe(202);
    expect(sub.body).toMatchObject({
      started: true,
      joined: false,
      state: { status: 'awaiting_approval' },
    });
    // The same write again joins it; the same key with another payload is a 409.
    const again = await call('POST', `/v1/orgs/${ORG}/writes`, CLERK, post('http-1', '2500'));
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ started: false, joined: true });
    const reuse = await call('POST', `/v1/orgs/${ORG}/writes`, CLERK, post('http-1', '2600'));
    expect(reuse.status).toBe(409);
    expect(reuse.body.error).toMatchObject({
      type: 'IdempotencyConflict',
      issues: [{ path: 'idempotencyKey', message: 'already used for a different write' }],
    });
    // The clerk submitted it: the clerk cannot sign it, whatever the body says.
    const self = await call('POST', `/v1/orgs/${ORG}/writes/http-1/decisions`, CLERK, {
      decision: 'approve',
      ...(await planOf('http-1')),
    });
    expect(self.body.error?.type).toMatch(/SelfApproval|ApproverNotAuthorized/);
    const ok = await call('POST', `/v1/orgs/${ORG}/writes/http-1/decisions`, APPROVER, {
      decision: 'approve',
      ...(await planOf('http-1')),
    });
    expect(ok.status).toBe(200);
    let state = await call('GET', `/v1/orgs/${ORG}/writes/http-1`, CLERK);
    for (let i = 0; i < 50 && state.body.status !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = await call('GET', `/v1/orgs/${ORG}/writes/http-1`, CLERK);
    }
    expect(state.body).toMatchObject({ status: 'completed', result: { outcome: 'applied' } });
    const tb = await call('GET', `/v1/orgs/${ORG}/trial-balance`, APPROVER);
    expect(tb.body.totals).toEqual([
      { currency: 'USD', debits: '2500', credits: '2500', net: '0' },
    ]);
  });

  it('runs an analysis and takes a review as the authenticated reviewer', async () => {
    // The clerk asks; the reviewer, another person, reviews (four eyes: see the next test).
    const started = await call('POST', `/v1/orgs/${ORG}/analyses`, CLERK, {
      request: {
        requestId: 'http-a1',
        docIds: ['northwind-2024-10k'],
        queryType: 'risk_flag',
        queryText: 'Going concern or liquidity concerns?',
      },
    });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      state: { machineState: 'HUMAN_REVIEW', status: 'awaiting_review' },
    });
    const byClerk = await call('POST', `/v1/orgs/${ORG}/analyses/http-a1/review`, CLERK, {
      decision: 'approve',
    });
    expect(byClerk.body.error?.type).toBe('ReviewerNotAuthorized');
    const byRita = await call('POST', `/v1/orgs/${ORG}/analyses/http-a1/review`, RITA, {
      decision: 'approve',
    });
    expect(byRita.body).toEqual({ accepted: true, outcome: 'approved' });
    expect((await call('GET', `/v1/orgs/${ORG}/analyses/http-a1`, RITA)).body).toMatchObject({
      review: { decision: 'approve', reviewer: 'rita' },
    });
  });

  it('refuses a review by the person who requested the analysis', async () => {
    const started = await call('POST', `/v1/orgs/${ORG}/analyses`, RITA, {
      request: {
        requestId: 'http-a-self',
        docIds: ['northwind-2024-10k'],
        queryType: 'risk_flag',
        queryText: 'Going concern or liquidity concerns?',
      },
    });
    expect(started.body).toMatchObject({ state: { status: 'awaiting_review' } });
    const self = await call('POST', `/v1/orgs/${ORG}/analyses/http-a-self/review`, RITA, {
      decision: 'approve',
    });
    expect(self.status).toBe(403);
    expect(self.body.error).toMatchObject({
      type: 'SelfReview',
      message: 'User rita requested this analysis and may not review it',
    });
    expect((await call('GET', `/v1/orgs/${ORG}/analyses/http-a-self`, RITA)).body).toMatchObject({
      status: 'awaiting_review',
    });
  });

  it('an agent key submits as the agent of its record; its operator cannot sign; it cannot decide', async () => {
    // 6900 is new to the books: a first posting, moderate lane.
    const w = {
      idempotencyKey: 'http-agent-1',
      kind: 'journal.post',
      agentInstanceId: 'run-42',
      payload: {
        entryDate: '2026-11-30',
        memo: 'agent posting',
        lines: [
          { accountId: accountId(ORG, '6900'), currency: 'USD', debit: '300' },
          { accountId: accountId(ORG, '1010'), currency: 'USD', credit: '300' },
        ],
      },
    };
    const sub = await call('POST', `/v1/orgs/${ORG}/writes`, AGENT, w);
    expect(sub.status).toBe(202);
    expect(sub.body).toMatchObject({ started: true, state: { status: 'awaiting_approval' } });
    // clerk operates posting_bot: clerk may not approve its write.
    const byOperator = await call('POST', `/v1/orgs/${ORG}/writes/http-agent-1/decisions`, CLERK, {
      decision: 'approve',
      ...(await planOf('http-agent-1')),
    });
    expect(byOperator.body.error?.type).toBe('SelfApproval');
    const byAgent = await call('POST', `/v1/orgs/${ORG}/writes/http-agent-1/decisions`, AGENT, {
      decision: 'approve',
      ...(await planOf('http-agent-1')),
    });
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.error?.type).toBe('AgentCannotDecide');
    // Outside its stored permissions: refused, whatever a body might claim.
    const pay = await call('POST', `/v1/orgs/${ORG}/writes`, AGENT, {
      idempotencyKey: 'http-agent-2',
      kind: 'payment.send',
      payload: {
        vendorId: 'v',
        fromBankAccountId: 'b',
        amountMinor: '5',
        currency: 'USD',
        paymentDate: '2026-11-30',
      },
    });
    // A permission refusal is a 403 (it was a 422 before the problem+json API).
    expect(pay.status).toBe(403);
    expect(pay.body.error).toMatchObject({
      type: 'WriteNotPermitted',
      message: expect.stringMatching(
        /^Agent posting_bot \(key:[0-9a-f]{16}\) may not submit payment\.send; allowed: journal\.post$/,
      ),
    });
    // The agent key acts only in its own org.
    expect((await call('GET', `/v1/orgs/globex/trial-balance`, AGENT)).body.error?.type).toBe(
      'NotAMember',
    );
  });

  it('a cross-org approver is refused before anything reaches the workflow', async () => {
    const r = await call('POST', `/v1/orgs/${ORG}/writes/http-1/decisions`, GINA, {
      decision: 'approve',
      ...(await planOf('http-1')),
    });
    expect(r.status).toBe(403);
    expect(r.body.error?.type).toBe('NotAMember');
  });

  it('an approval sent straight to Temporal with a forged or borrowed proof is refused', async () => {
    // A first posting to 6700: moderate lane, one approval.
    const w = post('http-direct', '2500');
    w.payload.lines[0]!.accountId = accountId(ORG, '6700');
    const sub = await call('POST', `/v1/orgs/${ORG}/writes`, CLERK, w);
    expect(sub.body).toMatchObject({ state: { status: 'awaiting_approval' } });
    const id = gatewayWorkflowId(ORG, 'http-direct');
    const handle = worker.client.workflow.getHandle(id);
    const plan = await planOf('http-direct');
    const approve = (proof: string) =>
      handle.executeUpdate(approvalUpdate, {
        args: [
          { decision: 'approve', approver: { userId: 'approver', orgId: ORG }, ...plan, proof },
        ],
      });
    const failureOf = async (p: Promise<unknown>) => {
      const err = (await p.catch((e: unknown) => e)) as {
        cause?: { type?: string; message?: string };
      };
      return { type: err.cause?.type, message: err.cause?.message };
    };
    const secret = decisionSecret(testConfig(database));
    const claims = {
      purpose: 'approval' as const,
      orgId: ORG,
      subjectId: id,
      userId: 'approver',
      decision: 'approve' as const,
      // As the API signs it: with the roles it found (the Update's validator reads them).
      roles: ['approver'],
      ...plan,
    };
    expect(
      await failureOf(approve(signDecisionProof('not-the-server-secret-'.repeat(2), claims))),
    ).toEqual({
      type: 'DecisionProofInvalid',
      message: 'Decision proof refused (bad_signature): the proof is not signed by this platform',
    });
    expect(
      await failureOf(
        approve(
          signDecisionProof(secret, { ...claims, subjectId: gatewayWorkflowId(ORG, 'http-1') }),
        ),
      ),
    ).toMatchObject({
      type: 'DecisionProofInvalid',
      message: expect.stringMatching(/\(mismatch\): the proof is for subjectId/),
    });
    expect(
      await failureOf(approve(signDecisionProof(secret, claims, 60_000, Date.now() - 120_000))),
    ).toMatchObject({
      type: 'DecisionProofInvalid',
      message: expect.stringMatching(/^Decision proof refused \(expired\)/),
    });
    expect(
      await failureOf(approve(signDecisionProof(secret, { ...claims, userId: 'rita' }))),
    ).toMatchObject({
      type: 'DecisionProofInvalid',
      message: expect.stringMatching(/the proof is for userId "rita", not "approver"/),
    });
    expect(
      await failureOf(
        handle.executeUpdate(approvalUpdate, {
          args: [{ decision: 'approve', approver: { userId: 'approver', orgId: ORG }, ...plan }],
        }),
      ),
    ).toMatchObject({ type: 'DecisionProofInvalid' });
    // None of it counted; the real approver through the API still can.
    expect((await call('GET', `/v1/orgs/${ORG}/writes/http-direct`, CLERK)).body).toMatchObject({
      votes: [],
    });
    const ok = await call('POST', `/v1/orgs/${ORG}/writes/http-direct/decisions`, APPROVER, {
      decision: 'approve',
      ...(await planOf('http-direct')),
    });
    expect(ok.body).toEqual({ accepted: true, approvals: 1, required: 1 });
  });

  it('a review sent straight to Temporal without the platform’s proof is refused', async () => {
    // Asked by the clerk, so rita (the reviewer the proofs name) is not its requester.
    const started = await call('POST', `/v1/orgs/${ORG}/analyses`, CLERK, {
      request: {
        requestId: 'http-a2',
        docIds: ['northwind-2024-10k'],
        queryType: 'risk_flag',
        queryText: 'Going concern or liquidity concerns?',
      },
    });
    expect(started.body).toMatchObject({ state: { status: 'awaiting_review' } });
    const id = analysisWorkflowId(ORG, 'http-a2');
    const handle = worker.client.workflow.getHandle(id);
    const review = (proof?: string) =>
      handle
        .executeUpdate(reviewUpdate, {
          args: [
            {
              decision: 'approve',
              reviewer: { userId: 'rita', orgId: ORG },
              corrections: [],
              ...(proof ? { proof } : {}),
            },
          ],
        })
        .catch((e: unknown) => (e as { cause?: { type?: string; message?: string } }).cause);
    expect(await review()).toMatchObject({ type: 'DecisionProofInvalid' });
    const forged = signDecisionProof('a-secret-the-attacker-made-up-0000', {
      purpose: 'review',
      orgId: ORG,
      subjectId: id,
      userId: 'rita',
      decision: 'approve',
    });
    expect(await review(forged)).toMatchObject({
      type: 'DecisionProofInvalid',
      message: 'Decision proof refused (bad_signature): the proof is not signed by this platform',
    });
    // A real proof for a gateway approval is not a review proof.
    const secret = decisionSecret(testConfig(database));
    const approvalProof = signDecisionProof(secret, {
      purpose: 'approval',
      orgId: ORG,
      subjectId: id,
      userId: 'rita',
      decision: 'approve',
    });
    expect(await review(approvalProof)).toMatchObject({
      type: 'DecisionProofInvalid',
      message:
        'Decision proof refused (mismatch): the proof is for purpose "approval", not "review"',
    });
    expect((await call('GET', `/v1/orgs/${ORG}/analyses/http-a2`, RITA)).body).toMatchObject({
      review: { open: true, decision: null },
    });
  });

  it('answers at once with the run’s address when asked to (Prefer: respond-async)', async () => {
    const res = await fetch(`${base}/v1/orgs/${ORG}/writes`, {
      method: 'POST',
      headers: { ...CLERK, 'content-type': 'application/json', prefer: 'respond-async' },
      body: JSON.stringify(post('http-async', '40')),
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/v1/orgs/${ORG}/writes/http-async`);
    expect(await res.json()).toMatchObject({ started: true, state: null });
    // The address answers; waiting there is the workflow's own settled Update, not a poll.
    const state = await call('GET', res.headers.get('location') as string, CLERK);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ submissionId: gatewayWorkflowId(ORG, 'http-async') });
  });
});
