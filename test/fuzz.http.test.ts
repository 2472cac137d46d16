import fc from 'fast-check';
import type { Client } from '@temporalio/client';
import type { Database } from '../db/connection';
import { createApiApp } from '../api/server';
import { problemTypeUri } from '../api/problem';
import {
  AnalysisBody,
  AnswerBody,
  CostQuery,
  DecisionBody,
  EventBody,
  LoginBody,
  ReviewBody,
  TrialBalanceQuery,
  WriteBody,
  WriteListQuery,
} from '../api/schemas';
import { checkInputBounds } from '../workflows/input-bounds';
import { parseWrite } from '../workflows/gateway/writes';
import { AnalysisRequestSchema } from '../workflows/analysis.contract';
import { EventEnvelopeSchema } from '../workflows/events/contract';
import { AnswerInputSchema } from '../workflows/requests/contract';
import { issueApiKey } from '../db/repositories/credentials';
import { createTestDatabase } from './support/database';
import { ORG, seedOrgs } from './support/fixtures';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * Every JSON body and query of the HTTP API under arbitrary input, driven in-process against
 * the real app, a real database and real keys. Temporal is a trap: any use of the client
 * throws and is recorded, so a bad input that got as far as starting or signalling a workflow
 * fails the property. For each route: the answer is a 4xx problem+json whose `type` is the
 * stable URI of its `code` (never a 500, never a hang), and no table changes — not a row
 * added, not a value updated (a digest of every table, before and after).
 */
const RUNS = 50;

let database: Database;
let app: ReturnType<typeof createApiApp>;
let OWNER: string;
const reached: string[] = [];

/** A Temporal client that must never be used: bad input is refused before any workflow. */
const temporalTrap = new Proxy(
  {},
  {
    get(_t, prop) {
      if (prop === 'then') return undefined;
      reached.push(String(prop));
      throw new Error(`Temporal reached (client.${String(prop)})`);
    },
  },
) as Client;

/** One digest per table of its whole content: any insert, update or delete changes it. */
async function snapshot(): Promise<Record<string, string>> {
  const { rows: tables } = await database.pool.query<{ t: string }>(
    `select table_name as t from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const { rows } = await database.pool.query<{ t: string; d: string | null }>(
    tables
      .map(
        ({ t }) =>
          `select '${t}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as d from "${t}" x`,
      )
      .join(' union all '),
  );
  return Object.fromEntries(rows.map((r) => [r.t, r.d ?? '']));
}

interface Sent {
  method: string;
  path: string;
  body?: string;
  contentType?: string | null;
}
async function send(s: Sent): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { authorization: `Bearer ${OWNER}` };
  if (s.contentType !== null) headers['content-type'] = s.contentType ?? 'application/json';
  const t0 = performance.now();
  const res = await app.request(s.path, { method: s.method, headers, body: s.body });
  const text = await res.text();
  // Never a hang: a refusal is decided on the body alone (a 1 MB body included).
  expect(performance.now() - t0).toBeLessThan(3000);
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(
      `${s.method} ${s.path} answered ${res.status} with non-JSON ${text.slice(0, 80)}`,
    );
  }
  if (res.status >= 400) {
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(body.status).toBe(res.status);
    expect(typeof body.code).toBe('string');
    expect(body.type).toBe(problemTypeUri(body.code as string));
  }
  return { status: res.status, body };
}

/** The problem codes a refused body may carry: stable names, never InternalError. */
const REFUSALS = new Set([
  'InvalidRequest',
  'InvalidJson',
  'BodyTooLarge',
  'UnsupportedMediaType',
  'Unauthenticated',
]);

// ---- hostile bodies ------------------------------------------------------------------------
const deepJson = fc.integer({ min: 33, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n));
const protoBodies = fc.constantFrom(
  '{"__proto__": {"polluted": true}}',
  '{"constructor": {"prototype": {"polluted": true}}}',
  '{"decision": "approve", "__proto__": {"isAdmin": true}}',
  '{"request": {"__proto__": {"x": 1}}}',
  '{"type": "a.b", "source": "rule", "payload": {"constructor": {"prototype": 1}}}',
  '{"idempotencyKey": "k", "kind": "journal.post", "payload": {"prototype": {}}}',
  '{"text": "ok", "prototype": 1}',
);
const notJson = fc.oneof(
  fc.string({ maxLength: 40 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
  fc.constantFrom('{', '{"a":', '[1,]', 'NaN', '\ufeff{}', "{'a':1}", '{"a":1}garbage', '\u0000'),
);
/** Strings over the input bounds (100,000 characters), the 1 MB body limit, and bad text. */
const hugeString = fc.constantFrom(100_001, 400_000, 1_100_000).map((n) => 'x'.repeat(n));
const badText = fc.constantFrom('a\u0000b', 'x\ud800', '\udc00y');

/** An object with the schema's keys, each value hostile or of the wrong type. */
const wrongTyped = (keys: string[]) =>
  fc
    .record(
      Object.fromEntries(
        keys.map((k) => [
          k,
          fc.oneof(
            fc.anything({ maxDepth: 2 }),
            hugeString,
            badText,
            fc.constant(null),
            fc.constant(1e308),
          ),
        ]),
      ),
      { requiredKeys: [] },
    )
    .map((o) => JSON.stringify(o));

/** Values that break a body somewhere deep: the bounds, the types, prototype keys. */
const hostileValue = fc.oneof(
  hugeString,
  badText,
  fc.anything({ maxDepth: 2 }),
  fc.integer({ min: 17, max: 31 }).map((n) => {
    let v: unknown = 'leaf';
    for (let i = 0; i < n; i++) v = i % 2 ? [v] : { a: v };
    return v;
  }),
  fc.constantFrom(
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"x": 1}}}') as unknown,
    '99999999999999999999',
    '9999-12-31',
    -1,
    1e308,
  ),
);

/** A valid sample with one value, at any depth, replaced by a hostile one. */
function mutate(sample: unknown, path: number[], value: unknown): unknown {
  if (path.length === 0 || sample === null || typeof sample !== 'object') return value;
  const [head = 0, ...rest] = path;
  const keys = Object.keys(sample);
  if (keys.length === 0) return value;
  const k = keys[head % keys.length] as string;
  const copy: Record<string, unknown> = Array.isArray(sample)
    ? ([...(sample as unknown[])] as unknown as Record<string, unknown>)
    : { ...(sample as Record<string, unknown>) };
  copy[k] = mutate((sample as Record<string, unknown>)[k], rest, value);
  return copy;
}
const nearValid = (sample: unknown) =>
  fc
    .tuple(fc.array(fc.nat(20), { minLength: 1, maxLength: 5 }), hostileValue)
    .map(([path, v]) => JSON.stringify(mutate(sample, path, v)));

const bodyOf = (keys: string[], sample: unknown = {}) =>
  fc.oneof(
    { weight: 4, arbitrary: nearValid(sample) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
    { weight: 3, arbitrary: wrongTyped(keys) },
    { weight: 1, arbitrary: deepJson },
    { weight: 1, arbitrary: protoBodies },
    { weight: 2, arbitrary: notJson },
    { weight: 1, arbitrary: fc.constant('') },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...keys), hugeString)
        .map(([k, v]) => JSON.stringify({ [k]: v })),
    },
  );
const contentType = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/json; charset=latin1',
      'application/problem+json',
      null,
    ),
  },
);

/** What the app must accept at the bounds and the body's schema; the rest must be refused. */
function parsedBody(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.length === 0 || text.length > 1_000_000) return { ok: false };
  try {
    const value: unknown = JSON.parse(text);
    return checkInputBounds(value).ok ? { ok: true, value } : { ok: false };
  } catch {
    return { ok: false };
  }
}

interface RouteCase {
  name: string;
  path: string;
  keys: string[];
  /** A body the route accepts, mutated by the property. */
  sample: unknown;
  /** Whether the body would pass every check before the route reaches Temporal. */
  reachesTemporal: (body: unknown) => boolean;
}
const user = { kind: 'user' as const, userId: 'olga' };
const ROUTES: RouteCase[] = [
  {
    name: 'writes',
    sample: {
      idempotencyKey: 'fuzz-1',
      kind: 'journal.post',
      payload: {
        entryDate: '2026-11-30',
        memo: 'supplies',
        lines: [
          { accountId: 'acme:6200', currency: 'USD', debit: '2500' },
          { accountId: 'acme:1010', currency: 'USD', credit: '2500' },
        ],
      },
      source: { type: 'document', id: 'd-1' },
    },
    path: `/v1/orgs/${ORG}/writes`,
    keys: ['idempotencyKey', 'kind', 'payload', 'source', 'approval', 'agentInstanceId'],
    reachesTemporal: (b) => {
      const w = WriteBody.safeParse(b);
      if (!w.success) return false;
      const { agentInstanceId: _a, ...rest } = w.data;
      return parseWrite({ ...rest, orgId: ORG, submitter: user }).ok;
    },
  },
  {
    name: 'write decisions',
    sample: { decision: 'approve', note: 'ok', revision: 0, planHash: 'a'.repeat(64) },
    path: `/v1/orgs/${ORG}/writes/k-1/decisions`,
    keys: ['decision', 'note', 'revision', 'planHash'],
    reachesTemporal: (b) => DecisionBody.safeParse(b).success,
  },
  {
    name: 'analyses',
    sample: {
      request: {
        requestId: 'r-1',
        docIds: ['doc-1'],
        queryType: 'extract_metric',
        queryText: 'What was revenue in 2024?',
        constraints: { threshold: { operator: '>=', value: '4.5' } },
      },
    },
    path: `/v1/orgs/${ORG}/analyses`,
    keys: ['request'],
    reachesTemporal: (b) => {
      const a = AnalysisBody.safeParse(b);
      return (
        a.success &&
        AnalysisRequestSchema.safeParse({ ...a.data.request, orgId: ORG, requestedBy: 'user:olga' })
          .success
      );
    },
  },
  {
    name: 'analysis reviews',
    sample: {
      decision: 'correct',
      note: 'n',
      corrections: [{ claimId: 'c1', value: '12', unit: 'USD' }],
    },
    path: `/v1/orgs/${ORG}/analyses/r-1/review`,
    keys: ['decision', 'note', 'corrections'],
    reachesTemporal: (b) => ReviewBody.safeParse(b).success,
  },
  {
    name: 'events',
    sample: {
      type: 'document.received',
      source: 'connector',
      payload: { documentId: 'd-1', nested: { a: [1, 2] } },
    },
    path: `/v1/orgs/${ORG}/events`,
    keys: ['type', 'source', 'payload'],
    reachesTemporal: (b) => {
      const e = EventBody.safeParse(b);
      return e.success && EventEnvelopeSchema.safeParse({ ...e.data, orgId: ORG }).success;
    },
  },
  {
    name: 'request answers',
    sample: { answer: { category: 'office', items: { l1: '6100' } } },
    path: `/v1/orgs/${ORG}/requests/hr_1/answer`,
    keys: ['answer', 'text'],
    reachesTemporal: (b) => {
      const a = AnswerBody.safeParse(b);
      return (
        a.success &&
        AnswerInputSchema.safeParse({
          ...a.data,
          requestId: 'hr_1',
          orgId: ORG,
          answeredBy: 'olga',
        }).success
      );
    },
  },
  {
    name: 'sessions',
    sample: { apiKey: 'csk_abc_def' },
    path: '/v1/sessions',
    keys: ['apiKey'],
    // A session is the database's alone: any key, valid or not, never reaches Temporal.
    reachesTemporal: () => false,
  },
];

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await seedDefaultChart(database.db, ORG);
  await ensureUser(database.db, {
    id: 'olga',
    email: 'olga@acme.example',
    displayName: 'Olga Owner',
    orgId: ORG,
    roles: ['owner'],
  });
  OWNER = (
    await issueApiKey(
      database.db,
      { kind: 'user', userId: 'olga' },
      { issuedBy: 'test', orgId: ORG },
    )
  ).key;
  app = createApiApp({
    db: database.db,
    client: temporalTrap,
    taskQueue: 'fuzz-http',
    decisionSecret: 'fuzz-http-secret-0123456789abcdef',
    // The trap's 500s (the sanity case below) are expected: keep them out of the test output.
    logger: { info: () => undefined, error: () => undefined },
  });
});
afterAll(async () => {
  await database?.close();
});

describe('HTTP bodies and queries under fuzzing', () => {
  it.each(ROUTES)(
    'POST $name: a refused body is a 4xx problem with a stable type; nothing written, no workflow',
    async (route) => {
      const before = await snapshot();
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(bodyOf(route.keys, route.sample), contentType, async (text, ct) => {
          const parsed = parsedBody(text);
          // A body that would pass every check goes on to its workflow: not this property's case.
          const json =
            ct !== null && /^application\/([\w.-]+\+)?json$/i.test(ct.split(';')[0] ?? '');
          fc.pre(!(json && parsed.ok && route.reachesTemporal(parsed.value)));
          const r = await send({ method: 'POST', path: route.path, body: text, contentType: ct });
          expect(r.status).toBeGreaterThanOrEqual(400);
          expect(r.status).toBeLessThan(500);
          if (route.name !== 'sessions' || !parsed.ok || !LoginBody.safeParse(parsed.value).success)
            expect(REFUSALS).toContain(r.body.code);
          refused++;
        }),
        { numRuns: RUNS },
      );
      expect(reached).toEqual([]);
      expect(await snapshot()).toEqual(before);
      expect(refused).toBeGreaterThan(RUNS / 2);
    },
  );

  it('the trap works: each valid sample passes every check and reaches Temporal (a 500 here)', async () => {
    for (const route of ROUTES.filter((r) => r.name !== 'sessions')) {
      expect([route.name, route.reachesTemporal(route.sample)]).toEqual([route.name, true]);
      reached.length = 0;
      const r = await send({
        method: 'POST',
        path: route.path,
        body: JSON.stringify(route.sample),
      });
      expect([route.name, r.status, reached.length > 0]).toEqual([route.name, 500, true]);
    }
    reached.length = 0;
  });

  it('a valid JSON body sent as another content type is refused, not read as JSON', async () => {
    const before = await snapshot();
    const body = JSON.stringify({ type: 'probe.requested', source: 'rule', payload: {} });
    for (const ct of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const r = await send({
        method: 'POST',
        path: `/v1/orgs/${ORG}/events`,
        body,
        contentType: ct,
      });
      expect([r.status, r.body.code]).toEqual([415, 'UnsupportedMediaType']);
    }
    expect(reached).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('dry-run writes: any body is refused or scored, never a 500, nothing written', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(
        bodyOf(['idempotencyKey', 'kind', 'payload'], ROUTES[0]?.sample),
        async (text) => {
          const r = await send({
            method: 'POST',
            path: `/v1/orgs/${ORG}/writes?dryRun=true`,
            body: text,
          });
          expect(r.status === 200 || (r.status >= 400 && r.status < 500)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
    expect(reached).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('queries: a bad value is a 400 naming it, a good one answers 200; never a 500', async () => {
    const before = await snapshot();
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('2026-13-45', '0000-00-00', '9999-99-99', '2026-02-30', '2026-00', '2026-13'),
      fc.constantFrom(
        'awaiting_approval',
        'agent',
        'month',
        '1',
        '500',
        '501',
        '-1',
        '1e3',
        '0x10',
      ),
      fc.integer().map(String),
    );
    const queries = [
      { path: `/v1/orgs/${ORG}/writes`, schema: WriteListQuery, keys: ['status', 'limit'] },
      { path: `/v1/orgs/${ORG}/trial-balance`, schema: TrialBalanceQuery, keys: ['asOf'] },
      { path: `/v1/orgs/${ORG}/costs`, schema: CostQuery, keys: ['by', 'month'] },
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...queries),
        fc.array(value, { minLength: 2, maxLength: 2 }),
        async (q, values) => {
          const params = new URLSearchParams(
            q.keys.map((k, i): [string, string] => [k, values[i] ?? '']),
          );
          const r = await send({ method: 'GET', path: `${q.path}?${params.toString()}` });
          const valid = q.schema.safeParse(Object.fromEntries(params)).success;
          expect(r.status).toBe(valid ? 200 : 400);
          if (!valid) expect(r.body.code).toBe('InvalidRequest');
        },
      ),
      { numRuns: RUNS },
    );
    // Found by this property: a regex-valid but impossible date reached the database (500).
    const impossible = await send({
      method: 'GET',
      path: `/v1/orgs/${ORG}/trial-balance?asOf=2026-13-45`,
    });
    expect([impossible.status, impossible.body.code]).toEqual([400, 'InvalidRequest']);
    expect(reached).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});
