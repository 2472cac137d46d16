import { createTestDatabase } from '../support/database';
import { startTestWorker, type TestWorker } from '../support/worker';
import { waitFor } from '../support/wait';
import type { Database } from '../../db/connection';
import { GatewayClient } from '../../client/gateway-client';
import { createGatewayActivities } from '../../activities/gateway';
import { auditTrail } from '../../db/repositories/audit';
import { getSubmission } from '../../db/repositories/gateway';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import {
  APPROVER_1,
  CLERK,
  ORG,
  OWNER,
  acc,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
} from '../gateway.fixtures';

/**
 * An outage loses nothing: the database "goes away" for the apply (injected at the activity
 * seam, exactly what pg throws when the server is down) with short configured retry timings.
 * One worker retries for 60 s at most 200 ms apart; the other gives up after 3 s and
 * suspends the write for an operator.
 */
let database: Database;
let worker: TestWorker;
let gw: GatewayClient;
let outage = false;
/** Long enough for well over 10 attempts at 200 ms apart, even on a loaded machine. */
const OUTAGE_BUDGET_MS = 60_000;
/** The suspension test's worker gives up after 3 s. */
const SHORT_BUDGET_MS = 3_000;
let shortWorker: TestWorker;
let shortGw: GatewayClient;
let applyAttempts = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010', '6300']);
  const real = createGatewayActivities({ db: database.db });
  const overrides = {
    gatewayApply: (async (input: { submissionId: string }) => {
      applyAttempts += 1;
      if (outage)
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
          code: 'ECONNREFUSED',
        });
      return real.gatewayApply(input);
    }) as never,
  };
  worker = await startTestWorker(database, overrides, {
    DB_RETRY_BUDGET_MS: String(OUTAGE_BUDGET_MS),
    DB_RETRY_MAX_INTERVAL_MS: '200',
  });
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
  shortWorker = await startTestWorker(database, overrides, {
    DB_RETRY_BUDGET_MS: String(SHORT_BUDGET_MS),
    DB_RETRY_MAX_INTERVAL_MS: '200',
  });
  shortGw = new GatewayClient(shortWorker.client, database.db, shortWorker.taskQueue);
});
afterAll(async () => {
  await shortWorker?.stop();
  await worker?.stop();
  await database?.close();
});

describe('retries that outlast an outage', () => {
  it('an outage longer than the old 10-attempt budget loses no write and no vote', async () => {
    const w = journalPost({
      lines: [
        { accountId: acc('6500'), debit: '25' },
        { accountId: acc('1010'), credit: '25' },
      ],
    });
    await gw.submit(w);
    await gw.settle(ORG, w.idempotencyKey);
    outage = true;
    applyAttempts = 0;
    await gw.approve(ORG, w.idempotencyKey, APPROVER_1);
    // 12 failed attempts (the old policy gave up after 10), then the database is back.
    await waitFor(
      async () => applyAttempts,
      (n) => n >= 12,
    );
    outage = false;
    const r = await gw.result(ORG, w.idempotencyKey);
    expect(r).toMatchObject({
      outcome: 'applied',
      votes: [{ userId: APPROVER_1, decision: 'approve' }],
    });
    expect(applyAttempts).toBeGreaterThanOrEqual(13);
  });

  it('an outage past the retry budget suspends the write; an operator resumes it with its votes', async () => {
    const w = journalPost({
      lines: [
        { accountId: acc('6600'), debit: '30' },
        { accountId: acc('1010'), credit: '30' },
      ],
    });
    await shortGw.submit(w);
    await shortGw.settle(ORG, w.idempotencyKey);
    await expect(shortGw.resume(ORG, w.idempotencyKey, { operator: OWNER })).rejects.toMatchObject({
      type: 'NotSuspended',
    });
    outage = true;
    await shortGw.approve(ORG, w.idempotencyKey, APPROVER_1);
    const suspended = await waitFor(
      () => shortGw.state(ORG, w.idempotencyKey),
      (v) => v.status === 'suspended',
      SHORT_BUDGET_MS + 20_000,
    );
    expect(suspended.suspended?.step).toBe('apply');
    expect(suspended.votes.map((v) => v.userId)).toEqual([APPROVER_1]);
    expect(
      (
        await shortWorker.client.workflow
          .getHandle(gatewayWorkflowId(ORG, w.idempotencyKey))
          .describe()
      ).status.name,
    ).toBe('RUNNING');
    outage = false;
    expect(
      await shortGw.resume(ORG, w.idempotencyKey, { operator: OWNER, note: 'db back' }),
    ).toEqual({
      resumed: true,
      step: 'apply',
    });
    const r = await shortGw.result(ORG, w.idempotencyKey);
    expect(r.outcome).toBe('applied');
    expect((await getSubmission(database.db, r.submissionId))?.status).toBe('applied');
    // The suspension and the resume are on the org's hash chain, written by the database
    // with the suspension's row, between the vote and the apply.
    const trail = await auditTrail(database.db, ORG, 'gateway_submission', r.submissionId);
    expect(trail.map((t) => [t.event, t.actor])).toEqual([
      ['submitted', `user:${CLERK}`],
      ['vote', `user:${APPROVER_1}`],
      ['suspended:1', 'workflow'],
      ['resumed:1', `user:${OWNER}`],
      ['applied', 'gateway'],
    ]);
    expect(trail[2]?.payload).toMatchObject({ step: 'apply' });
    expect(trail[3]?.payload).toMatchObject({ step: 'apply', note: 'db back' });
  });
});
