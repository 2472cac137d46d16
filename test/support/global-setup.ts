import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startEmbeddedPostgres } from '../../db/embedded-postgres';
import { TEMPLATE_DATABASE, createTemplateDatabase } from './database';
import { startDevServer } from '../../scripts/lib/dev-server';
import { PROJECT_ROOT } from '../../scripts/lib/temporal-binaries';

/**
 * Once per test run: the embedded PostgreSQL (the engine npm start uses; TEST_DATABASE_URL
 * selects another server), a real Temporal dev server (in-memory, test ports, our search
 * attributes) and one workflow bundle that every workflow test reuses.
 */
export default async function globalSetup(): Promise<void> {
  // `CS_UNIT_ONLY=1 npx jest test/x.test.ts` runs pure tests without starting services.
  if (process.env.CS_UNIT_ONLY === '1') return;
  const dir = join(PROJECT_ROOT, '.data', 'test');
  mkdirSync(dir, { recursive: true });
  const port = Number(process.env.CS_TEST_TEMPORAL_PORT ?? 17233);
  // Three independent starts side by side (each waits on I/O or its own process part of the
  // time): PostgreSQL and the migrated template, the dev server, the workflow bundle.
  const started = await Promise.allSettled([
    startDatabase(dir, port),
    startTemporal(dir, port),
    writeWorkflowBundle(dir),
  ]);
  const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  // No delegation-watch schedule per test worker: the tests run the watch themselves.
  process.env.DELEGATION_WATCH_MINUTES ??= '0';
}

async function startDatabase(dir: string, port: number): Promise<void> {
  if (!process.env.TEST_DATABASE_URL) {
    // Each test file creates and drops its own database in this cluster (support/database.ts).
    // Its port follows the dev server's, so two checkouts given two CS_TEST_TEMPORAL_PORTs
    // can run their suites side by side.
    const pgPort = Number(process.env.CS_TEST_PG_PORT ?? port - 1800);
    const postgres = await startEmbeddedPostgres({
      dataDir: join(dir, 'postgres'),
      port: pgPort,
      durability: 'fast',
    }).catch((err: unknown) => {
      throw new Error(
        `The tests' PostgreSQL could not start on port ${pgPort} (set CS_TEST_PG_PORT or CS_TEST_TEMPORAL_PORT to move it): ${err instanceof Error ? err.message : String(err)}`,
      );
    });
    (globalThis as Record<string, unknown>).__CS_POSTGRES__ = postgres;
    process.env.TEST_DATABASE_URL = postgres.url;
  }
  // Migrate once; each test file's database is a copy (support/database.ts).
  await createTemplateDatabase();
  process.env.CS_TEST_TEMPLATE_DB = TEMPLATE_DATABASE;
}

async function startTemporal(dir: string, port: number): Promise<void> {
  const server = await startDevServer(
    {
      port,
      uiPort: port + 1000,
      dbFilename: undefined,
      namespace: 'countersign-test',
      headless: true,
      logLevel: 'error',
    },
    join(dir, 'temporal-dev.log'),
  );
  (globalThis as Record<string, unknown>).__CS_DEV_SERVER__ = server;
  process.env.TEMPORAL_ADDRESS = server.address;
  process.env.TEMPORAL_NAMESPACE = server.namespace;
}

async function writeWorkflowBundle(dir: string): Promise<void> {
  const bundlePath = join(dir, 'workflow-bundle.js');
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflow-bundle'),
    logger: quietLogger,
  });
  writeFileSync(bundlePath, code);
  process.env.CS_TEST_WORKFLOW_BUNDLE = bundlePath;
}

const noop = (): void => undefined;
const quietLogger = {
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: (m: string) => console.error(m),
  log: noop,
};
