import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/connection';
import { events } from '../../db/schema';
import { recordEventTransition } from '../../db/repositories/events';
import {
  EVENT_SUSPENDED,
  eventResumeUpdate,
  eventStateQuery,
} from '../../workflows/events/contract';
import { CsState } from '../../workflows/search-attributes';
import {
  agentsDirWith,
  eventually,
  startRuntimeWorker,
  type RuntimeWorker,
} from '../agent-runs.fixtures';
import { ORG, seedGatewayOrgs } from '../gateway.fixtures';
import { createTestDatabase } from '../support/database';

/**
 * A fault scenario (npm run test:faults): an event workflow's database steps ride out an
 * outage past the quick local retries (~45 s of real backoff, set in the workflow), and past
 * the outage budget they suspend, visibly, until an operator resumes them. The outbox's own
 * behaviour (committed with the write, handed over once) is in test/events.outbox.test.ts.
 */
let database: Database;
let rt: RuntimeWorker;
let agents: { dir: string; cleanup(): void };
let seq = 0;

// Event id → failures still to throw from eventTransition (Infinity: until released).
const outage = new Map<string, number>();
const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {});

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  agents = agentsDirWith({});
  rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    activityOverrides: {
      eventTransition: (async (
        t: Parameters<typeof recordEventTransition>[1] & { atMs: number },
      ) => {
        const left = outage.get(t.eventId) ?? 0;
        if (left > 0) {
          outage.set(t.eventId, left - 1);
          throw refused();
        }
        const { atMs, ...rest } = t;
        await recordEventTransition(database.db, { ...rest, at: new Date(atMs) });
      }) as never,
      eventRetrySettings: (async () => ({ budgetMs: 4000, maximumIntervalMs: 500 })) as never,
    },
  });
}, 60_000);
afterAll(async () => {
  await rt?.stop();
  await database?.close();
  agents?.cleanup();
});

it('rides out a database outage past the local retries, and suspends past the budget until resumed', async () => {
  // A: 13 failures, past the 10 quick local attempts (~45 s), within the outage budget.
  // B: fails until released: suspended after the budget, then resumed by an operator.
  const a = await rt.events.acceptEvent({
    orgId: ORG,
    type: 'outage.probe',
    source: 'connector',
    payload: { probe: `a-${++seq}` },
  });
  const b = await rt.events.acceptEvent({
    orgId: ORG,
    type: 'outage.probe',
    source: 'connector',
    payload: { probe: `b-${++seq}` },
  });
  // The first transition (ignored: nobody subscribes) is the step that meets the outage.
  outage.set(a.eventId, 13);
  outage.set(b.eventId, Number.POSITIVE_INFINITY);

  const ra = await rt.events.result(a.workflowId);
  expect(ra.state).toBe('ignored');
  expect(outage.get(a.eventId)).toBe(0);

  const hb = rt.client.workflow.getHandle(b.workflowId);
  const view = await eventually(async () => {
    const v = await hb.query(eventStateQuery);
    return v.suspended ? v : undefined;
  }, 60_000);
  expect(view.suspended).toMatchObject({ step: 'transition:ignored' });
  // The budget ran out: the error is the schedule-to-close timeout, or — when the last attempt
  // failed just before the budget — that attempt's refused connection. Either way, not success.
  expect(view.suspended?.error).toMatch(/timed out|ECONNREFUSED/);
  const desc = await hb.describe();
  expect(desc.typedSearchAttributes.get(CsState)).toBe(EVENT_SUSPENDED);
  expect(desc.status.name).toBe('RUNNING');

  outage.set(b.eventId, 0);
  await expect(
    hb.executeUpdate(eventResumeUpdate, { args: [{ operator: 'opal' }] }),
  ).resolves.toEqual({ resumed: true, step: 'transition:ignored' });
  const rb = await rt.events.result(b.workflowId);
  expect(rb.state).toBe('ignored');
  const [stored] = await database.db
    .select()
    .from(events)
    .where(and(eq(events.orgId, ORG), eq(events.id, b.eventId)));
  expect(stored?.state).toBe('ignored');
  // Nothing to resume any more: refused before anything reaches history.
  await expect(
    hb.executeUpdate(eventResumeUpdate, { args: [{ operator: 'opal' }] }),
  ).rejects.toThrow();
}, 150_000);
