import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { parseConfig } from '../config/env';
import { openDatabase, type Database } from '../db/connection';
import { runMigrations } from '../db/migrate';
import { ingestFile } from '../client/documents';
import { AnalysisClient } from '../client/analysis-client';
import { ORG, SAMPLES, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** The newcomer's path: no DATABASE_URL, so PGlite is started and served over the wire protocol. */
describe('embedded database end to end', () => {
  let database: Database;
  let worker: TestWorker;

  let server: ChildProcess;

  beforeAll(async () => {
    const env = {
      EMBEDDED_DB_DIR: mkdtempSync(join(tmpdir(), 'cs-pglite-')),
      EMBEDDED_DB_PORT: String(await freePort()),
    };
    // PGlite runs in its own process, as with `npm start`; jest's VM cannot load its WASM module.
    server = spawn(
      process.execPath,
      [require.resolve('tsx/cli'), join(__dirname, '..', 'scripts', 'embedded-db.ts')],
      {
        env: { ...process.env, ...env, DATABASE_URL: '' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve, reject) => {
      server.stdout?.on('data', (b: Buffer) => b.toString().includes('ready') && resolve());
      server.once('exit', (code) => reject(new Error(`embedded db exited ${code}`)));
    });
    const cfg = parseConfig(env);
    expect(cfg.embeddedDatabase).toBe(true);
    database = await openDatabase(cfg);
    await runMigrations(database.db);
    await seedOrgs(database.db);
    worker = await startTestWorker(database);
  });
  afterAll(async () => {
    await worker?.stop();
    await database?.close();
    server?.kill('SIGTERM');
  });

  it('ingests a sample and delivers a cited answer with PGlite as the database', async () => {
    await ingestFile(
      { db: database.db, client: worker.client, taskQueue: worker.taskQueue },
      { orgId: ORG, path: join(SAMPLES, 'northwind-2024-10k.txt') },
    );
    const analysis = new AnalysisClient(worker.client, worker.taskQueue);
    await analysis.start({
      requestId: 'embedded-1',
      orgId: ORG,
      docIds: ['northwind-2024-10k'],
      queryType: 'extract_metric',
      queryText: 'What is the FY2023 net income (in USD millions)?',
    });
    const result = await analysis.result(ORG, 'embedded-1');
    expect(result.outcome).toBe('delivered');
    expect(result.answer?.value).toBe('361000000');
    expect(result.answer?.citations[0]?.quote).toBe('Net income   $ 450   $ 361   $ 292');
  });
});
