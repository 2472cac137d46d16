import { sql } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { auditTrail, verifyAuditChain } from '../db/repositories/audit';
import {
  issueApiKey,
  revokeApiKey,
  setAgentEnabled,
  upsertAgentIdentity,
} from '../db/repositories/credentials';
import { createTestDatabase } from './support/database';
import { CLERK, ORG, OTHER_ORG, OWNER, seedGatewayOrgs } from './gateway.fixtures';

/**
 * Identity changes are on the org's hash-chained audit trail, written by the database in the
 * same transaction: a key issued or revoked, an agent registered or changed. A direct write by
 * the runtime role is audited the same way (or refused), and a revocation is final.
 */
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
});
afterAll(async () => {
  await database?.close();
});

const trail = async (org: string, type: string, id: string) =>
  (await auditTrail(database.db, org, type, id)).map((r) => ({
    event: r.event,
    actor: r.actor,
    payload: r.payload as Record<string, unknown>,
  }));

describe('identity changes on the audit chain', () => {
  it('a key issued and revoked leaves two rows in the issuing org, never its secret', async () => {
    const issued = await issueApiKey(
      database.db,
      { kind: 'user', userId: CLERK },
      { issuedBy: OWNER, orgId: ORG, label: 'clerk laptop' },
    );
    expect(await revokeApiKey(database.db, issued.keyId, OWNER)).toBe(true);
    const rows = await trail(ORG, 'api_key', issued.keyId);
    expect(rows.map((r) => [r.event, r.actor])).toEqual([
      ['issued', `user:${OWNER}`],
      ['revoked', `user:${OWNER}`],
    ]);
    expect(rows[0]?.payload).toMatchObject({
      principalKind: 'user',
      userId: CLERK,
      label: 'clerk laptop',
    });
    const secret = issued.key.split('_').pop() as string;
    expect(JSON.stringify(rows)).not.toContain(secret);
    expect(JSON.stringify(rows)).not.toMatch(/salt|secretHash|secret_hash/);
    expect(await trail(OTHER_ORG, 'api_key', issued.keyId)).toEqual([]);

    // A revocation is final, even for the runtime role writing SQL by hand.
    expect(await revokeApiKey(database.db, issued.keyId, OWNER)).toBe(false);
    await expect(
      database.db.execute(
        sql`update api_keys set revoked_at = null, revoked_by = null where id = ${issued.keyId}`,
      ),
    ).rejects.toMatchObject({
      cause: { message: expect.stringContaining('a revocation is final') as unknown },
    });
  });

  it('a key inserted by hand as the runtime role is audited too, or refused without an org', async () => {
    await expect(
      database.db.execute(
        sql`insert into api_keys (id, principal_kind, user_id, salt, secret_hash, label, issued_by, expires_at)
            values ('hand-1', 'user', ${CLERK}, 'aa', 'bb', 'by hand', 'mallory', now() + interval '1 day')`,
      ),
    ).rejects.toMatchObject({ cause: { code: '23502' } });
    await database.db.execute(
      sql`insert into api_keys (id, principal_kind, user_id, salt, secret_hash, label, issued_by, expires_at, org_id)
          values ('hand-2', 'user', ${CLERK}, 'aa', 'bb', 'by hand', 'mallory', now() + interval '1 day', ${ORG})`,
    );
    expect((await trail(ORG, 'api_key', 'hand-2')).map((r) => [r.event, r.actor])).toEqual([
      ['issued', 'user:mallory'],
    ]);
  });

  it('an agent registered, re-registered unchanged, changed and disabled: one row per change', async () => {
    const reg = { orgId: ORG, agentId: 'audited_bot', operatorUserId: CLERK, by: OWNER };
    await upsertAgentIdentity(database.db, { ...reg, allowedWorkflows: ['journal.post'] });
    await upsertAgentIdentity(database.db, { ...reg, allowedWorkflows: ['journal.post'] });
    await upsertAgentIdentity(database.db, {
      ...reg,
      allowedWorkflows: ['journal.post', 'payment.send'],
    });
    await setAgentEnabled(database.db, ORG, 'audited_bot', false, OWNER);
    const rows = await trail(ORG, 'agent_identity', 'audited_bot');
    expect(rows.map((r) => [r.event, r.actor])).toEqual([
      ['registered', `user:${OWNER}`],
      ['changed', `user:${OWNER}`],
      ['changed', `user:${OWNER}`],
    ]);
    expect(rows[1]?.payload).toMatchObject({
      allowedWorkflows: ['journal.post', 'payment.send'],
      before: { allowedWorkflows: ['journal.post'] },
    });
    expect(rows[2]?.payload).toMatchObject({ enabled: false, before: { enabled: true } });
    // The agent key issued for it lands on the same chain, and the chain verifies.
    const k = await issueApiKey(
      database.db,
      { kind: 'agent', orgId: ORG, agentId: 'audited_bot' },
      { issuedBy: OWNER, orgId: ORG },
    );
    expect((await trail(ORG, 'api_key', k.keyId)).map((r) => r.event)).toEqual(['issued']);
    expect(await verifyAuditChain(database.db, ORG)).toMatchObject({ ok: true, firstBreak: null });
  });
});
