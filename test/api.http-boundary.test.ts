// The HTTP API at its edge: keys, members, malformed and oversized input, the session cookie,
// the inbox page's headers and unknown routes. The writes, decisions and reviews it carries are
// in api.http-writes.test.ts; the shared setup is in api.fixtures.ts.
import { createApiApp } from '../api/server';
import { issueApiKey, revokeApiKey } from '../db/repositories/credentials';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import { ORG } from './support/fixtures';
import {
  APPROVER,
  CLERK,
  GINA,
  RITA,
  base,
  bearer,
  call,
  database,
  post,
  startHttpApi,
  stopHttpApi,
  worker,
} from './api.fixtures';

beforeAll(startHttpApi);
afterAll(stopHttpApi);

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
