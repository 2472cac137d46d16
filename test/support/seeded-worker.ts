import type { Database } from '../../db/connection';
import { createTestDatabase } from './database';
import { seedOrgs } from './fixtures';
import { startTestWorker, type TestWorker } from './worker';

export interface SeededWorker {
  readonly database: Database;
  readonly worker: TestWorker;
  /** What ingestFile and the clients need. */
  deps(): { db: Database['db']; client: TestWorker['client']; taskQueue: string };
}

/**
 * Registers beforeAll/afterAll for the common setup: a fresh migrated database with the two
 * test orgs, and a worker on its own task queue; torn down (awaited) after the block.
 */
export function useSeededWorker(env: Record<string, string> = {}): SeededWorker {
  let database: Database | undefined;
  let worker: TestWorker | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    await seedOrgs(database.db);
    worker = await startTestWorker(database, undefined, env);
  });
  afterAll(async () => {
    await worker?.stop();
    await database?.close();
  });
  const ready = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error('useSeededWorker: used before beforeAll ran');
    return v;
  };
  return {
    get database() {
      return ready(database);
    },
    get worker() {
      return ready(worker);
    },
    deps() {
      const w = ready(worker);
      return { db: ready(database).db, client: w.client, taskQueue: w.taskQueue };
    },
  };
}
