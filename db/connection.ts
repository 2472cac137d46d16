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
  url: string;
  close(): Promise<void>;
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
 * EMBEDDED_DB_PORT by another process of ours, else one started inside this process.
 */
export async function openDatabase(cfg: AppConfig): Promise<Database> {
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
    async close() {
      await pool.end();
      await embedded?.stop();
    },
  };
}
