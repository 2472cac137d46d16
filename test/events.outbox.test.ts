import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { events } from '../db/schema';
import { createTestDatabase } from './support/database';
import {
  agentsDirWith,
  eventually,
  startRuntimeWorker,
  type RuntimeWorker,
} from './agent-runs.fixtures';
import { ORG, journalPost, seedGatewayOrgs, warmAccounts } from './gateway.fixtures';
import { GatewayClient } from '../client/gateway-client';
import { createGatewayActivities } from '../activities/gateway';
import { dispatchOutbox, handOverOutboxEvent } from '../activities/events/outbox';
import { writeAppliedEvent } from '../activities/events/emit';
import { withWriteAppliedEvent } from '../activities/events/write-applied';
import { getOutboxEvent } from '../db/repositories/event-outbox';

/**
 * Issue 25 item 10: an applied write's `write.applied` is in the outbox, committed with the
 * write, and reaches its event workflow even when nobody hands it over after the apply. The
 * event workflow riding out a database outage is a fault scenario:
 * test/faults/events.outage.test.ts (npm run test:faults).
 */
let database: Database;
let rt: RuntimeWorker;
let agents: { dir: string; cleanup(): void };
let seq = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  agents = agentsDirWith({});
  const raw = createGatewayActivities({ db: database.db });
  const inline = withWriteAppliedEvent(raw.gatewayApply, database.db, (row) =>
    handOverOutboxEvent({ db: database.db, events: rt.events }, row),
  );
  rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    activityOverrides: {
      // Writes keyed `lost-*` apply without the in-line hand-over: the process that was to
      // start the event "died" right after the commit.
      gatewayApply: (async (a: { submissionId: string }) =>
        a.submissionId.includes(':lost-') ? raw.gatewayApply(a) : inline(a)) as never,
    },
  });
}, 60_000);
afterAll(async () => {
  await rt?.stop();
  await database?.close();
  agents?.cleanup();
});

const writeAppliedRows = (submissionId: string) =>
  database.db
    .select()
    .from(events)
    .where(
      and(
        eq(events.type, 'write.applied'),
        sql`${events.payload}->>'submissionId' = ${submissionId}`,
      ),
    );

it('commits the event with the write; the dispatcher starts it when nobody handed it over, once', async () => {
  const gw = new GatewayClient(rt.client, database.db, rt.taskQueue);
  const write = journalPost({ key: `lost-${++seq}` });
  await gw.submit(write);
  const result = await gw.result(ORG, write.idempotencyKey);
  expect(result.outcome).toBe('applied');
  const { eventId } = writeAppliedEvent({
    orgId: ORG,
    submissionId: result.submissionId,
    kind: 'journal.post',
    effects: result.effects,
    entryIds: result.entryIds,
  });
  const row = await getOutboxEvent(database.db, ORG, eventId);
  expect(row).toMatchObject({ origin: result.submissionId, handedOverAt: null });
  expect(row?.payload).toMatchObject({ submissionId: result.submissionId, kind: 'journal.post' });
  expect(await writeAppliedRows(result.submissionId)).toHaveLength(0);

  const first = await dispatchOutbox(
    { db: database.db, events: rt.events },
    { graceMs: 0, limit: 100 },
  );
  expect(first.failed).toEqual([]);
  expect(first.handedOver).toBeGreaterThanOrEqual(1);
  const handed = await getOutboxEvent(database.db, ORG, eventId);
  expect(handed?.handedOverAt).not.toBeNull();
  await rt.events.result(handed!.workflowId!);
  // Again, by the dispatcher and by hand: nothing found, the same event, one row.
  const second = await dispatchOutbox(
    { db: database.db, events: rt.events },
    { graceMs: 0, limit: 100 },
  );
  expect(second.found).toBe(0);
  expect(await handOverOutboxEvent({ db: database.db, events: rt.events }, row!)).toEqual({
    workflowId: handed!.workflowId,
  });
  const rows = await writeAppliedRows(result.submissionId);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ id: eventId, state: 'ignored' });
}, 90_000);

it('hands the event over in line after a normal apply', async () => {
  const gw = new GatewayClient(rt.client, database.db, rt.taskQueue);
  const write = journalPost({ key: `inline-${++seq}` });
  await gw.submit(write);
  const result = await gw.result(ORG, write.idempotencyKey);
  const rows = await eventually(async () => {
    const r = await writeAppliedRows(result.submissionId);
    return r.length > 0 && r[0]?.state === 'ignored' ? r : undefined;
  });
  expect(rows).toHaveLength(1);
  const row = await getOutboxEvent(database.db, ORG, rows[0]!.id);
  expect(row?.handedOverAt).not.toBeNull();
}, 60_000);
