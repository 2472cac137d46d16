import type { Pool } from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema';
import { createHmac } from 'node:crypto';
import { ConfigError, type AppConfig } from '../config/env';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';
import { resilientPool } from './resilient-pool';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: Pool;
  /** What `db` is connected to: the runtime role's URL unless opened as the owner. */
  url: string;
  /** The owner's URL: migrations (and tests playing an attacker with owner access) use it. */
  ownerUrl: string;
  /** The gateway role's URL (gatewayUrlFor); undefined when the process cannot derive it. */
  gatewayUrl?: string;
  close(): Promise<void>;
}

/** The role the platform runs as (migration 0006 creates it; the migrate step enables login). */
export const RUNTIME_ROLE = 'countersign_runtime';

/**
 * The gateway worker's own role (migration 0034): a member of countersign_runtime that alone
 * may register submissions, record votes and open an apply. Only the gateway domain connects as
 * it; the API, CLI and MCP hold the runtime credential and cannot approve a write.
 */
export const GATEWAY_ROLE = 'countersign_gateway';

type PlatformRole = typeof RUNTIME_ROLE | typeof GATEWAY_ROLE;

const passwordSetting: Record<PlatformRole, { password: string; url: string }> = {
  [RUNTIME_ROLE]: { password: 'DATABASE_RUNTIME_PASSWORD', url: 'DATABASE_RUNTIME_URL' },
  [GATEWAY_ROLE]: { password: 'DATABASE_GATEWAY_PASSWORD', url: 'DATABASE_GATEWAY_URL' },
};

/**
 * A platform role's password: the configured one, else an HMAC-SHA-256 of the owner's password
 * over the role and the server's address. Never a fixed default: each cluster (each embedded
 * data folder, whose superuser password is random) gets its own, every process holding the
 * owner URL derives the same one, and the owner's password cannot be recovered from it.
 */
function derivedPassword(role: PlatformRole, configured: string | undefined, ownerUrl: string) {
  if (configured) return configured;
  const u = new URL(ownerUrl);
  const ownerPassword = decodeURIComponent(u.password);
  if (!ownerPassword)
    throw new ConfigError(
      `DATABASE_URL has no password to derive the ${role} password from: set ${passwordSetting[role].password} (at least 8 characters) or ${passwordSetting[role].url}`,
    );
  return createHmac('sha256', ownerPassword)
    .update(`${role}@${u.hostname}:${u.port || '5432'}`)
    .digest('base64url');
}

/** The runtime role's password: DATABASE_RUNTIME_PASSWORD, else derived (derivedPassword). */
export function runtimePasswordFor(
  cfg: Pick<AppConfig, 'DATABASE_RUNTIME_PASSWORD'>,
  ownerUrl: string,
): string {
  return derivedPassword(RUNTIME_ROLE, cfg.DATABASE_RUNTIME_PASSWORD, ownerUrl);
}

/** The gateway role's password: DATABASE_GATEWAY_PASSWORD, else derived (derivedPassword). */
export function gatewayPasswordFor(
  cfg: Pick<AppConfig, 'DATABASE_GATEWAY_PASSWORD'>,
  ownerUrl: string,
): string {
  return derivedPassword(GATEWAY_ROLE, cfg.DATABASE_GATEWAY_PASSWORD, ownerUrl);
}

const userOf = (url: string) => decodeURIComponent(new URL(url).username);

function withRole(ownerUrl: string, role: PlatformRole, password: string): string {
  const u = new URL(ownerUrl);
  u.username = role;
  u.password = password;
  return u.toString();
}

/** DATABASE_RUNTIME_URL, or the owner URL with the runtime role and its password. */
export function runtimeUrlFor(cfg: AppConfig, ownerUrl: string): string {
  if (cfg.DATABASE_RUNTIME_URL) return cfg.DATABASE_RUNTIME_URL;
  // Already a platform role's own URL (a child process handed a Database's url, or a
  // deployment giving each process only its role's URL): as is. The gateway role is a member
  // of the runtime role, so a gateway worker needs no second credential.
  if (userOf(ownerUrl) === RUNTIME_ROLE || userOf(ownerUrl) === GATEWAY_ROLE) return ownerUrl;
  return withRole(ownerUrl, RUNTIME_ROLE, runtimePasswordFor(cfg, ownerUrl));
}

/**
 * DATABASE_GATEWAY_URL, or the owner URL with the gateway role and its password; undefined for
 * a process handed only the runtime role's URL, which cannot derive it (by design: such a
 * process cannot serve the gateway domain).
 */
export function gatewayUrlFor(cfg: AppConfig, ownerUrl: string): string | undefined {
  if (cfg.DATABASE_GATEWAY_URL) return cfg.DATABASE_GATEWAY_URL;
  const user = userOf(ownerUrl);
  if (user === GATEWAY_ROLE) return ownerUrl;
  if (user === RUNTIME_ROLE) return undefined;
  return withRole(ownerUrl, GATEWAY_ROLE, gatewayPasswordFor(cfg, ownerUrl));
}

type Handle = { db: Db; pool: Pool };

function openPool(url: string, max: number): Handle {
  const pool = resilientPool(url, max);
  return { db: drizzle(pool, { schema }), pool };
}

/**
 * The other roles' connections of a database a `db` was opened on, each opened on first use
 * and closed with it:
 * - the owner's, for the seeding path: a 'system' submission (an org's default chart, first
 *   grants — written with no approver, because none exists yet) may be registered and applied
 *   only by the database owner (migration 0020). `applySystemWrites` asks for it (seedingDbFor).
 * - the gateway role's, for the gateway's activities (gatewayDbFor, migration 0034).
 */
interface Companions {
  ownerUrl: string;
  gatewayUrl?: string;
  poolMax: number;
  owner?: Handle;
  gateway?: Handle;
}
const companions = new WeakMap<Db, Companions>();

export class SeedingConnectionMissing extends Error {
  override readonly name = 'SeedingConnectionMissing';
}

/** The credential the gateway domain needs is not in this process's configuration. */
export class GatewayConnectionMissing extends Error {
  override readonly name = 'GatewayConnectionMissing';
}

/** The owner's connection for the database `db` was opened on (by openDatabase). */
export function seedingDbFor(db: Db): Db {
  const entry = companions.get(db);
  if (!entry)
    throw new SeedingConnectionMissing(
      'system writes need the database owner: open the database with openDatabase (it knows DATABASE_URL)',
    );
  entry.owner ??= openPool(entry.ownerUrl, 2);
  return entry.owner.db;
}

/**
 * The gateway role's connection for the database `db` was opened on: `db` itself when it was
 * opened as the gateway (or the owner), else a pool of its own. A process configured with
 * only the runtime role's URL has none, and cannot register, vote or apply.
 */
export function gatewayDbFor(db: Db): Db {
  const entry = companions.get(db);
  if (!entry)
    throw new GatewayConnectionMissing(
      'the gateway needs its own database role: open the database with openDatabase',
    );
  if (!entry.gateway) {
    if (!entry.gatewayUrl)
      throw new GatewayConnectionMissing(
        `this process holds only the ${RUNTIME_ROLE} credential: the gateway domain needs DATABASE_GATEWAY_URL (or DATABASE_URL, the owner, to derive it)`,
      );
    entry.gateway = openPool(entry.gatewayUrl, entry.poolMax);
  }
  return entry.gateway.db;
}

/**
 * Connects to DATABASE_URL, or to the embedded PostgreSQL of EMBEDDED_DB_DIR: the one already
 * running for that folder (started by another process of ours), else one started here and
 * stopped on close. As the runtime role unless `as` says the owner or the gateway (the pool
 * connects lazily, so migrating right after opening — runMigrations(database) — works on a
 * fresh database).
 */
export async function openDatabase(
  cfg: AppConfig,
  opts: { as?: 'owner' | 'runtime' | 'gateway' } = {},
): Promise<Database> {
  let ownerUrl = cfg.DATABASE_URL;
  let embedded: EmbeddedPostgres | undefined;
  if (ownerUrl === undefined) {
    embedded = await startEmbeddedPostgres({
      dataDir: cfg.EMBEDDED_DB_DIR,
      port: cfg.EMBEDDED_DB_PORT,
    });
    ownerUrl = embedded.url;
  }
  const gatewayUrl = gatewayUrlFor(cfg, ownerUrl);
  const as = opts.as ?? 'runtime';
  if (as === 'gateway' && !gatewayUrl)
    throw new GatewayConnectionMissing(
      `cannot open the database as ${GATEWAY_ROLE}: set DATABASE_GATEWAY_URL (or DATABASE_URL, the owner)`,
    );
  const url =
    as === 'owner'
      ? ownerUrl
      : as === 'gateway'
        ? (gatewayUrl as string)
        : runtimeUrlFor(cfg, ownerUrl);
  const poolMax = cfg.DB_POOL_SIZE ?? 10;
  const own = openPool(url, poolMax);
  const entry: Companions = { ownerUrl, gatewayUrl, poolMax };
  if (as === 'owner') entry.owner = entry.gateway = own;
  if (as === 'gateway') entry.gateway = own;
  companions.set(own.db, entry);
  return {
    db: own.db,
    pool: own.pool,
    url,
    ownerUrl,
    gatewayUrl,
    async close() {
      for (const other of new Set([entry.owner, entry.gateway]))
        if (other && other !== own) await other.pool.end();
      await own.pool.end();
      await embedded?.stop();
    },
  };
}
