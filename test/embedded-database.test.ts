import { join } from 'node:path';
import { parseConfig } from '../config/env';
import { openDatabase, type Database } from '../db/connection';
import { runMigrations } from '../db/migrate';
import { ingestFile } from '../client/documents';
import { AnalysisClient } from '../client/analysis-client';
import { ORG, SAMPLES, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';
import { startEmbeddedDbProcess, type EmbeddedDbProcess } from './support/embedded-db-process';

/** The newcomer's path: no DATABASE_URL, so the embedded PostgreSQL is initialised and served. */
describe('embedded database end to end', () => {
  let database: Database;
  let worker: TestWorker;

  let server: EmbeddedDbProcess | undefined;

  beforeAll(async () => {
    server = await startEmbeddedDbProcess();
    const env = server.env;
    const cfg = parseConfig(env);
    expect(cfg.embeddedDatabase).toBe(true);
    database = await openDatabase(cfg);
    await runMigrations(database);
    await seedOrgs(database.db);
    worker = await startTestWorker(database);
  });
  afterAll(async () => {
    await worker?.stop();
    await database?.close();
    await server?.stop();
  });

  it('ingests a sample and delivers a cited answer with the embedded PostgreSQL as the database', async () => {
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
