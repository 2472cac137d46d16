import { createTestDatabase } from './support/database';
import type { Database } from '../db/connection';
import { authenticate } from '../api/auth';
import { authenticateCli } from '../client/credentials';
import { AuthenticationError } from '../client/errors';
import { authenticateApiKey, issueApiKey } from '../db/repositories/credentials';
import { ORG, OTHER_ORG, seedOrgs } from './support/fixtures';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/**
 * Issue 25 item 4: a person's key is issued for one org and acts only there. Dora is an
 * approver in both orgs; her key from acme must not act in globex (before, a key worked in
 * every org where its user held a role, so an owner of one org could mint keys usable in
 * another). A key is issued only to a member of the org it is for.
 */
let database: Database;
const SESSION_KEY = Buffer.alloc(32, 7);

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  for (const orgId of [ORG, OTHER_ORG])
    await ensureUser(database.db, {
      id: 'dora',
      email: 'dora@two-orgs.example',
      displayName: 'Dora',
      orgId,
      roles: ['approver'],
    });
});
afterAll(async () => database?.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('a person in two orgs', () => {
  it('uses a key issued for one org only in that org (API)', async () => {
    const { key } = await issueApiKey(
      database.db,
      { kind: 'user', userId: 'dora' },
      { issuedBy: 'test', orgId: ORG },
    );
    await expect(authenticate(database.db, bearer(key), ORG, SESSION_KEY)).resolves.toMatchObject({
      kind: 'user',
      userId: 'dora',
      orgId: ORG,
      roles: ['approver'],
    });
    await expect(
      authenticate(database.db, bearer(key), OTHER_ORG, SESSION_KEY),
    ).rejects.toMatchObject({ status: 403, type: 'KeyNotForOrg' });
  });

  it('uses a key issued for one org only in that org (CLI)', async () => {
    const { key } = await issueApiKey(
      database.db,
      { kind: 'user', userId: 'dora' },
      { issuedBy: 'test', orgId: OTHER_ORG },
    );
    await expect(authenticateCli(database.db, { CS_API_KEY: key }, OTHER_ORG)).resolves.toEqual(
      expect.objectContaining({ kind: 'user', userId: 'dora', orgId: OTHER_ORG }),
    );
    const refused = authenticateCli(database.db, { CS_API_KEY: key }, ORG);
    await expect(refused).rejects.toBeInstanceOf(AuthenticationError);
    await expect(refused).rejects.toThrow(
      `The API key was issued for org ${OTHER_ORG}; it does not act in org ${ORG}`,
    );
  });

  it('issues a key only to a member of the org it is for', async () => {
    await expect(
      issueApiKey(
        database.db,
        { kind: 'user', userId: 'rita' },
        { issuedBy: 'test', orgId: OTHER_ORG },
      ),
    ).rejects.toThrow(`User rita has no role in org ${OTHER_ORG}`);
  });

  it('refuses a key bound to no org', async () => {
    const { key, keyId } = await issueApiKey(
      database.db,
      { kind: 'user', userId: 'dora' },
      { issuedBy: 'test', orgId: ORG },
    );
    // A key from before keys were bound to an org (org_id null), as the owner finds it.
    const { Client } = await import('pg');
    const owner = new Client({ connectionString: database.ownerUrl });
    await owner.connect();
    try {
      await owner.query('alter table api_keys disable trigger user');
      await owner.query('update api_keys set org_id = null where id = $1', [keyId]);
      await owner.query('alter table api_keys enable trigger user');
    } finally {
      await owner.end();
    }
    expect(await authenticateApiKey(database.db, key)).toEqual({ ok: false, reason: 'unbound' });
  });
});
