import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { parseConfig } from '../../config/env';
import { GATEWAY_ROLE, RUNTIME_ROLE, openDatabase, type Database } from '../../db/connection';
import { runMigrations } from '../../db/migrate';

/** The PostgreSQL server of this test run (global-setup starts the embedded one). */
export function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'TEST_DATABASE_URL is not set: run the tests with `npm test` (jest global setup starts PostgreSQL), not with CS_UNIT_ONLY=1',
    );
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The database global setup migrates once; every test file's database is a copy of it. */
export const TEMPLATE_DATABASE = 'cs_test_template';

/**
 * Creates the migrated template (dropping any left from an earlier run): copying it is a file
 * copy, where migrating each test file's database from scratch cost seconds per file.
 */
export async function createTemplateDatabase(): Promise<void> {
  const admin = new PgClient({ connectionString: adminUrl() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase(
    parseConfig({ DATABASE_URL: withDatabase(adminUrl(), TEMPLATE_DATABASE), DB_POOL_SIZE: '1' }),
  );
  try {
    await runMigrations(database);
  } finally {
    await database.close();
  }
}

/**
 * A fresh, migrated database per test file, dropped on close: a copy of the template when
 * global setup made one (CS_TEST_TEMPLATE_DB), else migrated here. Migrations run either way —
 * on a copy they find everything applied.
 */
export async function createTestDatabase(): Promise<Database> {
  const name = `cs_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = process.env.CS_TEST_TEMPLATE_DB;
  const admin = new PgClient({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const database = await openDatabase(
    parseConfig({ DATABASE_URL: withDatabase(adminUrl(), name), DB_POOL_SIZE: '8' }),
  );
  await runMigrations(database);
  return {
    ...database,
    async close() {
      await database.close();
      // A non-superuser admin cannot force-drop a database the platform roles are still
      // connected to (an API or worker connection closing late): the gateway role, a member of
      // the runtime role, ends both roles' sessions.
      const r = new PgClient({
        connectionString: withDatabase(database.gatewayUrl ?? database.url, 'postgres'),
      });
      await r.connect();
      await r.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and usename = any($2) and pid <> pg_backend_pid()',
        [name, [RUNTIME_ROLE, GATEWAY_ROLE]],
      );
      await r.end();
      const a = new PgClient({ connectionString: adminUrl() });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
