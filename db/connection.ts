import { Pool } from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema';
import type { AppConfig } from '../config/env';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded-postgres';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: Pool;
  url: string;
  close(): Promise<void>;
}

/**
 * Connects to DATABASE_URL, or to the embedded PostgreSQL of EMBEDDED_DB_DIR: the one already
 * running for that folder (started by another process of ours), else one started here and
 * stopped on close.
 */
export async function openDatabase(cfg: AppConfig): Promise<Database> {
  let url = cfg.DATABASE_URL;
  let embedded: EmbeddedPostgres | undefined;
  if (url === undefined) {
    embedded = await startEmbeddedPostgres({
      dataDir: cfg.EMBEDDED_DB_DIR,
      port: cfg.EMBEDDED_DB_PORT,
    });
    url = embedded.url;
  }
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
  return {
    db,
    pool,
    url,
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
