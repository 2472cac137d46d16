import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { loadConfig, type AppConfig } from '../../config/env';
import { openDatabase, type Database } from '../../db/connection';
import { runMigrations } from '../../db/migrate';
import { startEmbeddedServer, type EmbeddedServer } from '../../db/embedded-server';
import { portOpen, startDevServer } from './dev-server';
import { PROJECT_ROOT } from './temporal-binaries';

export interface Platform {
  cfg: AppConfig;
  database: Database;
  /** The URL other processes (a worker) use to reach the same database. */
  databaseUrl: string;
  uiUrl: string | null;
  log: string[];
  stop(): Promise<void>;
}

/**
 * Brings up what the platform needs on embedded defaults: the Temporal dev server from
 * temporal-dev.yaml (unless TEMPORAL_ADDRESS is set) and the database (DATABASE_URL, else
 * embedded PGlite served over the wire protocol), migrated. Reuses what is already running.
 */
export async function bringUpPlatform(opts: { poolSize?: number } = {}): Promise<Platform> {
  const cfg = loadConfig();
  const dataDir = join(PROJECT_ROOT, '.data');
  mkdirSync(dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  const log: string[] = [];
  let uiUrl: string | null = null;
  if (process.env.TEMPORAL_ADDRESS === undefined) {
    const server = await startDevServer({}, join(dataDir, 'temporal-dev.log'));
    stops.push(server.stop);
    uiUrl = server.uiUrl;
    log.push(
      `Temporal dev server ${server.startedHere ? 'started' : 'reused'} at ${server.address}`,
    );
  }
  let databaseUrl = cfg.DATABASE_URL;
  if (!databaseUrl) {
    let embedded: EmbeddedServer | undefined;
    if (!(await portOpen('127.0.0.1', cfg.EMBEDDED_DB_PORT))) {
      embedded = await startEmbeddedServer({
        dataDir: join(PROJECT_ROOT, cfg.EMBEDDED_DB_DIR),
        port: cfg.EMBEDDED_DB_PORT,
      });
      stops.push(embedded.stop);
    }
    databaseUrl = `postgres://postgres@127.0.0.1:${cfg.EMBEDDED_DB_PORT}/postgres?sslmode=disable`;
    log.push(
      `Embedded PostgreSQL (PGlite) ${embedded ? 'started' : 'reused'} at 127.0.0.1:${cfg.EMBEDDED_DB_PORT}, data in ${cfg.EMBEDDED_DB_DIR}`,
    );
  }
  const database = await openDatabase({
    ...cfg,
    DATABASE_URL: databaseUrl,
    embeddedDatabase: false,
    DB_POOL_SIZE: opts.poolSize ?? 4,
  });
  stops.push(database.close);
  await runMigrations(database);
  return {
    cfg,
    database,
    databaseUrl,
    uiUrl,
    log,
    async stop() {
      for (const stop of stops.reverse()) await stop().catch(() => undefined);
    },
  };
}
