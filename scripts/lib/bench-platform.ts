import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { connectClient } from '../../client/temporal-connection';
import { Client as PgClient } from 'pg';
import type { AppConfig } from '../../config/env';
import { openDatabase, type Database } from '../../db/connection';
import { startEmbeddedPostgres } from '../../db/embedded-postgres';
import { runMigrations } from '../../db/migrate';
import { portOpen, startDevServer, type RunningDevServer } from './dev-server';
import { PROJECT_ROOT } from './temporal-binaries';

/**
 * The ports of one suite's platform. With CS_BENCH_TEMPORAL_PORT / CS_BENCH_PG_PORT set (one
 * pair per engineer or CI job), each suite takes base + `offset`, so the suites of one `bench
 * all` run never share a port; without them, the suite's defaults. The defaults sit below the
 * kernel's ephemeral range (32768–60999 on Linux): a listening port inside it can be taken by
 * any client socket as its local end, and the database then cannot start there (a CI run
 * failed so, on 55498).
 */
export function benchPorts(
  offset: number,
  defaults: { temporal: number; pg: number },
  env: NodeJS.ProcessEnv = process.env,
): { temporalPort: number; embeddedPgPort: number } {
  const temporal = env.CS_BENCH_TEMPORAL_PORT;
  const pg = env.CS_BENCH_PG_PORT;
  return {
    temporalPort: temporal ? Number(temporal) + offset : defaults.temporal,
    embeddedPgPort: pg ? Number(pg) + offset : defaults.pg,
  };
}

export interface BenchPlatform {
  server: RunningDevServer;
  database: Database;
  /** The configuration a worker of this bench runs with. */
  runCfg: AppConfig;
}

/**
 * What a benchmark runs against, started on its own and stopped by the caller's `stops`: a dev
 * server on `temporalPort` (in memory), and a fresh, migrated database — a throw-away database
 * on DATABASE_URL's server when it is set, else a throw-away embedded PostgreSQL cluster (the
 * same engine as npm start, without fsync).
 */
export async function bringUpBenchPlatform(
  cfg: AppConfig,
  opts: { name: string; temporalPort: number; embeddedPgPort: number },
  stops: (() => Promise<void>)[],
): Promise<BenchPlatform> {
  if (await portOpen('127.0.0.1', opts.temporalPort))
    throw new Error(`port ${opts.temporalPort} is busy: another bench running?`);
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true }); // a fresh clone has none yet
  const server = await startDevServer(
    {
      port: opts.temporalPort,
      uiPort: opts.temporalPort + 1000,
      dbFilename: undefined,
      namespace: 'countersign-bench',
      headless: true,
      logLevel: 'error',
    },
    join(PROJECT_ROOT, '.data', `bench-${opts.name}-temporal.log`),
  );
  stops.push(server.stop);

  let url: string;
  if (cfg.DATABASE_URL) {
    const admin = cfg.DATABASE_URL;
    const dbName = `cs_bench_${opts.name.replace(/\W/g, '_')}_${process.pid}`;
    const run = async (sql: string) => {
      const c = new PgClient({ connectionString: admin });
      await c.connect();
      await c.query(sql).finally(() => c.end());
    };
    await run(`create database ${dbName}`);
    stops.push(() => run(`drop database if exists ${dbName} with (force)`));
    const u = new URL(admin);
    u.pathname = `/${dbName}`;
    url = u.toString();
  } else {
    const dir = mkdtempSync(join(tmpdir(), `cs-bench-${opts.name}-`));
    chmodSync(dir, 0o755); // reachable by the postgres OS user when run as root
    const embedded = await startEmbeddedPostgres({
      dataDir: join(dir, 'pg'),
      port: opts.embeddedPgPort,
      durability: 'fast',
    });
    stops.push(async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    });
    url = embedded.url;
  }
  const runCfg: AppConfig = {
    ...cfg,
    DATABASE_URL: url,
    TEMPORAL_ADDRESS: server.address,
    TEMPORAL_NAMESPACE: server.namespace,
    embeddedDatabase: false,
    // A throw-away database: its audit heads must not reach the installation's anchors file.
    AUDIT_ANCHOR_EVERY_MINUTES: 0,
  };
  const database = await openDatabase({ ...runCfg, DB_POOL_SIZE: 16 });
  stops.push(database.close);
  await runMigrations(database);
  return { server, database, runCfg };
}

/**
 * Runs a bench's in-process worker until the bench stops (drained, then its connection
 * closed) and returns a client on the bench's dev server, closed at the stop too.
 */
export async function runBenchWorker(
  started: {
    worker: { run(): Promise<void>; shutdown(): void };
    connection: { close(): Promise<void> };
  },
  platform: { runCfg: AppConfig; database: Database },
  stops: (() => Promise<void>)[],
): Promise<Client> {
  const { worker, connection } = started;
  const running = worker.run();
  stops.push(async () => {
    worker.shutdown();
    await running;
    await connection.close();
  });
  // The installation's client: the same payload codec as the worker (or none when the bench
  // runs with TEMPORAL_PAYLOAD_CODEC=off).
  const client = await connectClient(platform.runCfg, platform.database.db);
  stops.push(() => client.connection.close());
  return client;
}
