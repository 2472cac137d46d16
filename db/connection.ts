import { Pool } from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema';
import { createHmac } from 'node:crypto';
import { ConfigError, type AppConfig } from '../config/env';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: Pool;
  /** What `db` is connected to: the runtime role's URL unless opened as the owner. */
  url: string;
  /** The owner's URL: migrations (and tests playing an attacker with owner access) use it. */
  ownerUrl: string;
  close(): Promise<void>;
}

/** The role the platform runs as (migration 0006 creates it; the migrate step enables login). */
export const RUNTIME_ROLE = 'countersign_runtime';

/**
 * The runtime role's password: DATABASE_RUNTIME_PASSWORD, else an HMAC-SHA-256 of the owner's
 * password over the server's address. Never a fixed default: each cluster (each embedded data
 * folder, whose superuser password is random) gets its own, every process holding the owner URL
 * derives the same one, and the owner's password cannot be recovered from it.
 */
export function runtimePasswordFor(
  cfg: Pick<AppConfig, 'DATABASE_RUNTIME_PASSWORD'>,
  ownerUrl: string,
): string {
  if (cfg.DATABASE_RUNTIME_PASSWORD) return cfg.DATABASE_RUNTIME_PASSWORD;
  const u = new URL(ownerUrl);
  const ownerPassword = decodeURIComponent(u.password);
  if (!ownerPassword)
    throw new ConfigError(
      'DATABASE_URL has no password to derive the countersign_runtime password from: set DATABASE_RUNTIME_PASSWORD (at least 8 characters) or DATABASE_RUNTIME_URL',
    );
  return createHmac('sha256', ownerPassword)
    .update(`${RUNTIME_ROLE}@${u.hostname}:${u.port || '5432'}`)
    .digest('base64url');
}

/** DATABASE_RUNTIME_URL, or the owner URL with the runtime role and its password. */
export function runtimeUrlFor(cfg: AppConfig, ownerUrl: string): string {
  if (cfg.DATABASE_RUNTIME_URL) return cfg.DATABASE_RUNTIME_URL;
  const u = new URL(ownerUrl);
  // Already the runtime role's own URL (a child process handed a Database's url): as is.
  if (decodeURIComponent(u.username) === RUNTIME_ROLE) return ownerUrl;
  u.username = RUNTIME_ROLE;
  u.password = runtimePasswordFor(cfg, ownerUrl);
  return u.toString();
}

/**
 * The seeding path's connections: a 'system' submission (an org's default chart, first
 * grants — written with no approver, because none exists yet) may be registered and applied
 * only by the database owner (migration 0020), never by the runtime role every worker, API,
 * CLI and MCP process holds. `applySystemWrites` asks for the owner's connection here, opened
 * on first use for the database a runtime `db` belongs to and closed with it.
 */
const seedingConnections = new WeakMap<Db, { ownerUrl: string; owner?: { db: Db; pool: Pool } }>();

export class SeedingConnectionMissing extends Error {
  override readonly name = 'SeedingConnectionMissing';
}

/** The owner's connection for the database `db` was opened on (by openDatabase). */
export function seedingDbFor(db: Db): Db {
  const entry = seedingConnections.get(db);
  if (!entry)
    throw new SeedingConnectionMissing(
      'system writes need the database owner: open the database with openDatabase (it knows DATABASE_URL)',
    );
  if (!entry.owner) {
    const pool = new Pool({ connectionString: entry.ownerUrl, max: 2 });
    pool.on('error', () => undefined);
    pool.on('connect', (client) => client.on('error', () => undefined));
    entry.owner = { db: drizzle(pool, { schema }), pool };
  }
  return entry.owner.db;
}

/**
 * Connects to DATABASE_URL, or to the embedded PostgreSQL of EMBEDDED_DB_DIR: the one already
 * running for that folder (started by another process of ours), else one started here and
 * stopped on close. As the runtime role unless `as: 'owner'` (the pool connects lazily, so
 * migrating right after opening — runMigrations(database) — works on a fresh database).
 */
export async function openDatabase(
  cfg: AppConfig,
  opts: { as?: 'owner' | 'runtime' } = {},
): Promise<Database> {
  let url = cfg.DATABASE_URL;
  let embedded: EmbeddedPostgres | undefined;
  if (url === undefined) {
    embedded = await startEmbeddedPostgres({
      dataDir: cfg.EMBEDDED_DB_DIR,
      port: cfg.EMBEDDED_DB_PORT,
    });
    url = embedded.url;
  }
  const ownerUrl = url;
  if (opts.as !== 'owner') url = runtimeUrlFor(cfg, ownerUrl);
  const pool = new Pool({
    connectionString: url,
    max: cfg.DB_POOL_SIZE ?? 10,
  });
  // A client losing its server (a database restart, a dropped connection) must not crash the
  // process: idle clients report on the pool, checked-out ones on themselves; the query in
  // flight fails (its activity retries) and the pool replaces the broken client.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzle(pool, { schema });
  const seeding: { ownerUrl: string; owner?: { db: Db; pool: Pool } } =
    opts.as === 'owner' ? { ownerUrl, owner: { db, pool } } : { ownerUrl };
  seedingConnections.set(db, seeding);
  return {
    db,
    pool,
    url,
    ownerUrl,
    async close() {
      if (seeding.owner && seeding.owner.pool !== pool) await seeding.owner.pool.end();
      await pool.end();
      await embedded?.stop();
    },
  };
}
