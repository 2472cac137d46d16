import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Database } from '../db/connection';
import { createApiApp, createApiServer } from '../api/server';
import { ingestFile } from '../client/documents';
import { issueApiKey, revokeApiKey, upsertAgentIdentity } from '../db/repositories/credentials';
import { gatewayWorkflowId, approvalUpdate } from '../workflows/gateway.contract';
import { analysisWorkflowId, reviewUpdate } from '../workflows/analysis.contract';
import { signDecisionProof } from '../activities/identity/secrets';
import { decisionSecret } from '../activities/identity/decision-secret';
import { testConfig } from './support/worker';
import { accountId } from '../db/ledger/default-chart';
import { createTestDatabase } from './support/database';
import { ORG, OTHER_ORG, SAMPLES, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

let database: Database;
let worker: TestWorker;
let server: Server;
let base: string;
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
let CLERK: Record<string, string>;
let APPROVER: Record<string, string>;
let RITA: Record<string, string>;
let GINA: Record<string, string>;
let AGENT: Record<string, string>;
const userKey = async (userId: string, ttlDays?: number) =>
  bearer(
    (
      await issueApiKey(
        database.db,
        { kind: 'user', userId },
        { issuedBy: 'test', orgId: userId === 'gina' ? OTHER_ORG : ORG, ttlDays },
      )
    ).key,
  );

/** The plan a write's state shows (what a decision names). */
async function planOf(key: string): Promise<{ revision: number; planHash: string }> {
  const res = await fetch(`${base}/v1/orgs/${ORG}/writes/${key}`, { headers: APPROVER });
  const state = (await res.json()) as { revision: number; planHash: string };
  return { revision: state.revision, planHash: state.planHash };
}

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown> & {
    error?: { type: string; message: string; issues: { path: string }[] };
  };
  // Errors are problem+json: `code` is the kind, `detail` the message, `type` its stable URI.
  if (res.headers.get('content-type') === 'application/problem+json') {
    expect(json.type).toBe(
      `https://countersign.dev/problems/${String(json.code)
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .toLowerCase()}`,
    );
    expect(json.status).toBe(res.status);
    json.error = {
      type: json.code as string,
      message: json.detail as string,
      issues: json.issues as { path: string }[],
    };
  }
  return { status: res.status, body: json };
}

const post = (key: string, amount: string) => ({
  idempotencyKey: key,
  kind: 'journal.post',
  payload: {
    entryDate: '2026-11-30',
    memo: 'supplies',
    lines: [
      { accountId: accountId(ORG, '6200'), currency: 'USD', debit: amount },
      { accountId: accountId(ORG, '1010'), currency: 'USD', credit: amount },
    ],
  },
});

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await seedDefaultChart(database.db, ORG);
  await ensureUser(database.db, {
    id: 'clerk',
    email: 'clerk@acme.example',
    displayName: 'Clerk',
    orgId: ORG,
    roles: ['analyst'],
  });
  await ensureUser(database.db, {
    id: 'approver',
    email: 'approver@acme.example',
    displayName: 'Approver',
    orgId: ORG,
    roles: ['approver'],
  });
  await ensureUser(database.db, {
    id: 'gina',
    email: 'gina@globex.example',
    displayName: 'Gina Globex',
    orgId: 'globex',
    roles: ['reviewer', 'approver'],
  });
  await upsertAgentIdentity(database.db, {
    orgId: ORG,
    by: 'test-admin',
    agentId: 'posting_bot',
    operatorUserId: 'clerk',
    allowedWorkflows: ['journal.post'],
  });
  CLERK = await userKey('clerk');
  APPROVER = await userKey('approver');
  RITA = await userKey('rita');
  GINA = await userKey('gina');
  AGENT = bearer(
    (
      await issueApiKey(
        database.db,
        { kind: 'agent', orgId: ORG, agentId: 'posting_bot' },
        { issuedBy: 'test', orgId: ORG },
      )
    ).key,
  );
  worker = await startTestWorker(database);
  await ingestFile(
    { db: database.db, client: worker.client, taskQueue: worker.taskQueue },
    { orgId: ORG, path: join(SAMPLES, 'northwind-2024-10k.txt') },
  );
  server = createApiServer({ db: database.db, client: worker.client, taskQueue: worker.taskQueue });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await worker?.stop();
  await database?.close();
});

describe('HTTP API', () => {
  it('refuses a missing, malformed, forged, revoked or expired key, and a user of another org', async () => {
    const tb = `/v1/orgs/${ORG}/trial-balance`;
    expect((await call('GET', tb, {})).body.error?.type).toBe('Unauthenticated');
    // The old "user:token" scheme is gone: a name and a password-like token prove nothing.
    expect(
      (await call('GET', tb, { authorization: 'Bearer clerk:clerk-token' })).body.error,
    ).toMatchObject({
      type: 'Unauthenticated',
      message: 'The key is not a Countersign API key (csk_…)',
    });
    // A well-formed key with the right id but another secret.
    const real = CLERK.authorization as string;
    const forged = `${real.slice(0, -43)}${'A'.repeat(43)}`;
    expect((await call('GET', tb, { authorization: forged })).body.error?.message).toBe(
      'Unknown key',
    );
    const revoked = await issueApiKey(
      database.db,
      { kind: 'user', userId: 'clerk' },
      { issuedBy: 'test', orgId: ORG },
    );
    expect((await call('GET', tb, bearer(revoked.key))).status).toBe(200);
    expect(await revokeApiKey(database.db, revoked.keyId, 'test')).toBe(true);
    expect((await call('GET', tb, bearer(revoked.key))).body.error).toMatchObject({
      type: 'Unauthenticated',
      message: 'The key was revoked',
    });
    const old = await issueApiKey(
      database.db,
      { kind: 'user', userId: 'clerk' },
      { issuedBy: 'test', orgId: ORG, ttlDays: 1, now: new Date(Date.now() - 2 * 86_400_000) },
    );
    expect((await call('GET', tb, bearer(old.key))).body.error).toMatchObject({
      type: 'Unauthenticated',
      message: 'The key has expired',
    });
    const other = await call('GET', tb, GINA);
    expect(other.status).toBe(403);
    expect(other.body.error).toMatchObject({
      type: 'NotAMember',
      message: 'User gina has no role in org acme',
    });
  });

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

  it('cannot name another submitter in the body, and says which field is wrong', async () => {
    const spoof = await call('POST', `/v1/orgs/${ORG}/writes`, CLERK, {
      ...post('http-2', '10'),
      submitter: { kind: 'user', userId: 'approver' },
    });
    expect(spoof.status).toBe(400);
    expect(spoof.body.error?.message).toMatch(/submitter/);
    const bad = await call('POST', `/v1/orgs/${ORG}/writes`, CLERK, {
      ...post('http-3', '10'),
      payload: {
        ...post('x', '10').payload,
        lines: [{ accountId: 'nope', currency: 'usd', debit: '10' }],
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['payload.lines.0.currency']),
    );
    expect(
      (await call('POST', `/v1/orgs/${ORG}/writes`, CLERK, '{not json')).body.error?.type,
    ).toBe('InvalidJson');
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

  it('the session cookie is Secure behind a TLS proxy only when TRUST_PROXY says so (issue 25 item 8)', async () => {
    const apiKey = (APPROVER.authorization ?? '').replace(/^Bearer /, '');
    const setCookie = async (trustProxy: boolean) => {
      const app = createApiApp({
        db: database.db,
        client: worker.client,
        taskQueue: worker.taskQueue,
        trustProxy,
      });
      const res = await app.request('http://api.internal/v1/sessions', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
        body: JSON.stringify({ apiKey }),
      });
      expect(res.status).toBe(200);
      return res.headers.get('set-cookie') ?? '';
    };
    expect(await setCookie(true)).toMatch(/; Secure$/);
    // Not trusted: a client could send the header itself, so it decides nothing.
    expect(await setCookie(false)).not.toMatch(/Secure/);
  });

  it('a cross-org approver is refused before anything reaches the workflow', async () => {
    const r = await call('POST', `/v1/orgs/${ORG}/writes/http-1/decisions`, GINA, {
      decision: 'approve',
      ...(await planOf('http-1')),
    });
    expect(r.status).toBe(403);
    expect(r.body.error?.type).toBe('NotAMember');
  });

  it('bounds every input: depth, prototype keys, NUL, dates, amounts, durations, size', async () => {
    const writes = `/v1/orgs/${ORG}/writes`;
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    expect((await call('POST', writes, CLERK, deep)).body.error).toMatchObject({
      type: 'InvalidRequest',
      message: 'JSON nested deeper than 32 levels',
    });
    const proto = await call(
      'POST',
      writes,
      CLERK,
      '{"idempotencyKey":"p-1","kind":"__proto__","payload":{"__proto__":{"x":1}}}',
    );
    expect(proto.status).toBe(400);
    expect(proto.body.error?.issues).toEqual([
      { path: 'payload.__proto__', message: 'the key "__proto__" is not allowed' },
    ]);
    const ctor = await call('POST', writes, CLERK, { ...post('p-2', '10'), kind: 'constructor' });
    expect(ctor.status).toBe(400);
    expect(ctor.body.error?.issues.map((i) => i.path)).toEqual(['kind']);
    const nul = post('p-3', '10');
    nul.payload.memo = 'a\u0000b';
    expect((await call('POST', writes, CLERK, nul)).body.error?.issues).toEqual([
      { path: 'payload.memo', message: 'text contains a NUL character' },
    ]);
    const surrogate = post('p-4', '10');
    surrogate.payload.memo = 'x\ud800y';
    expect((await call('POST', writes, CLERK, surrogate)).body.error?.issues).toEqual([
      { path: 'payload.memo', message: 'text contains an unpaired UTF-16 surrogate' },
    ]);
    for (const [date, message] of [
      ['0000-01-01', 'a date between 1900 and 2200'],
      ['2201-01-01', 'a date between 1900 and 2200'],
    ]) {
      const w = post(`p-d-${date}`, '10');
      w.payload.entryDate = date as string;
      const r = await call('POST', writes, CLERK, w);
      expect(r.status).toBe(400);
      expect(r.body.error?.issues).toEqual([{ path: 'payload.entryDate', message }]);
    }
    const huge = await call('POST', writes, CLERK, post('p-5', '1000000000000000'));
    expect(huge.status).toBe(400);
    expect(huge.body.error?.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['payload.lines.0.debit', 'payload.lines.1.credit']),
    );
    const fast = await call('POST', writes, CLERK, {
      ...post('p-6', '10'),
      approval: { dueAfterMs: 1 },
    });
    expect(fast.status).toBe(400);
    expect(fast.body.error?.issues.map((i) => i.path)).toEqual(['approval.dueAfterMs']);
    const big = await call('POST', writes, CLERK, JSON.stringify({ x: 'y'.repeat(1_100_000) }));
    expect(big.status).toBe(413);
    const review = await call('POST', `/v1/orgs/${ORG}/analyses`, RITA, {
      request: {
        requestId: 'http-bounds',
        docIds: ['northwind-2024-10k'],
        queryType: 'risk_flag',
        queryText: 'Going concern?',
        review: { remindEveryMs: 1 },
      },
    });
    expect(review.status).toBe(400);
    expect(review.body.error?.issues.map((i) => i.path)).toEqual(['review.remindEveryMs']);
    // Nothing of it started a workflow.
    for (const k of ['p-1', 'p-2', 'p-3', 'p-4', 'p-5', 'p-6'])
      await expect(
        worker.client.workflow.getHandle(gatewayWorkflowId(ORG, k)).describe(),
      ).rejects.toMatchObject({ name: 'WorkflowNotFoundError' });
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

  it('serves /inbox with a CSP that admits only its own origin’s script and style files, unframeable', async () => {
    const res = await fetch(`${base}/inbox`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe-inline');
    // No inline script, style or handler at all: the page loads its two files from this origin.
    expect(html).not.toMatch(/<script>|<script(?![^>]*\bsrc=)|<style|\son[a-z]+=|style="/);
    const script = /<script src="([^"]+)"/.exec(html)?.[1];
    const sheet = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
    expect(script).toBe('/inbox/assets/inbox.js');
    expect(sheet).toBe('/inbox/assets/inbox.css');
    const js = await fetch(`${base}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(`${base}${sheet}`)).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${base}/inbox/assets/other.js`)).status).toBe(404);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('answers unknown routes and methods with typed errors', async () => {
    expect((await call('GET', '/v1/nothing', CLERK)).body.error?.type).toBe('NotFound');
    expect((await call('DELETE', `/v1/orgs/${ORG}/trial-balance`, CLERK)).body.error?.type).toBe(
      'MethodNotAllowed',
    );
  });
});
