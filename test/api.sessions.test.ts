import { Client as PgClient } from 'pg';
import type { Client } from '@temporalio/client';
import type { Database } from '../db/connection';
import { createApiApp } from '../api/server';
import { issueApiKey, revokeApiKey } from '../db/repositories/credentials';
import { createTestDatabase } from './support/database';
import { ORG, seedOrgs } from './support/fixtures';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/**
 * Server-side browser sessions (issue 25 item 8): the cookie is an opaque token whose keyed hash
 * is a `browser_sessions` row, so signing out, revoking the key and removing the user's role end
 * the session at once — a kept cookie stops working on the next request. No Temporal is needed:
 * the routes used read the database only.
 */
let database: Database;
let app: ReturnType<typeof createApiApp>;
const SECRET = 'a-test-decision-secret-of-at-least-32-bytes!';

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await ensureUser(database.db, {
    id: 'sally',
    email: 'sally@acme.example',
    displayName: 'Sally Session',
    orgId: ORG,
    roles: ['viewer'],
  });
  app = createApiApp({
    db: database.db,
    client: {} as Client,
    taskQueue: 'unused',
    decisionSecret: SECRET,
    codec: null,
  });
});
afterAll(async () => {
  await database?.close();
});

async function login(apiKey: string): Promise<{ status: number; cookie: string }> {
  const res = await app.request('/v1/sessions', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey }),
  });
  return { status: res.status, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
}

/** A read with the cookie alone: 200 while the session is live, 401 SessionInvalid after. */
async function read(cookie: string): Promise<{ status: number; code?: string }> {
  const res = await app.request(`/v1/orgs/${ORG}/trial-balance`, { headers: { cookie } });
  const body = (await res.json()) as { code?: string };
  return { status: res.status, code: body.code };
}

async function sallyKey(): Promise<{ key: string; keyId: string }> {
  return issueApiKey(
    database.db,
    { kind: 'user', userId: 'sally' },
    { issuedBy: 'test', orgId: ORG },
  );
}

async function sessionRows(): Promise<{ token_hash: string; ended_reason: string | null }[]> {
  const owner = new PgClient({ connectionString: database.ownerUrl });
  await owner.connect();
  try {
    return (await owner.query('select token_hash, ended_reason from browser_sessions')).rows;
  } finally {
    await owner.end();
  }
}

async function asOwner(statements: string[]): Promise<void> {
  const owner = new PgClient({ connectionString: database.ownerUrl });
  await owner.connect();
  try {
    for (const sql of statements) await owner.query(sql);
  } finally {
    await owner.end();
  }
}

describe('browser sessions are server-side', () => {
  it('stores only a hash of the token, never the token itself', async () => {
    const s = await login((await sallyKey()).key);
    expect(s.status).toBe(200);
    const token = s.cookie.replace(/^cs_session=/, '');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await sessionRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.token_hash).not.toContain(token);
    }
    expect(await read(s.cookie)).toEqual({ status: 200, code: undefined });
  });

  it('logging out ends the session at once: the kept cookie is refused on the next request', async () => {
    const s = await login((await sallyKey()).key);
    expect((await read(s.cookie)).status).toBe(200);
    const out = await app.request('/v1/sessions', {
      method: 'DELETE',
      headers: { cookie: s.cookie },
    });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ signedOut: true, sessionEnded: true });
    expect(await read(s.cookie)).toEqual({ status: 401, code: 'SessionInvalid' });
    // Another session of the same key is untouched.
  });

  it('logging out one session leaves the same key’s other sessions live', async () => {
    const k = await sallyKey();
    const a = await login(k.key);
    const b = await login(k.key);
    await app.request('/v1/sessions', { method: 'DELETE', headers: { cookie: a.cookie } });
    expect((await read(a.cookie)).status).toBe(401);
    expect((await read(b.cookie)).status).toBe(200);
  });

  it('revoking the API key ends every session made from it', async () => {
    const k = await sallyKey();
    const a = await login(k.key);
    const b = await login(k.key);
    expect((await read(a.cookie)).status).toBe(200);
    expect(await revokeApiKey(database.db, k.keyId, 'test')).toBe(true);
    expect(await read(a.cookie)).toEqual({ status: 401, code: 'SessionInvalid' });
    expect(await read(b.cookie)).toEqual({ status: 401, code: 'SessionInvalid' });
    const reasons = (await sessionRows()).map((r) => r.ended_reason);
    expect(reasons.filter((r) => r === 'key_revoked')).toHaveLength(2);
  });

  it('removing the user’s role in the org ends their sessions there, even if the role comes back', async () => {
    await ensureUser(database.db, {
      id: 'rory',
      email: 'rory@acme.example',
      displayName: 'Rory Role',
      orgId: ORG,
      roles: ['viewer'],
    });
    const k = await issueApiKey(
      database.db,
      { kind: 'user', userId: 'rory' },
      { issuedBy: 'test', orgId: ORG },
    );
    const s = await login(k.key);
    expect((await read(s.cookie)).status).toBe(200);
    // The trigger acts on any removal (the gateway's membership.revoke deletes the row); the
    // owner plays the gateway here by lifting the gateway-only guard and the audit row (which needs a
    // submission) inside its transaction.
    await asOwner([
      'begin',
      'alter table memberships disable trigger memberships_gateway_only',
      'alter table memberships disable trigger memberships_audit',
      `delete from memberships where org_id = '${ORG}' and user_id = 'rory'`,
      `insert into memberships (org_id, user_id, role) values ('${ORG}', 'rory', 'viewer')`,
      'alter table memberships enable trigger memberships_gateway_only',
      'alter table memberships enable trigger memberships_audit',
      'commit',
    ]);
    expect(await read(s.cookie)).toEqual({ status: 401, code: 'SessionInvalid' });
    // Signing in again works with the role held now.
    expect((await read((await login(k.key)).cookie)).status).toBe(200);
  });

  it('a forged, malformed or unknown cookie is refused', async () => {
    for (const token of ['x', 'A'.repeat(43), `${'A'.repeat(42)}.`])
      expect(await read(`cs_session=${token}`)).toEqual({ status: 401, code: 'SessionInvalid' });
  });

  it('the runtime role cannot rewrite a session to another key, user or org, nor delete one', async () => {
    const s = await login((await sallyKey()).key);
    expect(s.status).toBe(200);
    for (const stmt of [
      "update browser_sessions set user_id = 'rita'",
      "update browser_sessions set org_id = 'globex'",
      "update browser_sessions set expires_at = now() + interval '10 years'",
      'delete from browser_sessions',
    ])
      await expect(database.pool.query(stmt)).rejects.toThrow(/permission denied/);
  });

  it('sign-in prunes sessions that ended or expired over 30 days ago, and only those', async () => {
    const k = await sallyKey();
    const [oldEnded, _oldExpired, recentEnded, live] = [
      await login(k.key),
      await login(k.key),
      await login(k.key),
      await login(k.key),
    ];
    await app.request('/v1/sessions', { method: 'DELETE', headers: { cookie: oldEnded.cookie } });
    await app.request('/v1/sessions', {
      method: 'DELETE',
      headers: { cookie: recentEnded.cookie },
    });
    // Back-date them as the owner: one ended 40 days ago, one expired 40 days ago, one ended
    // two days ago.
    const ids = async () =>
      (
        await database.pool.query<{ id: string; ended_reason: string | null; expires_at: Date }>(
          'select id, ended_reason, expires_at from browser_sessions order by created_at desc limit 4',
        )
      ).rows;
    const [l, r, x, o] = await ids(); // newest first: live, recentEnded, oldExpired, oldEnded
    expect([l!.ended_reason, r!.ended_reason, x!.ended_reason, o!.ended_reason]).toEqual([
      null,
      'logout',
      null,
      'logout',
    ]);
    await asOwner([
      `update browser_sessions set created_at = now() - interval '50 days', ended_at = now() - interval '40 days', expires_at = now() - interval '39 days' where id = '${o!.id}'`,
      `update browser_sessions set created_at = now() - interval '50 days', expires_at = now() - interval '40 days' where id = '${x!.id}'`,
      `update browser_sessions set ended_at = now() - interval '2 days' where id = '${r!.id}'`,
    ]);
    expect((await login(k.key)).status).toBe(200);
    const left = new Set(
      (await database.pool.query<{ id: string }>('select id from browser_sessions')).rows.map(
        (row) => row.id,
      ),
    );
    expect([left.has(l!.id), left.has(r!.id), left.has(x!.id), left.has(o!.id)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect((await read(live.cookie)).status).toBe(200);
    // The runtime role still deletes nothing itself; a `keep` shorter than a day is a day.
    await expect(database.pool.query('delete from browser_sessions')).rejects.toThrow(
      /permission denied/,
    );
    const pruned = await database.pool.query<{ n: number }>(
      "select prune_browser_sessions(interval '0 seconds') as n",
    );
    // Only the one that ended two days ago goes: sessions the earlier tests ended minutes ago
    // are within the day, and the live one is never a candidate.
    expect(pruned.rows[0]!.n).toBe(1);
    const after = await database.pool.query<{ id: string; ended_reason: string | null }>(
      'select id, ended_reason from browser_sessions',
    );
    expect(after.rows.map((row) => row.id)).not.toContain(r!.id);
    expect(after.rows.filter((row) => row.ended_reason !== null).length).toBeGreaterThan(0);
    expect((await read(live.cookie)).status).toBe(200);
  });
});
