import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { events } from '../db/schema';
import { createTestDatabase } from './support/database';
import { startFakeAnthropic, type FakeAnthropic } from './support/fake-anthropic';
import {
  agentsDirWith,
  eventually,
  startRuntimeWorker,
  type RuntimeWorker,
} from './agent-runs.fixtures';
import { ORG, journalPost, seedGatewayOrgs, warmAccounts } from './gateway.fixtures';
import { GatewayClient } from '../client/gateway-client';
import { announceWriteApplied } from '../activities/events/emit';
import { syncAgentSchedules } from '../activities/events/schedules';
import { loadAgentDefinitions } from '../activities/agent-runs/agent-files';
import { agentScheduleId } from '../workflows/events/schedules';
import { getRunRecord, runsOfEvent } from '../db/repositories/agent-runs';
import { MAX_EVENT_HOPS } from '../workflows/events/contract';
import { domainTaskQueue } from '../workflows/task-queue';

/**
 * The events the platform emits itself, on the dev server and PostgreSQL: an agent's schedule
 * is a Temporal Schedule whose firing goes through the normal event path; an applied gateway
 * write is announced as write.applied exactly once, retries included; an agent's own events
 * carry a hop count, and a self-triggering agent is stopped at the cap.
 */
let database: Database;
let rt: RuntimeWorker;
let fake: FakeAnthropic;
let agents: { dir: string; cleanup(): void };
let seq = 0;

const LOOPER = {
  agent_type: 'looper_test',
  model_tier: 'fast',
  execution_mode: 'llm',
  max_concurrent_runs: 1,
  timeout_minutes: 5,
  allowed_workflows: [],
  allowed_tools: ['emit_event'],
  trigger_events: ['loop.ping'],
  max_turns: 3,
  max_tokens: 512,
  budgets: { per_run_usd: '1.00' },
};

const eventRows = (type: string) =>
  database.db
    .select()
    .from(events)
    .where(and(eq(events.orgId, ORG), eq(events.type, type)));

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  fake = await startFakeAnthropic();
  agents = agentsDirWith({
    document_analyst: {
      base: 'document_analyst',
      config: {
        trigger_events: ['document.received', 'schedule.daily_review'],
        schedules: [
          {
            id: 'daily',
            cron: '0 6 * * *',
            event_type: 'schedule.daily_review',
            payload: { documentId: 'scheduled-doc' },
            orgs: [ORG],
          },
        ],
      },
    },
    looper_test: { config: LOOPER, prompt: 'You echo pings.' },
  });
  rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [] },
    activityOverrides: {
      agentAnalyzeDocument: (async () => ({
        requestId: 'fake',
        outcome: 'delivered',
        answer: null,
      })) as never,
    },
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
  });
});
afterAll(async () => {
  await rt?.stop();
  await fake?.close();
  await database?.close();
  agents?.cleanup();
});

it('syncs an agent schedule idempotently and a triggered firing runs through the event path', async () => {
  const id = agentScheduleId(rt.taskQueue, 'document_analyst', 'daily');
  const handle = rt.client.schedule.getHandle(id);
  const desc = await handle.describe();
  expect(desc.action).toMatchObject({
    type: 'startWorkflow',
    workflowType: 'scheduledEventWorkflow',
    // The firing is the events domain's workflow, on its queue.
    taskQueue: domainTaskQueue(rt.taskQueue, 'events'),
  });
  // A second sync (another worker start) changes nothing.
  const configs = loadAgentDefinitions(agents.dir).map((d) => d.config);
  expect(await syncAgentSchedules(rt.client, rt.taskQueue, configs)).toEqual({
    created: [],
    updated: [],
    unchanged: [id],
    deleted: [],
  });

  await handle.trigger();
  const [row] = await eventually(async () => {
    const rows = await eventRows('schedule.daily_review');
    return rows.length > 0 && rows.every((r) => r.state === 'completed') ? rows : undefined;
  }, 60_000);
  expect(row).toMatchObject({ source: 'schedule', state: 'completed' });
  expect(row?.payload).toMatchObject({
    documentId: 'scheduled-doc',
    schedule: { agentType: 'document_analyst', id: 'daily' },
  });
  const [run] = await runsOfEvent(database.db, row!.orgId, row!.id);
  expect(run).toMatchObject({ agentType: 'document_analyst', state: 'completed' });

  // A changed cron is an update; a schedule no config declares any more is deleted.
  const changed = configs.map((c) =>
    c.agent_type === 'document_analyst'
      ? { ...c, schedules: c.schedules.map((s) => ({ ...s, cron: '30 7 * * 1-5' })) }
      : c,
  );
  expect(await syncAgentSchedules(rt.client, rt.taskQueue, changed)).toMatchObject({
    updated: [id],
  });
  const none = configs.map((c) => ({ ...c, schedules: [] }));
  expect(await syncAgentSchedules(rt.client, rt.taskQueue, none)).toMatchObject({
    deleted: [id],
  });
}, 90_000);

it('announces an applied write as write.applied exactly once, retries included', async () => {
  const gw = new GatewayClient(rt.client, database.db, rt.taskQueue);
  const write = journalPost({ key: `applied-${++seq}` });
  await gw.submit(write);
  const result = await gw.result(ORG, write.idempotencyKey);
  expect(result.outcome).toBe('applied');
  const submissionId = result.submissionId;
  const announced = await eventually(async () => {
    const rows = (await eventRows('write.applied')).filter(
      (r) => (r.payload as { submissionId?: string }).submissionId === submissionId,
    );
    return rows.length > 0 ? rows : undefined;
  });
  expect(announced).toHaveLength(1);
  expect(announced[0]).toMatchObject({ source: 'rule' });
  expect(announced[0]?.payload).toMatchObject({
    submissionId,
    kind: 'journal.post',
    entryIds: result.entryIds,
  });
  // A retried apply announces again: the same event, nothing new (running or closed).
  const again = {
    orgId: ORG,
    submissionId,
    kind: 'journal.post',
    effects: result.effects,
    entryIds: result.entryIds,
  };
  const retried = await announceWriteApplied({ db: database.db, events: rt.events }, again);
  expect(retried).toMatchObject({ eventId: announced[0]?.id, status: 'accepted' });
  await rt.events.result(retried.workflowId);
  await announceWriteApplied({ db: database.db, events: rt.events }, again);
  const [{ n }] = (await database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(
      sql`${events.type} = 'write.applied' and ${events.payload}->>'submissionId' = ${submissionId}`,
    )) as [{ n: number }];
  expect(n).toBe(1);
}, 60_000);

it(`breaks a self-triggering agent at hop ${MAX_EVENT_HOPS} and reports it`, async () => {
  const emit = (round: number) => ({
    content: [
      {
        type: 'tool_use',
        id: `toolu_emit_${round}`,
        name: 'emit_event',
        input: { type: 'loop.ping', payload: { round } },
      },
    ],
    stop_reason: 'tool_use',
  });
  const said = (t: string) => ({ content: [{ type: 'text', text: t }] });
  // One run at a time (max_concurrent_runs 1): each run asks twice, emits, then answers.
  fake.replyWith([
    emit(1),
    said('ping sent'),
    emit(2),
    said('ping sent'),
    emit(3),
    said('ping refused by the loop breaker'),
  ]);
  const first = await rt.events.acceptEvent({
    orgId: ORG,
    type: 'loop.ping',
    source: 'rule',
    payload: { round: 0 },
  });
  const chain = await eventually(async () => {
    const rows = await eventRows('loop.ping');
    return rows.length === MAX_EVENT_HOPS + 1 && rows.every((r) => r.state === 'completed')
      ? rows
      : undefined;
  }, 90_000);
  const hops = chain
    .map((r) => (r.causation as { hop?: number } | null)?.hop ?? 0)
    .sort((a, b) => a - b);
  expect(hops).toEqual([0, 1, 2]);
  const last = chain.find((r) => (r.causation as { hop?: number } | null)?.hop === MAX_EVENT_HOPS);
  const [run] = await runsOfEvent(database.db, last!.orgId, last!.id);
  const record = await getRunRecord(database.db, run!.orgId, run!.id);
  expect(record?.progress.map((p) => p.message)).toContain(
    `loop breaker: loop.ping would be hop ${MAX_EVENT_HOPS + 1} of a chain capped at ${MAX_EVENT_HOPS}; not emitted`,
  );
  // Nothing ran past the cap, and nothing is still going.
  await new Promise((r) => setTimeout(r, 500));
  expect(await eventRows('loop.ping')).toHaveLength(MAX_EVENT_HOPS + 1);
  expect((await rt.events.result(first.workflowId)).state).toBe('completed');
}, 120_000);
