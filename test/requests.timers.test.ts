import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { createRequestsActivities } from '../activities/requests';
import { RequestsClient } from '../client/requests-client';
import { requestEvents } from '../db/repositories/requests';
import type { Database } from '../db/connection';
import { CsOrg, CsState } from '../workflows/analysis.contract';
import type { RequestView } from '../workflows/requests/contract';
import { PROJECT_ROOT } from '../scripts/lib/temporal-binaries';
import { createTestDatabase } from './support/database';
import { workflowBundle } from './support/worker';
import { OWNER, RORG, classification, seedRequestOrgs } from './requests.fixtures';

/**
 * The request workflow on the time-skipping test server (days pass in milliseconds) with the
 * real request activities over PostgreSQL; the callback event is recorded at the activity seam.
 */
let testEnv: TestWorkflowEnvironment;
let database: Database;
let requests: RequestsClient;
const callbacks: unknown[] = [];
const taskQueue = `requests-${randomBytes(4).toString('hex')}`;

function testServerPath(): string {
  const path =
    process.env.TEMPORAL_TEST_SERVER || join(PROJECT_ROOT, '.tools', 'bin', 'temporal-test-server');
  if (!existsSync(path)) throw new Error(`temporal-test-server not found at ${path}`);
  return path;
}

let worker: Worker | undefined;
let running: Promise<void> | undefined;

/**
 * One worker for the file: requests opened by one test keep their timers, and time skipped
 * for the next test must find a worker for them (a worker per test would leave their tasks
 * on a dead worker's sticky queue, which holds the skipping clock).
 */
async function startWorker(): Promise<void> {
  const acts = createRequestsActivities({
    db: database.db,
    client: testEnv.client,
    taskQueue,
    notifier: null,
    anthropic: null,
    model: 'claude-haiku-4-5',
  });
  worker = await Worker.create({
    connection: testEnv.nativeConnection,
    namespace: testEnv.namespace ?? 'default',
    taskQueue,
    workflowBundle: workflowBundle(),
    activities: {
      ...acts,
      requestEmitCallback: (c: unknown) => {
        callbacks.push(c);
        return Promise.resolve({ eventId: 'evt_recorded', status: 'accepted' });
      },
    },
  });
  running = worker.run();
}

const withWorker = <R>(fn: () => Promise<R>): Promise<R> => fn();

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  testEnv = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: testServerPath() } },
  });
  await testEnv.connection.operatorService.addSearchAttributes({
    namespace: testEnv.namespace ?? 'default',
    searchAttributes: Object.fromEntries(
      [CsOrg, CsState].map((k) => [
        k.name,
        temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
      ]),
    ),
  });
  database = await createTestDatabase();
  await seedRequestOrgs(database.db);
  requests = new RequestsClient(testEnv.client, database.db, { taskQueue });
  await startWorker();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await testEnv?.teardown();
  await database?.close();
});

describe('request timers', () => {
  it('reminds when due (day 14) and every 7 days, then expires at day 90 with the reminders counted', async () => {
    await withWorker(async () => {
      const c = await requests.createRequest(classification());
      const result = (await requests.result(RORG, c.requestId)) as RequestView;
      expect(result.status).toBe('expired');
      // Days 14, 21, ..., 84: eleven reminders before the expiry at day 90.
      expect(result.remindersSent).toBe(11);
      const events = await requestEvents(database.db, c.requestId);
      expect(events.filter((e) => e.kind === 'reminded')).toHaveLength(11);
      expect(events.at(-1)?.kind).toBe('expired');
      const row = await requests.getRequest(RORG, c.requestId);
      expect([row?.status, row?.remindersSent]).toEqual(['expired', 11]);
      expect(await requests.listInbox({ orgId: RORG, userId: OWNER })).not.toContainEqual(
        expect.objectContaining({ requestId: c.requestId }),
      );
    });
  });
});
