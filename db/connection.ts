import { createConnection } from 'node:net';
import { Pool } from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema';
import type { AppConfig } from '../config/env';
import { startEmbeddedServer, type EmbeddedServer } from './embedded-server';

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

/** DATABASE_RUNTIME_URL, or the owner URL with the runtime role and its configured password. */
export function runtimeUrlFor(cfg: AppConfig, ownerUrl: string): string {
  if (cfg.DATABASE_RUNTIME_URL) return cfg.DATABASE_RUNTIME_URL;
  const u = new URL(ownerUrl);
  u.username = RUNTIME_ROLE;
  u.password = cfg.DATABASE_RUNTIME_PASSWORD;
  return u.toString();
}

function portIsOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolveOpen) => {
    const socket = createConnection({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolveOpen(true);
    });
    socket.once('error', () => resolveOpen(false));
  });
}

/**
 * Connects to DATABASE_URL, or to the embedded database: the one already served on
 * EMBEDDED_DB_PORT by another process of ours, else one started inside this process. As the
 * runtime role unless `as: 'owner'` (the pool connects lazily, so migrating right after
 * opening — runMigrations(database) — works on a fresh database).
 */
export async function openDatabase(
  cfg: AppConfig,
  opts: { as?: 'owner' | 'runtime' } = {},
): Promise<Database> {
  let url = cfg.DATABASE_URL;
  let embedded: EmbeddedServer | undefined;
  if (url === undefined) {
    const host = '127.0.0.1';
    if (!(await portIsOpen(host, cfg.EMBEDDED_DB_PORT))) {
      embedded = await startEmbeddedServer({
        dataDir: cfg.EMBEDDED_DB_DIR,
        port: cfg.EMBEDDED_DB_PORT,
        host,
      });
    }
    url = `postgres://postgres@${host}:${cfg.EMBEDDED_DB_PORT}/postgres?sslmode=disable`;
  }
  const ownerUrl = url;
  if (opts.as !== 'owner') url = runtimeUrlFor(cfg, ownerUrl);
  const pool = new Pool({
    connectionString: url,
    max: cfg.DB_POOL_SIZE ?? (cfg.embeddedDatabase ? 4 : 10),
  });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return {
    db,
    pool,
    url,
    ownerUrl,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
