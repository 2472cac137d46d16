import { join } from 'node:path';
import type { Database } from '../../db/connection';
import { AnalysisClient } from '../../client/analysis-client';
import { ingestFile } from '../../client/documents';
import { createTestDatabase } from './database';
import { ORG, SAMPLES, seedOrgs } from './fixtures';
import { startTestWorker, type TestWorker } from './worker';

export const TEN_K = 'northwind-2024-10k';
export const PILLAR3 = 'harbor-bank-2024-pillar3';

export interface AnalysisEnv {
  database: Database;
  worker: TestWorker;
  analysis: AnalysisClient;
  close(): Promise<void>;
}

/** A migrated database with two orgs, a worker, and the sample documents ingested for ORG. */
export async function startAnalysisEnv(
  activityOverrides?: Record<string, (...args: never[]) => unknown>,
): Promise<AnalysisEnv> {
  const database = await createTestDatabase();
  await seedOrgs(database.db);
  const worker = await startTestWorker(database, activityOverrides);
  const deps = { db: database.db, client: worker.client, taskQueue: worker.taskQueue };
  await ingestFile(deps, { orgId: ORG, path: join(SAMPLES, `${TEN_K}.txt`), docType: '10-K' });
  await ingestFile(deps, {
    orgId: ORG,
    path: join(SAMPLES, `${PILLAR3}.html`),
    docType: 'Pillar 3',
  });
  return {
    database,
    worker,
    analysis: new AnalysisClient(worker.client, worker.taskQueue),
    async close() {
      await worker.stop();
      await database.close();
    },
  };
}
