import { resolve } from 'node:path';
import { Client as PgClient, type Pool } from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { resilientPool } from './resilient-pool';
import { GATEWAY_ROLE, RUNTIME_ROLE, type Database, type Db } from './connection';

export const MIGRATIONS_FOLDER = resolve(__dirname, 'migrations');

/**
 * Applies the committed migrations (never `drizzle-kit push`) as the owner, then makes sure the
 * runtime and gateway roles can log in with the configured passwords. An advisory lock makes it safe when
 * several workers start at once: the first applies, the others find nothing to do.
 */
export async function runMigrations(
  database: Pick<Database, 'url' | 'ownerUrl' | 'gatewayUrl'>,
): Promise<void> {
  // A worker may be migrating when PostgreSQL goes down: the transaction fails and is retried
  // (worker.ts, untilReachable); the process must not die of the connection's error event.
  const pool = resilientPool(database.ownerUrl, 1);
  try {
    const owner: Db = drizzle(pool) as unknown as Db;
    await owner.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(72657301)`);
      await migrate(tx as unknown as Db, { migrationsFolder: MIGRATIONS_FOLDER });
    });
    // `url` is the runtime role's, unless the database was opened as the gateway or the owner.
    if (database.url !== database.ownerUrl && database.url !== database.gatewayUrl)
      await enableLogin(pool, RUNTIME_ROLE, database.url);
    if (database.gatewayUrl && database.gatewayUrl !== database.ownerUrl)
      await enableLogin(pool, GATEWAY_ROLE, database.gatewayUrl);
  } finally {
    await pool.end();
  }
}

async function canConnect(url: string): Promise<{ ok: true } | { ok: false; code: string }> {
  const c = new PgClient({ connectionString: url });
  c.on('error', () => undefined);
  try {
    await c.connect();
    await c.query('select 1');
    return { ok: true };
  } catch (err) {
    return { ok: false, code: String((err as { code?: unknown }).code ?? 'unknown') };
  } finally {
    await c.end().catch(() => undefined);
  }
}

/**
 * A platform role is cluster-wide and has no LOGIN when a migration creates it: give it LOGIN
 * and the configured password, unless its URL already connects (another database of the
 * cluster did it, or an operator manages the role). Other migrating processes may alter the
 * role at the same moment ("tuple concurrently updated"): retried.
 */
async function enableLogin(
  owner: Pool,
  role: typeof RUNTIME_ROLE | typeof GATEWAY_ROLE,
  roleUrl: string,
): Promise<void> {
  const first = await canConnect(roleUrl);
  if (first.ok) return;
  const u = new URL(roleUrl);
  if (decodeURIComponent(u.username) !== role)
    throw new Error(
      `${role === RUNTIME_ROLE ? 'DATABASE_RUNTIME_URL' : 'DATABASE_GATEWAY_URL'} connects as ${u.username}, which cannot log in (${first.code}); make it a LOGIN member of ${role}`,
    );
  const client = await owner.connect();
  try {
    const literal = client.escapeLiteral(decodeURIComponent(u.password));
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`alter role ${role} login password ${literal}`);
        break;
      } catch (err) {
        if (attempt >= 5) throw err;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  } catch (err) {
    throw new Error(
      `cannot enable login for ${role} (${first.code}): the migrating role needs CREATEROLE, or set ${role === RUNTIME_ROLE ? 'DATABASE_RUNTIME_URL' : 'DATABASE_GATEWAY_URL'} to a role that can log in: ${(err as Error).message}`,
    );
  } finally {
    client.release();
  }
  const after = await canConnect(roleUrl);
  if (!after.ok) throw new Error(`${role} still cannot connect (${after.code})`);
}

if (require.main === module) {
  void (async () => {
    const { loadConfig } = await import('../config/env');
    const { openDatabase } = await import('./connection');
    const database = await openDatabase(loadConfig());
    try {
      await runMigrations(database);
      console.log('migrations applied');
    } finally {
      await database.close();
    }
  })().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
