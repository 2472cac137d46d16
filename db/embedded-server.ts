import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Embedded PostgreSQL for a newcomer with no server: PGlite keeps its data under an ignored
 * folder and pglite-socket serves it over the Postgres wire protocol, so the worker, the CLI
 * and the tests all use the same `pg` driver as in production. pglite-socket queues queries
 * from several connections and keeps a transaction's statements on their own connection.
 */
export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedServer(opts: {
  dataDir: string;
  port: number;
  host?: string;
}): Promise<EmbeddedServer> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir });
  const host = opts.host ?? '127.0.0.1';
  const server = new PGLiteSocketServer({ db, port: opts.port, host, maxConnections: 32 });
  await server.start();
  return {
    url: `postgres://postgres@${host}:${opts.port}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
