import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { AnalysisClient } from '../client/analysis-client';
import { ingestFile } from '../client/documents';
import { createAnalysisActivities } from '../activities/analysis';
import { createDocumentActivities } from '../activities/documents/ingest';
import { createIdentityActivities } from '../activities/identity';
import { createRequestsActivities } from '../activities/requests';
import { RequestsClient } from '../client/requests-client';
import { EventsClient } from '../client/events-client';
import { decisionSecret } from '../activities/identity/decision-secret';
import { loadConfig } from '../config/env';
import { auditTrail } from '../db/repositories/audit';
import type { Database } from '../db/connection';
import {
  analysisWorkflowId,
  type AnalysisRequestInput,
  type AnalysisStateView,
} from '../workflows/analysis.contract';
import {
  DEFAULT_REVIEW_DUE_MS,
  DEFAULT_REVIEW_EXPIRE_MS,
  DEFAULT_REVIEW_REMIND_EVERY_MS,
} from '../workflows/analysis/review';
import { createTestDatabase } from './support/database';
import { ORG, REVIEWER, SAMPLES, seedOrgs } from './support/fixtures';
import { workflowBundle } from './support/worker';
import { startTimeSkippingEnv } from './support/time-skipping';
import { createDomainWorkers } from '../worker';
import {
  CsConfidenceBucket,
  CsOrg,
  CsOutcome,
  CsQueryType,
  CsState,
} from '../workflows/search-attributes';

/**
 * The human-review wait at its real durations (due 14 days, remind every 7, expire at 90),
 * on the time-skipping test server. Time skipping is global to the environment, so every test
 * here shares one environment and runs serially.
 */

const TEN_K = 'northwind-2024-10k';
const LOW_CONFIDENCE_QUESTION = 'What is the FY2024 capital expenditure amount (in USD millions)?';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Reminders go out at due, due + every, due + 2·every, … strictly before expiry. */
function expectedReminders(dueMs: number, everyMs: number, expireMs: number): number {
  if (dueMs >= expireMs) return 0;
  return Math.floor((expireMs - dueMs - 1) / everyMs) + 1;
}

let testEnv: TestWorkflowEnvironment;
let database: Database;
let analysis: AnalysisClient;
const taskQueue = `review-timers-${randomBytes(4).toString('hex')}`;
let seq = 0;

const request = (over: Partial<AnalysisRequestInput> = {}): AnalysisRequestInput => ({
  requestId: `timers-${Date.now()}-${++seq}`,
  orgId: ORG,
  docIds: [TEN_K],
  queryType: 'extract_metric',
  queryText: LOW_CONFIDENCE_QUESTION,
  ...over,
});

/** A fresh worker per test (a Worker runs once), on the test server's connection. */
async function withWorker<R>(fn: () => Promise<R>): Promise<R> {
  const activities = {
    ...createAnalysisActivities({ db: database.db, llm: null }),
    ...createDocumentActivities(database.db),
    // Review decisions carry a proof the worker verifies (same secret as the client's).
    ...createIdentityActivities({ secret: decisionSecret(loadConfig()), db: database.db }),
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
  // The analysis domain, and the requests domain its inbox entries go to.
  const workers = await createDomainWorkers({
    connection: testEnv.nativeConnection,
    namespace: testEnv.namespace ?? 'default',
    baseQueue: taskQueue,
    domains: ['analysis', 'requests'],
    workflowBundle: workflowBundle(),
    activitiesOf: () => activities,
  });
  return workers.runUntil(fn);
}

/** Polls the query in real time (no time skipping) until the predicate holds. */
async function waitForState(
  requestId: string,
  pred: (v: AnalysisStateView) => boolean,
  timeoutMs = 30_000,
): Promise<AnalysisStateView> {
  const deadline = Date.now() + timeoutMs;
  let last: AnalysisStateView | null = null;
  for (;;) {
    last = await analysis.state(ORG, requestId).catch(() => last);
    if (last && pred(last)) return last;
    if (Date.now() > deadline)
      throw new Error(
        `state of ${requestId} did not match within ${timeoutMs} ms; last: ${JSON.stringify(last?.review)} ${last?.machineState}`,
      );
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits (real time, time skipping locked) until the run waits for a reviewer with its timers
 * armed. settle() alone is not enough: the workflow reports awaiting_review before it has set
 * dueAt/expiresAt (it awaits storeResult in between).
 */
async function reviewOpened(requestId: string): Promise<AnalysisStateView> {
  await analysis.settle(ORG, requestId);
  return waitForState(
    requestId,
    (v) => v.status === 'awaiting_review' && v.review.dueAt !== null && v.review.expiresAt !== null,
  );
}

async function auditEvents(requestId: string): Promise<string[]> {
  const rows = await auditTrail(database.db, ORG, 'analysis', analysisWorkflowId(ORG, requestId));
  return rows.map((r) => r.event);
}

beforeAll(async () => {
  // Before anything creates the default runtime: keep the per-activity INFO lines out of the output.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  testEnv = await startTimeSkippingEnv([
    CsOrg,
    CsState,
    CsQueryType,
    CsConfidenceBucket,
    CsOutcome,
  ]);
  database = await createTestDatabase();
  await seedOrgs(database.db);
  analysis = new AnalysisClient(testEnv.client, taskQueue);
  await withWorker(() =>
    ingestFile(
      { db: database.db, client: testEnv.client, taskQueue },
      { orgId: ORG, path: join(SAMPLES, `${TEN_K}.txt`), docType: '10-K' },
    ),
  );
}, 120_000);

afterAll(async () => {
  await testEnv?.teardown();
  await database?.close();
});

describe('analysis review reminders and expiry (time-skipping server)', () => {
  it('derives 11 reminders from the default policy (day 14, 21, …, 84; expiry at day 90)', () => {
    expect(DEFAULT_REVIEW_DUE_MS).toBe(14 * DAY_MS);
    expect(DEFAULT_REVIEW_REMIND_EVERY_MS).toBe(7 * DAY_MS);
    expect(DEFAULT_REVIEW_EXPIRE_MS).toBe(90 * DAY_MS);
    expect(
      expectedReminders(
        DEFAULT_REVIEW_DUE_MS,
        DEFAULT_REVIEW_REMIND_EVERY_MS,
        DEFAULT_REVIEW_EXPIRE_MS,
      ),
    ).toBe(11);
  });

  it('expires an undecided review at 90 days after a reminder at day 14 and every 7 days', async () => {
    const expected = expectedReminders(
      DEFAULT_REVIEW_DUE_MS,
      DEFAULT_REVIEW_REMIND_EVERY_MS,
      DEFAULT_REVIEW_EXPIRE_MS,
    );
    expect(expected).toBe(11);
    const req = request();
    const { workflowId, started } = await analysis.start(req);
    expect(started).toBe(true);
    const startedAt = await testEnv.currentTimeMs();

    const { result, view } = await withWorker(async () => {
      const settled = await reviewOpened(req.requestId);
      expect(settled.machineState).toBe('HUMAN_REVIEW');
      expect(settled.status).toBe('awaiting_review');
      // Awaiting the result unlocks time skipping: the server jumps through the 90 days.
      const res = await analysis.result(ORG, req.requestId);
      return { result: res, view: settled };
    });

    expect(Date.parse(view.review.expiresAt!) - Date.parse(view.review.dueAt!)).toBe(
      DEFAULT_REVIEW_EXPIRE_MS - DEFAULT_REVIEW_DUE_MS,
    );
    expect(result).toMatchObject({
      workflowId,
      outcome: 'expired',
      answer: null,
      reviewedBy: null,
      remindersSent: expected,
    });
    // Only a lower bound: once a run completes, the test server may jump on to stale timers before
    // the client re-locks time skipping.
    expect(await testEnv.currentTimeMs()).toBeGreaterThanOrEqual(
      startedAt + DEFAULT_REVIEW_EXPIRE_MS,
    );

    const events = await auditEvents(req.requestId);
    expect(events.filter((e) => e === 'review.reminder')).toHaveLength(expected);
    expect(events.filter((e) => e === 'outcome:expired')).toHaveLength(1);
    expect(events.filter((e) => e.startsWith('outcome:'))).toEqual(['outcome:expired']);
    expect(events[events.length - 1]).toBe('outcome:expired');

    const rows = await auditTrail(database.db, ORG, 'analysis', workflowId);
    const reminderNumbers = rows
      .filter((r) => r.event === 'review.reminder')
      .map((r) => (r.payload as { reminderNumber: number }).reminderNumber);
    expect(reminderNumbers).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
  });

  it('takes an approval after the first reminder (day 15): approved, one reminder sent', async () => {
    const req = request();
    const { workflowId } = await analysis.start(req);

    const { before, after, ack, result } = await withWorker(async () => {
      await reviewOpened(req.requestId);
      await testEnv.sleep('15 days');
      const afterSleep = await waitForState(req.requestId, (v) => v.review.remindersSent >= 1);
      const a = await analysis.review(ORG, req.requestId, {
        decision: 'approve',
        reviewer: REVIEWER,
      });
      const res = await analysis.result(ORG, req.requestId);
      const finalView = await analysis.state(ORG, req.requestId);
      return { before: afterSleep, after: finalView, ack: a, result: res };
    });

    expect(before.review).toMatchObject({ open: true, remindersSent: 1, decision: null });
    expect(before.status).toBe('awaiting_review');
    expect(ack).toEqual({ accepted: true, outcome: 'approved' });
    expect(result).toMatchObject({
      workflowId,
      outcome: 'approved',
      reviewedBy: REVIEWER.userId,
      remindersSent: 1,
    });
    expect(result.answer).not.toBeNull();
    expect(after.review).toMatchObject({
      open: false,
      remindersSent: 1,
      decision: 'approve',
      reviewer: REVIEWER.userId,
    });

    const events = await auditEvents(req.requestId);
    expect(events.filter((e) => e === 'review.reminder')).toHaveLength(1);
    expect(events.filter((e) => e.startsWith('outcome:'))).toEqual(['outcome:approved']);
  });

  it('follows a custom policy: due after 1 h, expire after 2 h → expired with one reminder', async () => {
    const policy = { dueAfterMs: 3_600_000, expireAfterMs: 7_200_000 };
    const expected = expectedReminders(
      policy.dueAfterMs,
      DEFAULT_REVIEW_REMIND_EVERY_MS,
      policy.expireAfterMs,
    );
    expect(expected).toBe(1);
    const req = request({ review: policy });
    const { workflowId } = await analysis.start(req);

    const { result, view } = await withWorker(async () => {
      const settled = await reviewOpened(req.requestId);
      return { view: settled, result: await analysis.result(ORG, req.requestId) };
    });

    expect(Date.parse(view.review.expiresAt!) - Date.parse(view.review.dueAt!)).toBe(
      policy.expireAfterMs - policy.dueAfterMs,
    );
    expect(result).toMatchObject({
      workflowId,
      outcome: 'expired',
      answer: null,
      remindersSent: expected,
    });
    const events = await auditEvents(req.requestId);
    expect(events.filter((e) => e === 'review.reminder')).toHaveLength(expected);
    expect(events.filter((e) => e.startsWith('outcome:'))).toEqual(['outcome:expired']);
  });
});
