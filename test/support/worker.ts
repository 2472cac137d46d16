import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { connectClient } from '../../client/temporal-connection';
import { parseConfig, type AppConfig } from '../../config/env';
import type { Database } from '../../db/connection';
import { createWorker } from '../../worker';

/** The env a test passes to run its worker and clients with the payload codec on. */
export const WITH_CODEC = { TEMPORAL_PAYLOAD_CODEC: 'aes-256-gcm' } as const;

export function testConfig(database?: Database, extra: Record<string, string> = {}): AppConfig {
  return parseConfig({
    TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS,
    TEMPORAL_NAMESPACE: process.env.TEMPORAL_NAMESPACE,
    DATABASE_URL: database?.url,
    // Test databases are thrown away: their heads must never reach the installation's
    // anchors file (.data/audit-anchors.jsonl), where `audit verify` would find them missing.
    // The anchor tests pass their own file and schedule.
    AUDIT_ANCHOR_EVERY_MINUTES: '0',
    // Every test file has its own database — its own codec data keys — but all share one
    // Temporal namespace and many reuse org ids and workflow ids: a payload one file's worker
    // encrypted is unreadable in another's. Tests run clear; the codec's own tests
    // (test/codec.*) turn it on with WITH_CODEC, and npm start, the evals, the benches and the
    // fault suite run with it.
    TEMPORAL_PAYLOAD_CODEC: 'off',
    ...extra,
  });
}

export function workflowBundle(): { code: string } {
  const path = process.env.CS_TEST_WORKFLOW_BUNDLE;
  if (!path) throw new Error('CS_TEST_WORKFLOW_BUNDLE not set: jest globalSetup did not run');
  return { code: readFileSync(path, 'utf8') };
}

export interface TestWorker {
  client: Client;
  taskQueue: string;
  stop(): Promise<void>;
}

/** A real worker on its own task queue against the real dev server and the given database. */
export async function startTestWorker(
  database: Database,
  activityOverrides?: Record<string, (...args: never[]) => unknown>,
  env: Record<string, string> = {},
): Promise<TestWorker> {
  const cfg = testConfig(database, env);
  const taskQueue = `test-${randomBytes(4).toString('hex')}`;
  const { worker, connection } = await createWorker({
    cfg,
    database,
    taskQueue,
    workflowBundle: workflowBundle(),
    activityOverrides,
  });
  const running = worker.run();
  // With the worker's payload codec (same master key file, same database's data keys).
  const client = await connectClient(cfg, database.db);
  return {
    client,
    taskQueue,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
      await client.connection.close();
    },
  };
}
