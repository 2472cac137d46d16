import { randomBytes } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { GatewayClient } from '../client/gateway-client';
import { createGatewayActivities } from '../activities/gateway';
import { createIdentityActivities } from '../activities/identity';
import { createRequestsActivities } from '../activities/requests';
import { RequestsClient } from '../client/requests-client';
import { EventsClient } from '../client/events-client';
import { auditTrail } from '../db/repositories/audit';
import type { Database } from '../db/connection';
import { CsRiskLane, CsWriteKind } from '../workflows/gateway.contract';
import { DEFAULT_APPROVAL_DUE_MS, DEFAULT_APPROVAL_EXPIRE_MS } from '../workflows/gateway/writes';
import { createTestDatabase } from './support/database';
import { workflowBundle } from './support/worker';
import { startTimeSkippingEnv } from './support/time-skipping';
import { APPROVER_1, ORG, acc, journalPost, seedGatewayOrgs } from './gateway.fixtures';
import { createDomainWorkers } from '../worker';
import { CsOrg, CsOutcome, CsState } from '../workflows/search-attributes';

/**
 * The approval wait at its real durations (due after 3 days, expiry after 14) on the
 * time-skipping test server: durations below a minute are refused, so expiry is tested at
 * full length, in milliseconds of wall time.
 */
const SECRET = randomBytes(32).toString('hex');
let testEnv: TestWorkflowEnvironment;
let database: Database;
let gw: GatewayClient;
const taskQueue = `gateway-timers-${randomBytes(4).toString('hex')}`;

async function withWorker<R>(
  fn: () => Promise<R>,
  override: Partial<ReturnType<typeof createGatewayActivities>> = {},
): Promise<R> {
  const activities = {
    ...createGatewayActivities({ db: database.db }),
    ...override,
    ...createIdentityActivities({ secret: SECRET, db: database.db }),
    // Waiting approvals/reviews are inbox records too (workflows/requests/inbox-link.ts).
    ...createRequestsActivities({
      db: database.db,
      requests: new RequestsClient(testEnv.client, database.db, { taskQueue }),
      events: new EventsClient(testEnv.client, database.db, { taskQueue }),
      notifier: null,
      anthropic: null,
      model: 'claude-haiku-4-5',
    }),
  };
  // The gateway domain, and the requests domain its inbox entries go to.
  const workers = await createDomainWorkers({
    connection: testEnv.nativeConnection,
    namespace: testEnv.namespace ?? 'default',
    baseQueue: taskQueue,
    domains: ['gateway', 'requests'],
    workflowBundle: workflowBundle(),
    activitiesOf: () => activities,
  });
  return workers.runUntil(fn);
}

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  testEnv = await startTimeSkippingEnv([CsOrg, CsState, CsOutcome, CsWriteKind, CsRiskLane]);
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  gw = new GatewayClient(testEnv.client, database.db, taskQueue, { decisionSecret: SECRET });
}, 120_000);

afterAll(async () => {
  await testEnv?.teardown();
  await database?.close();
});

describe('gateway approval timers (time-skipping server)', () => {
  it('expires a write nobody approves at 14 days, after one reminder at day 3', async () => {
    expect(DEFAULT_APPROVAL_DUE_MS).toBe(3 * 86_400_000);
    expect(DEFAULT_APPROVAL_EXPIRE_MS).toBe(14 * 86_400_000);
    // A first posting to 6800: moderate lane, one approval needed.
    const w = journalPost({
      lines: [
        { accountId: acc('6800'), debit: '10' },
        { accountId: acc('1010'), credit: '10' },
      ],
    });
    const r = await withWorker(async () => {
      await gw.submit(w);
      await gw.settle(ORG, w.idempotencyKey);
      return gw.result(ORG, w.idempotencyKey);
    });
    expect(r).toMatchObject({ outcome: 'expired', remindersSent: 1, entryIds: [] });
    const trail = await auditTrail(database.db, ORG, 'gateway_submission', r.submissionId);
    expect(trail.map((t) => t.event)).toEqual(['submitted', 'reminder:1', 'expired']);
    await expect(gw.approve(ORG, w.idempotencyKey, APPROVER_1)).rejects.toMatchObject({
      type: 'ApprovalNotOpen',
    });
  }, 120_000);

  it('rides out settings that cannot be answered for longer than the old five attempts (a worker started during an outage)', async () => {
    // With the payload codec on, an activity's result is encrypted under a data key kept in
    // PostgreSQL; a worker that starts while it is down cannot answer even the settings.
    const real = createGatewayActivities({ db: database.db });
    let failures = 0;
    const gatewayRetrySettings: typeof real.gatewayRetrySettings = async () => {
      if (failures < 7) {
        failures++;
        throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
      }
      return real.gatewayRetrySettings();
    };
    const w = journalPost({ amount: '4200' });
    const r = await withWorker(
      async () => {
        await gw.submit(w);
        return gw.result(ORG, w.idempotencyKey);
      },
      { gatewayRetrySettings },
    );
    // Seven failed attempts, then the run went on: scored, waited for the one approval a
    // first posting to its account needs, and (nobody approving here) expired at 14 days.
    // Under the old five attempts the run failed and result() threw.
    expect(failures).toBe(7);
    expect(r).toMatchObject({ outcome: 'expired', risk: { lane: 'moderate' }, entryIds: [] });
  }, 120_000);
});
