import { randomBytes } from 'node:crypto';
import { applySystemWrites } from '../activities/gateway/system';
import { createEventsActivities } from '../activities/events';
import {
  closeForgottenDelegations,
  reescalateLostDelegations,
} from '../activities/requests/delegation-watch';
import { completeDelegation } from '../activities/requests/complete-delegation';
import { RequestsClient } from '../client/requests-client';
import {
  delegationWatchScheduleId,
  syncDelegationWatchSchedule,
} from '../activities/requests/watch';
import { delegationWatchWorkflow } from '../workflows/requests/watch';
import type { Database } from '../db/connection';
import { insertRun, recordRunTransition, setAgentEnabled } from '../db/repositories/agent-runs';
import { getRequestRow } from '../db/repositories/requests';
import type { RequestView } from '../workflows/requests/contract';
import {
  CALLBACK_RUN_LIMIT,
  callbackLimitReached,
  delegationLost,
  nextHop,
} from '../workflows/requests/loop-defences';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import { OWNER, RORG, seedRequestOrgs } from './requests.fixtures';
import { domainTaskQueue } from '../workflows/task-queue';

/**
 * Each loop defence triggered on purpose and stopped at its limit: the hop cap, the
 * callback-run breaker, the configuration dedup window, the lost delegation re-escalated
 * exactly once, the forgotten delegation closed only on a real entity, a completed delegate
 * run's answer counted only on a real entity. Real worker on the dev
 * server and PostgreSQL; agent runs are stored rows (what the scans read).
 */
let database: Database;
let tw: TestWorker;
let requests: RequestsClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedRequestOrgs(database.db);
  tw = await startTestWorker(database);
  // The scans read stored runs: the shipped master data agent must not race them by working
  // the test's delegations for real (its completion closes a delegation before a scan looks).
  await setAgentEnabled(database.db, 'master_data', false);
  requests = new RequestsClient(tw.client, database.db, { taskQueue: tw.taskQueue });
}, 120_000);

afterAll(async () => {
  await tw?.stop();
  await database?.close();
});

let runSeq = 0;
async function storedRun(
  state: 'completed' | 'failed' | 'waiting_human',
  payload: Record<string, unknown>,
  agentType = 'bill_processor',
): Promise<string> {
  const id = `agent-run:${RORG}:${agentType}:evt_${randomBytes(4).toString('hex')}:${++runSeq}`;
  const at = new Date();
  await insertRun(database.db, {
    id,
    orgId: RORG,
    agentType,
    eventId: `evt_${runSeq}`,
    attempt: 1,
    executionMode: 'code',
    trigger: { eventId: `evt_${runSeq}`, eventType: 'x.y', source: 'rule', payload, hop: 0 },
    createdAt: at,
  });
  await recordRunTransition(database.db, {
    orgId: RORG,
    runId: id,
    seq: 1,
    state,
    detail: null,
    at,
  });
  return id;
}

const delegation = (runId: string, over: Record<string, unknown> = {}) => ({
  orgId: RORG,
  type: 'delegation' as const,
  delegateAgentType: 'master_data',
  title: 'Create vendor Paper & Co',
  question: 'Create the vendor Paper & Co from bill B-9 and answer with its id.',
  answerSchema: { fields: [{ name: 'entityId', label: 'Vendor id', kind: 'text' as const }] },
  evidence: { entity: { kind: 'vendor', name: 'Paper & Co' } },
  createdBy: { runId, agentType: 'bill_processor' },
  callback: { eventType: null },
  hop: 1,
  ...over,
});

describe('triage hop counter', () => {
  it('hands off to an agent for hops 1 and 2, then to a person', () => {
    expect(nextHop(0)).toEqual({ to: 'agent', hop: 1 });
    expect(nextHop(1)).toEqual({ to: 'agent', hop: 2 });
    expect(nextHop(2)).toEqual({ to: 'human', hop: 2 });
  });
});

describe('callback-run breaker', () => {
  it('blocks a callback event at 50 completed callback-triggered runs in 30 minutes, counting nothing else', async () => {
    const events = createEventsActivities({
      db: database.db,
      agents: new Map(),
      defaultOrgMaxConcurrentRuns: 10,
      globalLlmConcurrency: 8,
      llmAvailable: false,
    });
    const plan = () =>
      events.eventPlanDispatch({ orgId: RORG, type: 'request.completed', callback: true });
    for (let i = 0; i < CALLBACK_RUN_LIMIT - 1; i++)
      await storedRun('completed', { requestCallback: true, requestId: `r${i}` });
    // Failed callback runs and completed non-callback runs do not count.
    await storedRun('failed', { requestCallback: true });
    await storedRun('completed', { something: 'else' });
    expect((await plan()).blocked).toBeUndefined();
    expect(callbackLimitReached(CALLBACK_RUN_LIMIT - 1)).toBe(false);
    await storedRun('completed', { requestCallback: true, requestId: 'r-last' });
    expect((await plan()).blocked).toMatch(/loop breaker: 50 completed callback-triggered runs/);
    // A non-callback event of the same org is not blocked.
    expect(
      (await events.eventPlanDispatch({ orgId: RORG, type: 'request.completed' })).blocked,
    ).toBeUndefined();
  });
});

describe('configuration dedup', () => {
  it('makes identical configuration requests within an hour one request, and a new one after', async () => {
    const config = {
      orgId: RORG,
      type: 'configuration' as const,
      title: 'Default expense account for Paper & Co',
      question: 'Which account should bills from Paper & Co default to?',
      answerSchema: { fields: [{ name: 'account', label: 'Account code', kind: 'text' as const }] },
      dedupKey: 'vendor-default-account:paper-co',
      callback: { eventType: null },
    };
    const [a, b] = await Promise.all([
      requests.createRequest(config),
      requests.createRequest(config),
    ]);
    expect(b.requestId).toBe(a.requestId);
    await requests.answerRequest({
      requestId: a.requestId,
      orgId: RORG,
      answeredBy: OWNER,
      answer: { account: '6100' },
    });
    await requests.result(RORG, a.requestId);
    const again = await requests.createRequest(config, Date.now() + 59 * 60_000);
    expect(again).toMatchObject({ requestId: a.requestId, deduplicated: true });
    const later = await requests.createRequest(config, Date.now() + 61 * 60_000);
    expect(later.deduplicated).toBe(false);
    expect(later.requestId).not.toBe(a.requestId);
  });
});

describe('lost delegation', () => {
  it('is detected only with nothing open and nothing completed in 30 minutes, and re-escalated exactly once', async () => {
    expect(delegationLost([{ status: 'open', closedAtMs: null }], 0)).toBe(false);
    expect(delegationLost([{ status: 'completed', closedAtMs: 1000 }], 1000 + 29 * 60_000)).toBe(
      false,
    );
    expect(delegationLost([{ status: 'completed', closedAtMs: 1000 }], 1000 + 31 * 60_000)).toBe(
      true,
    );
    const waiting = await storedRun('waiting_human', {});
    const d = await requests.createRequest(delegation(waiting));
    await new Promise((r) => setTimeout(r, 300));
    expect(await reescalateLostDelegations({ db: database.db, requests }, RORG)).toEqual([]);
    // The delegation ends without an answer (its callback will never come).
    await requests.failRequest(RORG, d.requestId, 'delegate crashed', 'test');
    await requests.result(RORG, d.requestId);
    const first = await reescalateLostDelegations({ db: database.db, requests }, RORG);
    expect(first).toHaveLength(1);
    const second = await reescalateLostDelegations({ db: database.db, requests }, RORG);
    expect(second).toEqual([]);
    let esc = await getRequestRow(database.db, first[0]!);
    for (let i = 0; !esc && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      esc = await getRequestRow(database.db, first[0]!);
    }
    expect(esc).toMatchObject({ type: 'verification', createdByRunId: waiting, status: 'open' });
  });
});

describe('forgotten delegation', () => {
  it('is auto-completed with the real id only when the entity exists, otherwise failed', async () => {
    const real = await requests.createRequest(delegation('agent-run:creator:1'));
    const ghost = await requests.createRequest(
      delegation('agent-run:creator:2', {
        title: 'Create vendor Ghost Ltd',
        evidence: { entity: { kind: 'vendor', name: 'Ghost Ltd' } },
      }),
    );
    await applySystemWrites(database.db, [
      {
        orgId: RORG,
        idempotencyKey: 'test:vendor:paper-co',
        kind: 'vendor.create',
        payload: { name: 'Paper & Co' },
      },
    ]);
    await new Promise((r) => setTimeout(r, 300));
    // Nothing happens while the delegate agent has not finished.
    expect(await closeForgottenDelegations({ db: database.db, requests }, RORG)).toEqual([]);
    await storedRun('completed', { delegationRequestId: real.requestId }, 'master_data');
    await storedRun('completed', { delegationRequestId: ghost.requestId }, 'master_data');
    const closed = await closeForgottenDelegations({ db: database.db, requests }, RORG);
    const byId = Object.fromEntries(closed.map((c) => [c.requestId, c]));
    expect(byId[real.requestId]).toMatchObject({ status: 'completed' });
    expect(byId[real.requestId]?.entityId).toMatch(/.+/);
    expect(byId[ghost.requestId]).toEqual({
      requestId: ghost.requestId,
      status: 'failed',
      entityId: null,
    });
    const done = (await requests.result(RORG, real.requestId)) as RequestView;
    expect(done.answer).toEqual({ entityId: byId[real.requestId]?.entityId });
    expect(done.answeredBy).toBe('agent:master_data');
    expect(((await requests.result(RORG, ghost.requestId)) as RequestView).status).toBe('failed');
  });
});

describe('the delegation watch', () => {
  it('runs both scans in every org from its schedule’s workflow, once per lost delegation', async () => {
    const waiting = await storedRun('waiting_human', {});
    const d = await requests.createRequest(delegation(waiting));
    await requests.failRequest(RORG, d.requestId, 'delegate crashed', 'test');
    await requests.result(RORG, d.requestId);
    const pass = () =>
      tw.client.workflow.execute(delegationWatchWorkflow, {
        taskQueue: domainTaskQueue(tw.taskQueue, 'requests'),
        workflowId: `watch-${randomBytes(4).toString('hex')}`,
      });
    const first = await pass();
    expect(first.orgs).toBeGreaterThanOrEqual(1);
    const mine = first.reports.find((r) => r.orgId === RORG)?.reescalated ?? [];
    expect(mine).toHaveLength(1);
    expect((await pass()).reports.find((r) => r.orgId === RORG)?.reescalated).toEqual([]);
    let esc = await getRequestRow(database.db, mine[0]!);
    for (let i = 0; !esc && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      esc = await getRequestRow(database.db, mine[0]!);
    }
    expect(esc).toMatchObject({ type: 'verification', createdByRunId: waiting });
  });

  it('is kept as a Temporal Schedule on the requests domain’s queue: created once, recreated when its interval changes', async () => {
    const queue = `watch-${randomBytes(4).toString('hex')}`;
    try {
      expect(await syncDelegationWatchSchedule(tw.client, queue, 10)).toBe('created');
      expect(await syncDelegationWatchSchedule(tw.client, queue, 10)).toBe('unchanged');
      expect(await syncDelegationWatchSchedule(tw.client, queue, 5)).toBe('updated');
      const desc = await tw.client.schedule.getHandle(delegationWatchScheduleId(queue)).describe();
      expect(desc.action).toMatchObject({
        workflowType: 'delegationWatchWorkflow',
        taskQueue: domainTaskQueue(queue, 'requests'),
      });
      expect(desc.spec.intervals?.[0]?.every).toBe(5 * 60_000);
    } finally {
      await tw.client.schedule
        .getHandle(delegationWatchScheduleId(queue))
        .delete()
        .catch(() => undefined);
    }
  });
});

describe('a completed delegate run closes its delegation', () => {
  it('answers with the run result only when the named vendor exists in the org, otherwise fails it', async () => {
    const form = {
      fields: [
        { name: 'vendor_id', label: 'Vendor id', kind: 'text' as const },
        { name: 'document_id', label: 'Bill document id', kind: 'text' as const },
      ],
    };
    const real = await requests.createRequest(
      delegation('agent-run:creator:3', { answerSchema: form }),
    );
    const ghost = await requests.createRequest(
      delegation('agent-run:creator:4', { answerSchema: form, title: 'Create vendor Ghost' }),
    );
    await applySystemWrites(database.db, [
      {
        orgId: RORG,
        idempotencyKey: 'test:vendor:delegate-run',
        kind: 'vendor.create',
        payload: { vendorId: 'ven-delegate-run', name: 'Delegate Run Supplies' },
      },
    ]);
    await new Promise((r) => setTimeout(r, 300));
    const deps = { db: database.db, requests };
    // Another agent type's run does not close it.
    await expect(
      completeDelegation(deps, {
        orgId: RORG,
        requestId: real.requestId,
        agentType: 'bill_processor',
        answer: { vendor_id: 'ven-delegate-run', document_id: 'doc-1' },
      }),
    ).resolves.toMatchObject({ status: 'not_delegated' });
    const answer = { vendor_id: 'ven-delegate-run', document_id: 'doc-1' };
    const ok = await completeDelegation(deps, {
      orgId: RORG,
      requestId: real.requestId,
      agentType: 'master_data',
      answer,
    });
    expect(ok).toMatchObject({
      status: 'completed',
      entity: { kind: 'vendor', id: 'ven-delegate-run' },
    });
    const done = (await requests.result(RORG, real.requestId)) as RequestView;
    expect([done.status, done.answer, done.answeredBy]).toEqual([
      'completed',
      answer,
      'agent:master_data',
    ]);
    // A retried activity finds it closed and changes nothing.
    await expect(
      completeDelegation(deps, {
        orgId: RORG,
        requestId: real.requestId,
        agentType: 'master_data',
        answer,
      }),
    ).resolves.toMatchObject({ status: 'not_open' });
    // A vendor id the org does not hold is a claim, not an answer: the delegation fails.
    const bad = await completeDelegation(deps, {
      orgId: RORG,
      requestId: ghost.requestId,
      agentType: 'master_data',
      answer: { vendor_id: 'ven-ghost', document_id: 'doc-2' },
    });
    expect(bad).toMatchObject({ status: 'failed', reason: expect.stringMatching(/ven-ghost/) });
    const failed = (await requests.result(RORG, ghost.requestId)) as RequestView;
    expect([failed.status, failed.answer]).toEqual(['failed', null]);
  });
});
