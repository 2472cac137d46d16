import { ApplicationFailure } from '@temporalio/common';
import type { Database } from '../db/connection';
import { createTestDatabase } from './support/database';
import { ORG, seedOrgs } from './support/fixtures';
import {
  agentsDirWith,
  eventually,
  startRuntimeWorker,
  type RuntimeWorker,
} from './agent-runs.fixtures';
import { EventsClient, dedupKeyOf } from '../client/events-client';
import { canonicalJson } from '../workflows/canonical-json';
import { eventTransitionsOf, getEvent } from '../db/repositories/events';
import {
  listAgentRows,
  runsOfEvent,
  setAgentApiKeyHash,
  setAgentEnabled,
} from '../db/repositories/agent-runs';
import { loadAgentDefinitions, syncAgents } from '../activities/agent-runs/agent-files';
import { InvalidRequestError } from '../client/errors';

/**
 * Events against the dev server and PostgreSQL: dedup by workflow id, duplicates recorded,
 * ignored and expired events, retries after the configured delays. The analysis the agent
 * runs is replaced at the activity seam by a controllable fake.
 */
let database: Database;
let rt: RuntimeWorker;
let agents: { dir: string; cleanup(): void };
const calls = new Map<string, number>();
const holds = new Map<string, () => void>();
const held = new Map<string, Promise<void>>();

function hold(doc: string): () => void {
  let release = (): void => undefined;
  held.set(doc, new Promise<void>((r) => (release = r)));
  holds.set(doc, release);
  return () => release();
}

async function fakeAnalyze(c: { input: { docIds: string[] }; callSeq: number; runId: string }) {
  const doc = c.input.docIds[0] ?? '';
  const n = (calls.get(doc) ?? 0) + 1;
  calls.set(doc, n);
  const failFirst = /^fail(\d+)-/.exec(doc);
  if (failFirst && n <= Number(failFirst[1]))
    throw ApplicationFailure.nonRetryable(
      `analysis of ${doc} unavailable (call ${n})`,
      'TestFault',
    );
  await held.get(doc);
  return { requestId: `fake-${n}`, outcome: 'delivered', answer: `answer for ${doc}` };
}

const event = (documentId: string, extra: Record<string, unknown> = {}) => ({
  orgId: ORG,
  type: 'document.received',
  source: 'connector' as const,
  payload: { documentId, ...extra },
});

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  agents = agentsDirWith({
    document_analyst: { base: 'document_analyst', config: { max_concurrent_runs: 1 } },
  });
  rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [300, 600, 900] },
    activityOverrides: { agentAnalyzeDocument: fakeAnalyze as never },
  });
});
afterAll(async () => {
  for (const r of holds.values()) r();
  await rt?.stop();
  await database?.close();
  agents?.cleanup();
});

describe('the dedup key', () => {
  it('is the SHA-256 of the payload with keys sorted at every level', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}',
    );
    expect(dedupKeyOf({ b: 1, a: 2 })).toBe(dedupKeyOf({ a: 2, b: 1 }));
    expect(dedupKeyOf({ a: 2 })).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('acceptEvent', () => {
  it('refuses a malformed envelope with the zod issue path and starts nothing', async () => {
    const err = await rt.events
      .acceptEvent({ ...event('x'), source: 'fax' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).issues.map((i) => i.path)).toEqual(['source']);
  });

  it('marks an event no enabled agent subscribes to as ignored, with both states timed', async () => {
    const a = await rt.events.acceptEvent({ ...event('inv-1'), type: 'invoice.received' });
    const r = await rt.events.result(a.workflowId);
    expect(r.state).toBe('ignored');
    const t = await eventTransitionsOf(database.db, ORG, a.eventId);
    expect(t.map((x) => x.state)).toEqual(['pending', 'ignored']);
    expect(t[1]!.at.getTime()).toBeGreaterThanOrEqual(t[0]!.at.getTime());
    expect((await getEvent(database.db, ORG, a.eventId))?.state).toBe('ignored');
  });

  it('gives a disabled agent nothing: its event is ignored', async () => {
    await setAgentEnabled(database.db, 'document_analyst', false);
    try {
      const a = await rt.events.acceptEvent(event('ok-disabled'));
      expect((await rt.events.result(a.workflowId)).state).toBe('ignored');
      expect(await runsOfEvent(database.db, ORG, a.eventId)).toHaveLength(0);
    } finally {
      await setAgentEnabled(database.db, 'document_analyst', true);
    }
  });

  it('runs the subscribed agent and completes the event', async () => {
    const a = await rt.events.acceptEvent(event('ok-1'));
    const r = await rt.events.result(a.workflowId);
    expect(r).toMatchObject({ state: 'completed', attempts: 1 });
    const t = await eventTransitionsOf(database.db, ORG, a.eventId);
    expect(t.map((x) => x.state)).toEqual(['pending', 'processing', 'completed']);
    const runs = await runsOfEvent(database.db, ORG, a.eventId);
    expect(runs.map((x) => [x.agentType, x.state, x.outcome])).toEqual([
      ['document_analyst', 'completed', 'succeeded'],
    ]);
  });

  it('records the same event sent twice while active as one run and one duplicate pointing at it', async () => {
    const release = hold('hold-dup');
    const first = await rt.events.acceptEvent(event('hold-dup'));
    const second = await rt.events.acceptEvent(event('hold-dup'));
    expect(first.status).toBe('accepted');
    expect(second).toMatchObject({
      status: 'duplicate',
      duplicateOf: first.eventId,
      workflowId: first.workflowId,
    });
    const dup = await getEvent(database.db, ORG, second.eventId);
    expect(dup).toMatchObject({ state: 'duplicate', duplicateOf: first.eventId });
    release();
    expect((await rt.events.result(first.workflowId)).state).toBe('completed');
    expect(await runsOfEvent(database.db, ORG, first.eventId)).toHaveLength(1);
    expect(await runsOfEvent(database.db, ORG, second.eventId)).toHaveLength(0);
  });

  it('retries a failed agent run after the configured delays, each attempt a new instance', async () => {
    const a = await rt.events.acceptEvent(event('fail2-retry'));
    const r = await rt.events.result(a.workflowId);
    expect(r).toMatchObject({ state: 'completed', attempts: 3 });
    const runs = await runsOfEvent(database.db, ORG, a.eventId);
    expect(runs.map((x) => [x.attempt, x.state])).toEqual([
      [1, 'failed'],
      [2, 'failed'],
      [3, 'completed'],
    ]);
    expect(runs[0]!.reason).toContain('analysis of fail2-retry unavailable (call 1)');
    const gap1 = runs[1]!.createdAt.getTime() - runs[0]!.finishedAt!.getTime();
    const gap2 = runs[2]!.createdAt.getTime() - runs[1]!.finishedAt!.getTime();
    expect(gap1).toBeGreaterThanOrEqual(300);
    expect(gap2).toBeGreaterThanOrEqual(600);
    const t = await eventTransitionsOf(database.db, ORG, a.eventId);
    expect(t.map((x) => x.state)).toEqual([
      'pending',
      'processing',
      'processing',
      'processing',
      'completed',
    ]);
    expect(t[2]!.detail).toMatch(/^attempt 1 failed; retry in 300 ms/);
  });

  it('fails the event after the last retry, and lets the same payload in again afterwards', async () => {
    const a = await rt.events.acceptEvent(event('fail4-again'));
    const r = await rt.events.result(a.workflowId);
    expect(r).toMatchObject({ state: 'failed', attempts: 4 });
    expect((await getEvent(database.db, ORG, a.eventId))?.state).toBe('failed');
    const again = await rt.events.acceptEvent(event('fail4-again'));
    expect(again.status).toBe('accepted');
    expect(again.eventId).not.toBe(a.eventId);
    expect((await rt.events.result(again.workflowId)).state).toBe('completed');
  });

  it('expires an event that waits for a concurrency slot past its lifetime', async () => {
    const release = hold('hold-expire');
    const blocker = await rt.events.acceptEvent(event('hold-expire'));
    await eventually(async () =>
      (await runsOfEvent(database.db, ORG, blocker.eventId))[0]?.state === 'running'
        ? true
        : undefined,
    );
    const short = new EventsClient(rt.client, database.db, {
      taskQueue: rt.taskQueue,
      expireAfterMs: 1500,
    });
    const late = await short.acceptEvent(event('ok-late'));
    const r = await short.result(late.workflowId);
    expect(r.state).toBe('expired');
    const runs = await runsOfEvent(database.db, ORG, late.eventId);
    expect(runs.map((x) => [x.state, x.outcome])).toEqual([['cancelled', 'expired']]);
    expect((await eventTransitionsOf(database.db, ORG, late.eventId)).map((x) => x.state)).toEqual([
      'pending',
      'processing',
      'expired',
    ]);
    release();
    expect((await rt.events.result(blocker.workflowId)).state).toBe('completed');
  });
});

describe('agent config sync', () => {
  it('updates the definition but never an operator-set enabled flag or API key', async () => {
    await setAgentEnabled(database.db, 'document_analyst', false);
    await setAgentApiKeyHash(database.db, 'document_analyst', 'hash-kept');
    const defs = loadAgentDefinitions(agents.dir);
    const changed = defs.map((d) => ({ ...d, config: { ...d.config, timeout_minutes: 7 } }));
    await syncAgents(database.db, changed);
    const [row] = (await listAgentRows(database.db)).filter(
      (a) => a.agentType === 'document_analyst',
    );
    expect(row).toMatchObject({ enabled: false, apiKeyHash: 'hash-kept', timeoutMinutes: 7 });
    await setAgentEnabled(database.db, 'document_analyst', true);
    await syncAgents(database.db, defs);
  });
});
