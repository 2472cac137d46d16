import type { Server } from 'node:http';
import type { Database } from '../db/connection';
import { createApiServer } from '../api/server';
import { issueApiKey, revokeApiKey, upsertAgentIdentity } from '../db/repositories/credentials';
import { accountId } from '../db/ledger/default-chart';
import type { Role } from '../db/schema';
import { createTestDatabase } from './support/database';
import { ORG, OTHER_ORG, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * The API's authorization matrix: every role of db/schema (owner, admin, reviewer, approver,
 * analyst, viewer), an outsider (owner of another org), an agent key, a revoked key and no
 * key, against each action. An allowed caller is shown to pass authorization by reaching the
 * next check (a body the schema refuses: 400; an unknown id: 404) — so no workflow starts —
 * and a refused one gets 401, 403 or 404 with the kind of refusal. Approvals run against one
 * real waiting submission: self-approval, roles, cross-org and agents refused by the Update.
 */
const ROLES: Role[] = ['owner', 'admin', 'reviewer', 'approver', 'analyst', 'viewer'];
type Who = Role | 'outsider' | 'agent' | 'revoked' | 'none';
const WHO: Who[] = [...ROLES, 'outsider', 'agent', 'revoked', 'none'];

let database: Database;
let worker: TestWorker;
let server: Server;
let base: string;
const keys = {} as Record<Who, string | undefined>;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await seedDefaultChart(database.db, ORG);
  for (const role of ROLES) {
    await ensureUser(database.db, {
      id: `u-${role}`,
      email: `${role}@acme.example`,
      displayName: role,
      orgId: ORG,
      roles: [role],
    });
    keys[role] = (
      await issueApiKey(
        database.db,
        { kind: 'user', userId: `u-${role}` },
        { issuedBy: 'test', orgId: ORG },
      )
    ).key;
  }
  await ensureUser(database.db, {
    id: 'u-outsider',
    email: 'owner@globex.example',
    displayName: 'Globex owner',
    orgId: OTHER_ORG,
    roles: ['owner'],
  });
  keys.outsider = (
    await issueApiKey(
      database.db,
      { kind: 'user', userId: 'u-outsider' },
      { issuedBy: 'test', orgId: OTHER_ORG },
    )
  ).key;
  await upsertAgentIdentity(database.db, {
    orgId: ORG,
    agentId: 'matrix_bot',
    operatorUserId: 'u-analyst',
    allowedWorkflows: ['journal.post'],
    by: 'test',
  });
  keys.agent = (
    await issueApiKey(
      database.db,
      { kind: 'agent', orgId: ORG, agentId: 'matrix_bot' },
      { issuedBy: 'test', orgId: ORG },
    )
  ).key;
  const revoked = await issueApiKey(
    database.db,
    { kind: 'user', userId: 'u-owner' },
    { issuedBy: 'test', orgId: ORG },
  );
  await revokeApiKey(database.db, revoked.keyId, 'test');
  keys.revoked = revoked.key;
  keys.none = undefined;
  worker = await startTestWorker(database);
  server = createApiServer({ db: database.db, client: worker.client, taskQueue: worker.taskQueue });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await worker?.stop();
  await database?.close();
});

async function call(who: Who, method: string, path: string, body?: unknown) {
  const key = keys[who];
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = (text ? JSON.parse(text) : {}) as { code?: string };
  return { status: res.status, code: json.code ?? 'ok' };
}

/** `[status, code]` per caller; callers not listed get the row's `members` outcome. */
type Outcome = [number, string];
const AUTHN: Partial<Record<Who, Outcome>> = {
  outsider: [403, 'NotAMember'],
  revoked: [401, 'Unauthenticated'],
  none: [401, 'Unauthenticated'],
};
const A = ORG;
const ROWS: {
  action: string;
  method: string;
  path: string;
  body?: unknown;
  allowed: Who[];
  /** What an allowed caller gets (the next check's answer). */
  pass: Outcome;
  /** What a member outside `allowed` gets. */
  refused: Outcome;
}[] = [
  {
    action: 'read the trial balance',
    method: 'GET',
    path: `/v1/orgs/${A}/trial-balance`,
    allowed: [...ROLES, 'agent'],
    pass: [200, 'ok'],
    refused: [403, 'ActionNotPermitted'],
  },
  {
    action: 'read a submission of another org by its key',
    method: 'GET',
    path: `/v1/orgs/${A}/writes/globex-only-key`,
    allowed: [...ROLES, 'agent'],
    pass: [404, 'NotFound'],
    refused: [403, 'ActionNotPermitted'],
  },
  {
    action: 'submit a write',
    method: 'POST',
    path: `/v1/orgs/${A}/writes`,
    body: { idempotencyKey: 'm-1' },
    allowed: ['owner', 'admin', 'reviewer', 'approver', 'analyst', 'agent'],
    pass: [400, 'InvalidRequest'],
    refused: [403, 'ActionNotPermitted'],
  },
  {
    action: 'start an analysis',
    method: 'POST',
    path: `/v1/orgs/${A}/analyses`,
    body: { request: { requestId: 'm-a1' } },
    allowed: ['owner', 'admin', 'reviewer', 'approver', 'analyst', 'agent'],
    pass: [400, 'InvalidRequest'],
    refused: [403, 'ActionNotPermitted'],
  },
  {
    action: 'review an analysis',
    method: 'POST',
    path: `/v1/orgs/${A}/analyses/m-none/review`,
    body: { decision: 'approve' },
    allowed: ['owner', 'admin', 'reviewer'],
    pass: [404, 'NotFound'],
    refused: [403, 'ReviewerNotAuthorized'],
  },
  {
    action: 'submit an event',
    method: 'POST',
    path: `/v1/orgs/${A}/events`,
    body: { type: 'Not A Type', source: 'rule', payload: {} },
    allowed: ['owner', 'admin', 'analyst', 'agent'],
    pass: [400, 'InvalidRequest'],
    refused: [403, 'ActionNotPermitted'],
  },
  {
    action: 'answer a human request',
    method: 'POST',
    path: `/v1/orgs/${A}/requests/m-none/answer`,
    body: { text: 'yes' },
    allowed: ['owner', 'admin', 'reviewer', 'approver', 'analyst'],
    pass: [404, 'NotFound'],
    refused: [403, 'ActionNotPermitted'],
  },
  {
    action: 'read cost rollups',
    method: 'GET',
    path: `/v1/orgs/${A}/costs?by=agent`,
    allowed: ['owner', 'admin'],
    pass: [200, 'ok'],
    refused: [403, 'ActionNotPermitted'],
  },
  {
    action: 'read queue statistics',
    method: 'GET',
    path: `/v1/orgs/${A}/queue`,
    allowed: [...ROLES, 'agent'],
    pass: [200, 'ok'],
    refused: [403, 'ActionNotPermitted'],
  },
];

describe('API authz matrix', () => {
  const cases = ROWS.flatMap((row) =>
    WHO.map((who) => {
      const expected: Outcome = AUTHN[who] ?? (row.allowed.includes(who) ? row.pass : row.refused);
      // Agents never decide, whatever the row.
      const agentDecides =
        who === 'agent' &&
        (row.action === 'review an analysis' || row.action === 'answer a human request');
      return {
        ...row,
        who,
        expected: agentDecides ? ([403, 'AgentCannotDecide'] as Outcome) : expected,
      };
    }),
  );
  it.each(cases)('$who: $action → $expected', async (c) => {
    const r = await call(c.who, c.method, c.path, c.body);
    expect([r.status, r.code]).toEqual(c.expected);
  });

  it('cross-org: a member acting through the other org’s path is refused; ids do not cross orgs', async () => {
    for (const who of [...ROLES, 'agent'] as Who[])
      expect(await call(who, 'GET', `/v1/orgs/${OTHER_ORG}/trial-balance`)).toEqual({
        status: 403,
        code: 'NotAMember',
      });
    // The outsider, in its own org, cannot reach acme's submission by key: not found there.
    const w = await call('analyst', 'POST', `/v1/orgs/${A}/writes`, {
      idempotencyKey: 'm-approve',
      kind: 'journal.post',
      payload: {
        entryDate: '2026-11-30',
        memo: 'matrix',
        lines: [
          { accountId: accountId(ORG, '6300'), currency: 'USD', debit: '2500' },
          { accountId: accountId(ORG, '1010'), currency: 'USD', credit: '2500' },
        ],
      },
    });
    expect(w).toEqual({ status: 202, code: 'ok' });
    expect(await call('outsider', 'GET', `/v1/orgs/${OTHER_ORG}/writes/m-approve`)).toEqual({
      status: 404,
      code: 'NotFound',
    });
    expect(
      await call('outsider', 'POST', `/v1/orgs/${OTHER_ORG}/writes/m-approve/decisions`, {
        decision: 'approve',
        revision: 0,
        planHash: '0'.repeat(64),
      }),
    ).toEqual({ status: 404, code: 'NotFound' });
  });

  it('a path org id no org can have is a malformed request (400), with or without a key', async () => {
    for (const org of ['Acme', 'acme:x', '-acme', 'a'.repeat(65), '%20'])
      for (const who of ['owner', 'none'] as Who[])
        expect(await call(who, 'GET', `/v1/orgs/${org}/trial-balance`)).toEqual({
          status: 400,
          code: 'InvalidOrgId',
        });
  });

  it('approving one waiting write: self, roles, agent, outsider and no key refused; an approver signs', async () => {
    // The decision names the plan it was shown (its revision and hash).
    const shown = (await (
      await fetch(`${base}/v1/orgs/${A}/writes/m-approve`, {
        headers: { authorization: `Bearer ${keys.approver}` },
      })
    ).json()) as { revision: number; planHash: string };
    const approve = (who: Who) =>
      call(who, 'POST', `/v1/orgs/${A}/writes/m-approve/decisions`, {
        decision: 'approve',
        revision: shown.revision,
        planHash: shown.planHash,
      });
    const refusals: [Who, Outcome][] = [
      ['analyst', [403, 'SelfApproval']], // the submitter
      ['reviewer', [403, 'ApproverNotAuthorized']],
      ['viewer', [403, 'ApproverNotAuthorized']],
      ['agent', [403, 'AgentCannotDecide']],
      ['outsider', [403, 'NotAMember']],
      ['revoked', [401, 'Unauthenticated']],
      ['none', [401, 'Unauthenticated']],
    ];
    for (const [who, expected] of refusals) {
      const r = await approve(who);
      expect([who, r.status, r.code]).toEqual([who, ...expected]);
    }
    expect(await approve('approver')).toEqual({ status: 200, code: 'ok' });
    // Voting twice is a conflict, not a second vote.
    const again = await approve('approver');
    expect(again.status).toBeGreaterThanOrEqual(404);
    expect(['DuplicateApproval', 'ApprovalNotOpen', 'NotFound']).toContain(again.code);
  });
});

describe('operator reads', () => {
  it('an event is accepted with its address, readable in its org only', async () => {
    const res = await fetch(`${base}/v1/orgs/${A}/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${keys.analyst}` },
      body: JSON.stringify({ type: 'matrix.checked', source: 'rule', payload: { n: 1 } }),
    });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { eventId: string; workflowId: string };
    expect(res.headers.get('location')).toBe(`/v1/orgs/${A}/events/${accepted.eventId}`);
    await worker.client.workflow.getHandle(accepted.workflowId).result();
    const read = await fetch(`${base}${res.headers.get('location')}`, {
      headers: { authorization: `Bearer ${keys.viewer}` },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      event: { id: accepted.eventId, orgId: A, type: 'matrix.checked' },
    });
    expect(
      await call('outsider', 'GET', `/v1/orgs/${OTHER_ORG}/events/${accepted.eventId}`),
    ).toEqual({ status: 404, code: 'NotFound' });
  });

  it('/metrics: Prometheus text for the orgs the caller owns or administers', async () => {
    const scrape = async (who: Who) => {
      const res = await fetch(`${base}/metrics`, {
        headers: keys[who] ? { authorization: `Bearer ${keys[who]}` } : {},
      });
      return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
    };
    const m = await scrape('owner');
    expect(m.status).toBe(200);
    expect(m.type).toMatch(/^text\/plain; version=0\.0\.4/);
    // The write approved above is the one approval-latency observation (the default chart's
    // seeding writes are applied too, with no approval).
    const applied = /countersign_gateway_submissions\{org="acme",status="applied"\} (\d+)\n/.exec(
      m.text,
    );
    const queue = (await (
      await fetch(`${base}/v1/orgs/${A}/queue`, {
        headers: { authorization: `Bearer ${keys.viewer}` },
      })
    ).json()) as { submissions: Record<string, number> };
    expect(Number(applied?.[1])).toBe(queue.submissions.applied);
    expect(queue.submissions.applied).toBeGreaterThanOrEqual(1);
    expect(m.text).toMatch(/countersign_approval_latency_seconds_count\{org="acme"\} 1\n/);
    expect(m.text).toMatch(
      /countersign_approval_latency_seconds_bucket\{org="acme",le="\+Inf"\} 1\n/,
    );
    expect(m.text).toContain('# TYPE countersign_model_cost_usd_total counter');
    expect(m.text).toContain('# TYPE countersign_task_queue_backlog gauge');
    expect((await scrape('viewer')).status).toBe(403);
    expect((await scrape('agent')).status).toBe(403);
    expect((await scrape('none')).status).toBe(401);
    // The other org's owner sees none of acme's series.
    const other = await scrape('outsider');
    expect(other.status).toBe(200);
    expect(other.text).not.toContain('org="acme"');
  });

  it('queue statistics and the OpenAPI document', async () => {
    const q = await fetch(`${base}/v1/orgs/${A}/queue`, {
      headers: { authorization: `Bearer ${keys.viewer}` },
    });
    expect(await q.json()).toMatchObject({
      orgId: A,
      submissions: { applied: expect.any(Number) },
      backlog: { workflow: expect.anything(), activity: expect.anything() },
    });
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.0.3');
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/orgs/{org}/writes',
        '/v1/orgs/{org}/writes/{key}/decisions',
        '/v1/orgs/{org}/analyses/{requestId}/review',
        '/v1/orgs/{org}/events',
        '/v1/orgs/{org}/costs',
        '/v1/orgs/{org}/queue',
        '/v1/sessions',
        '/v1/orgs/{org}/inbound-email',
        '/metrics',
      ]),
    );
    expect(doc.paths['/v1/orgs/{org}/writes']?.post?.responses['403']?.content).toHaveProperty([
      'application/problem+json',
    ]);
    // Signing in and out are both in the document.
    expect(Object.keys(doc.paths['/v1/sessions'] ?? {}).sort()).toEqual(['delete', 'post']);
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['bearer', 'session']);
  });
});
