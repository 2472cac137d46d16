import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { ZodError } from 'zod';
import type { Database } from '../db/connection';
import { ensureOrganization } from '../db/repositories/organizations';
import { OrgIdSchema } from '../workflows/org-id';
import { createTestDatabase } from './support/database';

/**
 * Org ids are restricted to ^[a-z0-9][a-z0-9_-]{0,63}$ (issue 25 item 8): workflow ids are
 * `<kind>:<org>:<key>` and the payload codec reads the org from them, so `acme:x` would be read
 * as org `acme`. zod refuses such an id where an org is created, the database's CHECK refuses it
 * from any role, and the migration stops on an existing one, naming it.
 */
const GOOD = ['acme', 'a', '0', 't-edit', 'c_trunc', 'globex-2', `a${'b'.repeat(63)}`];
const BAD = ['', 'acme:x', 'Acme', '-acme', '_acme', 'a b', 'acme/x', 'acmé', `a${'b'.repeat(64)}`];

describe('the org id alphabet, in zod', () => {
  it.each(GOOD)('accepts %j', (id) => expect(OrgIdSchema.safeParse(id).success).toBe(true));
  it.each(BAD)('refuses %j', (id) => expect(OrgIdSchema.safeParse(id).success).toBe(false));
});

const withDb = process.env.CS_UNIT_ONLY ? describe.skip : describe;
withDb('the org id alphabet, in the database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });
  const asOwner = async <T>(fn: (c: PgClient) => Promise<T>): Promise<T> => {
    const c = new PgClient({ connectionString: database.ownerUrl });
    await c.connect();
    try {
      return await fn(c);
    } finally {
      await c.end();
    }
  };

  it('ensureOrganization refuses a bad id with the zod issue on `id`, before the database', async () => {
    const err = await ensureOrganization(database.db, { id: 'acme:x', name: 'Colon' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ZodError);
    expect((err as ZodError).issues.map((i) => i.path.join('.'))).toEqual(['id']);
    await ensureOrganization(database.db, { id: 'good-org', name: 'Good' });
  });

  it('the CHECK refuses a bad id from the runtime role and from the owner', async () => {
    for (const id of ['acme:x', 'Acme', '-x'])
      await expect(
        database.pool.query('insert into organizations (id, name) values ($1, $2)', [id, 'x']),
      ).rejects.toMatchObject({ constraint: 'organizations_id_alphabet' });
    await expect(
      asOwner((c) => c.query(`insert into organizations (id, name) values ('a:b', 'x')`)),
    ).rejects.toMatchObject({ constraint: 'organizations_id_alphabet' });
  });

  it('the migration stops on an existing bad id and names it; nothing is renamed', async () => {
    const sql = (f: string) => readFileSync(join(__dirname, '..', 'db', 'migrations', f), 'utf8');
    await asOwner(async (c) => {
      await c.query('begin');
      try {
        // The database as it was before 0031: no CHECK, and an org id with a colon.
        await c.query('alter table organizations drop constraint organizations_id_alphabet');
        await c.query(`insert into organizations (id, name) values ('Old:Org', 'old')`);
        await c.query('savepoint before');
        await expect(c.query(sql('0031_org_id_alphabet_existing.sql'))).rejects.toThrow(
          /org ids outside the allowed alphabet .*'Old:Org'/,
        );
        await c.query('rollback to savepoint before');
        await expect(c.query(sql('0032_org_id_alphabet.sql'))).rejects.toMatchObject({
          code: '23514',
        });
        await c.query('rollback to savepoint before');
        const { rows } = await c.query(`select id from organizations where id = 'Old:Org'`);
        expect(rows).toEqual([{ id: 'Old:Org' }]);
      } finally {
        await c.query('rollback');
      }
    });
  });
});
