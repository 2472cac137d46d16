import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Database } from '../db/connection';
import { createApiServer } from '../api/server';
import { ingestFile } from '../client/documents';
import { ensureUser } from '../db/repositories/organizations';
import { accountId, seedDefaultChart } from '../db/ledger/default-chart';
import { createTestDatabase } from './support/database';
import { ORG, SAMPLES, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';

let database: Database;
let worker: TestWorker;
let server: Server;
let base: string;
const bearer = (user: string, token: string) => ({ authorization: `Bearer ${user}:${token}` });
const CLERK = bearer('clerk', 'clerk-token');
const APPROVER = bearer('approver', 'approver-token');
const RITA = bearer('rita', 'rita-token');

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown> & {
      error?: { type: string; message: string; issues: { path: string }[] };
    },
  };
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
    apiToken: 'clerk-token',
  });
  await ensureUser(database.db, {
    id: 'approver',
    email: 'approver@acme.example',
    displayName: 'Approver',
    orgId: ORG,
    roles: ['approver'],
    apiToken: 'approver-token',
  });
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
  it('refuses a missing or wrong token, and a user of another org', async () => {
    expect((await call('GET', `/v1/orgs/${ORG}/trial-balance`, {})).body.error?.type).toBe(
      'Unauthenticated',
    );
    expect(
      (await call('GET', `/v1/orgs/${ORG}/trial-balance`, bearer('clerk', 'nope'))).status,
    ).toBe(401);
    await ensureUser(database.db, {
      id: 'gina',
      email: 'gina@globex.example',
      displayName: 'Gina Globex',
      orgId: 'globex',
      roles: ['reviewer'],
      apiToken: 'gina-token',
    });
    const other = await call('GET', `/v1/orgs/${ORG}/trial-balance`, bearer('gina', 'gina-token'));
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
    expect(sub.body).toMatchObject({ started: true, state: { status: 'awaiting_approval' } });
    // The clerk submitted it: the clerk cannot sign it, whatever the body says.
    const self = await call('POST', `/v1/orgs/${ORG}/writes/http-1/decisions`, CLERK, {
      decision: 'approve',
    });
    expect(self.body.error?.type).toMatch(/SelfApproval|ApproverNotAuthorized/);
    const ok = await call('POST', `/v1/orgs/${ORG}/writes/http-1/decisions`, APPROVER, {
      decision: 'approve',
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
    const started = await call('POST', `/v1/orgs/${ORG}/analyses`, RITA, {
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

  it('answers unknown routes and methods with typed errors', async () => {
    expect((await call('GET', '/v1/nothing', CLERK)).body.error?.type).toBe('NotFound');
    expect((await call('DELETE', `/v1/orgs/${ORG}/trial-balance`, CLERK)).body.error?.type).toBe(
      'MethodNotAllowed',
    );
  });
});
