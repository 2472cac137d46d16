import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { loadConfig, type AppConfig } from '../../config/env';
import { openDatabase, type Database } from '../../db/connection';
import { runMigrations } from '../../db/migrate';
import { startEmbeddedPostgres } from '../../db/embedded-postgres';
import { startDevServer } from './dev-server';
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
 * the embedded PostgreSQL under .data/postgres), migrated. Reuses what is already running.
 */
export async function bringUpPlatform(
  opts: {
    poolSize?: number;
    /** The caller's stop list: each service is added as soon as it is up (Ctrl-C mid start-up). */
    stops?: (() => Promise<void>)[];
    /** The Web UI's codec server (`npm start`: its API's /codec), when it starts the dev server. */
    uiCodecEndpoint?: string;
  } = {},
): Promise<Platform> {
  const cfg = loadConfig();
  const dataDir = join(PROJECT_ROOT, '.data');
  mkdirSync(dataDir, { recursive: true });
  const stops: (() => Promise<void>)[] = opts.stops ?? [];
  const log: string[] = [];
  let uiUrl: string | null = null;
  if (process.env.TEMPORAL_ADDRESS === undefined) {
    const server = await startDevServer(
      opts.uiCodecEndpoint ? { uiCodecEndpoint: opts.uiCodecEndpoint } : {},
      join(dataDir, 'temporal-dev.log'),
    );
    stops.push(server.stop);
    uiUrl = server.uiUrl;
    log.push(
      `Temporal dev server ${server.startedHere ? 'started' : 'reused'} at ${server.address}`,
    );
  }
  let databaseUrl = cfg.DATABASE_URL;
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres({
      dataDir: resolve(PROJECT_ROOT, cfg.EMBEDDED_DB_DIR),
      port: cfg.EMBEDDED_DB_PORT,
    });
    stops.push(embedded.stop);
    databaseUrl = embedded.url;
    log.push(
      `Embedded PostgreSQL ${embedded.startedHere ? 'started' : 'reused'} at 127.0.0.1:${cfg.EMBEDDED_DB_PORT}, data in ${embedded.dataDir}`,
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
      for (const stop of [...stops].reverse()) await stop().catch(() => undefined);
    },
  };
}
