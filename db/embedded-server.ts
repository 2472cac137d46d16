import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { EmbeddedWireServer } from './embedded-wire-server';

/**
 * Embedded PostgreSQL for a newcomer with no server: PGlite keeps its data under an ignored
 * folder and pglite-socket serves it over the Postgres wire protocol, so the worker, the CLI
 * and the tests all use the same `pg` driver as in production. EmbeddedWireServer shares the
 * one PGlite session between connections batch by batch and transaction by transaction.
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
  const server = new EmbeddedWireServer(db);
  await server.listen(opts.port, host);
  return {
    url: `postgres://postgres@${host}:${opts.port}/postgres?sslmode=disable`,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
