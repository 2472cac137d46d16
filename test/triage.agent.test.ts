import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { useSeededWorker } from './support/seeded-worker';
import { eventually } from './agent-runs.fixtures';
import { ingestFile } from '../client/documents';
import { EventsClient } from '../client/events-client';
import { RequestsClient } from '../client/requests-client';
import { events, humanRequests } from '../db/schema';
import { getRunRecord, runsOfEvent } from '../db/repositories/agent-runs';
import { seedBillOrg, OPERATOR } from '../scripts/eval/invoices';
import { MAX_EVENT_HOPS } from '../workflows/events/contract';

/**
 * Triage end to end on the dev server with PostgreSQL: a filing sent to the bill processor is
 * not a bill, so it is handed to triage, which routes it to the document analyst; at the hop
 * cap triage cannot hand over and asks a person, whose answer routes it (a person restarts the
 * chain); a document with no clear owner goes to a person, and "none" closes it; the answers'
 * callbacks run triage until the callback breaker's limit, after which a callback is failed,
 * not dispatched. Triage never writes: no submission in any of its runs.
 */
// The callback breaker at 3 for this file, so a live loop of callbacks reaches it.
const CALLBACK_LIMIT = 3;
const env = useSeededWorker({ CALLBACK_RUN_LIMIT: String(CALLBACK_LIMIT) });
const ORG = 'triage-e2e';
const dir = mkdtempSync(join(tmpdir(), 'cs-triage-'));
const FILING = `UNITED STATES SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended March 31, 2031
Harbor Lantern Outfitters, Inc. (Exact name of registrant as specified in its charter)
Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations
Net sales for fiscal 2031 were $412.7 million, compared with $398.1 million in fiscal 2030.`;
const LETTER = `Dear colleagues,
Thank you for hosting us at the spring offsite. The photos from the harbour walk are attached
to this note, and we look forward to seeing everyone again in the autumn.`;

async function ingest(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  writeFileSync(path, text);
  const { document } = await ingestFile(env.deps(), { orgId: ORG, path });
  return document.id;
}

const eventsOf = (type: string) =>
  env
    .deps()
    .db.select()
    .from(events)
    .where(and(eq(events.orgId, ORG), eq(events.type, type)));
const terminal = (s: string) => !['pending', 'processing'].includes(s);

async function settledRunOf(eventId: string) {
  const { db } = env.deps();
  return eventually(async () => {
    const [run] = await runsOfEvent(db, ORG, eventId);
    if (
      !run ||
      !['completed', 'failed', 'cancelled', 'timeout', 'waiting_human'].includes(run.state)
    )
      return undefined;
    return (await getRunRecord(db, ORG, run.id))!;
  }, 60_000);
}

beforeAll(async () => {
  await seedBillOrg(env.deps().db, ORG);
});

it('hands a filing the bill processor cannot read to triage, which routes it to the analyst', async () => {
  const deps = env.deps();
  const evs = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const documentId = await ingest('annual-report.txt', FILING);
  const sent = await evs.acceptEvent({
    orgId: ORG,
    type: 'bill.received',
    source: 'connector',
    payload: { documentId },
  });
  await evs.result(sent.workflowId);
  const bill = await settledRunOf(sent.eventId);
  expect(JSON.stringify(bill.run.output)).toMatch(/1 handed to triage/);
  expect(bill.submissions).toEqual([]);

  // triage.requested (hop 1) → triage routes → document.received (hop 2) → the analyst.
  const [handed] = await eventually(async () => {
    const rows = (await eventsOf('triage.requested')).filter((e) => terminal(e.state));
    return rows.length ? rows : undefined;
  });
  expect(handed).toMatchObject({ state: 'completed', source: 'agent' });
  expect(handed!.causation).toMatchObject({ hop: 1 });
  const triage = await settledRunOf(handed!.id);
  expect(triage.run).toMatchObject({ agentType: 'triage', state: 'completed' });
  expect(triage.submissions).toEqual([]);
  const [routed] = await eventually(async () => {
    const rows = await eventsOf('document.received');
    return rows.length ? rows : undefined;
  });
  expect(routed!.payload).toEqual({ documentId });
  expect(routed!.causation).toMatchObject({ hop: MAX_EVENT_HOPS });
  const analyst = await eventually(async () => {
    const [run] = await runsOfEvent(deps.db, ORG, routed!.id);
    return run;
  });
  expect(analyst.agentType).toBe('document_analyst');
});

it('at the hop cap asks a person instead of handing over; the answer routes it', async () => {
  const deps = env.deps();
  const evs = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const documentId = await ingest('annual-report-2.txt', FILING.replace('2031', '2032'));
  const before = (await eventsOf('document.received')).length;
  const sent = await evs.acceptEvent({
    orgId: ORG,
    type: 'triage.requested',
    source: 'agent',
    payload: { documentId, reason: 'a chain already at its cap' },
    causation: { agentInstanceId: 'run-upstream', hop: MAX_EVENT_HOPS },
  });
  await evs.result(sent.workflowId);
  const run = await settledRunOf(sent.eventId);
  expect(run.run.state).toBe('waiting_human');
  expect(run.progress.map((p) => p.message).join('\n')).toMatch(/loop breaker/);
  const [req] = await deps.db
    .select()
    .from(humanRequests)
    .where(and(eq(humanRequests.orgId, ORG), eq(humanRequests.type, 'classification')));
  expect(req!.evidence).toMatchObject({ documentId, triage: expect.stringMatching(/refused/) });
  expect((await eventsOf('document.received')).length).toBe(before);

  // The person's answer routes it: a person restarts the chain, so this hand-off is hop 1.
  const reqs = new RequestsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const ack = await reqs.answerRequest({
    orgId: ORG,
    requestId: req!.id,
    answeredBy: `${ORG}-${OPERATOR}`,
    answer: { routes: { [documentId]: 'filing' } },
  });
  expect(ack.status).toBe('answered');
  const routed = await eventually(async () =>
    (await eventsOf('document.received')).find(
      (e) => (e.payload as { documentId?: string }).documentId === documentId,
    ),
  );
  expect(routed.causation).toMatchObject({ hop: 1 });
});

it('sends a document with no clear owner to a person; "none" closes it, routing nothing', async () => {
  const deps = env.deps();
  const evs = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const documentId = await ingest('letter.txt', LETTER);
  const sent = await evs.acceptEvent({
    orgId: ORG,
    type: 'triage.requested',
    source: 'connector',
    payload: { documentId, reason: 'arrived in the AP mailbox', subject: 'Thank you' },
  });
  await evs.result(sent.workflowId);
  const run = await settledRunOf(sent.eventId);
  expect(run.run.state).toBe('waiting_human');
  const [req] = (
    await deps.db
      .select()
      .from(humanRequests)
      .where(and(eq(humanRequests.orgId, ORG), eq(humanRequests.type, 'classification')))
  ).filter((r) => (r.evidence as { documentId?: string }).documentId === documentId);
  expect(req!.evidence).toMatchObject({ triage: expect.stringMatching(/^no route has 2 cues/) });
  const reqs = new RequestsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  // An owner that is not offered is refused by the form; the request stays open.
  await expect(
    reqs.answerRequest({
      orgId: ORG,
      requestId: req!.id,
      answeredBy: `${ORG}-${OPERATOR}`,
      answer: { routes: { [documentId]: 'payments' } },
    }),
  ).rejects.toThrow();
  await reqs.answerRequest({
    orgId: ORG,
    requestId: req!.id,
    answeredBy: `${ORG}-${OPERATOR}`,
    answer: { routes: { [documentId]: 'none' } },
  });
  const callback = await eventually(async () =>
    (await eventsOf('request.completed')).find(
      (e) => (e.payload as { requestId?: string }).requestId === req!.id && terminal(e.state),
    ),
  );
  const closing = await settledRunOf(callback.id);
  expect(closing.run).toMatchObject({ agentType: 'triage', state: 'completed' });
  expect(JSON.stringify(closing.run.output)).toMatch(/→ none/);
  // Only the creator of the request is resumed by its callback.
  expect((await runsOfEvent(deps.db, ORG, callback.id)).map((r) => r.agentType)).toEqual([
    'triage',
  ]);
});

it("stops dispatching request callbacks at the breaker's limit of completed callback runs", async () => {
  const deps = env.deps();
  const evs = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const reqs = new RequestsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  // The two tests above completed two callback-triggered triage runs; two more questions.
  const asked: string[] = [];
  for (const n of [1, 2]) {
    const documentId = await ingest(`note-${n}.txt`, `${LETTER}\nNote ${n}.`);
    const sent = await evs.acceptEvent({
      orgId: ORG,
      type: 'triage.requested',
      source: 'connector',
      payload: { documentId, reason: `unlabelled note ${n}` },
    });
    await evs.result(sent.workflowId);
    await settledRunOf(sent.eventId);
    const [req] = (
      await deps.db
        .select()
        .from(humanRequests)
        .where(and(eq(humanRequests.orgId, ORG), eq(humanRequests.type, 'classification')))
    ).filter((r) => (r.evidence as { documentId?: string }).documentId === documentId);
    asked.push(req!.id);
  }
  const callbackOf = (requestId: string) =>
    eventually(async () =>
      (await eventsOf('request.completed')).find(
        (e) => (e.payload as { requestId?: string }).requestId === requestId && terminal(e.state),
      ),
    );
  const answer = (requestId: string, documentId: string) =>
    reqs.answerRequest({
      orgId: ORG,
      requestId,
      answeredBy: `${ORG}-${OPERATOR}`,
      answer: { routes: { [documentId]: 'none' } },
    });
  const docOf = async (requestId: string) =>
    ((await reqs.getRequest(ORG, requestId))!.evidence as { documentId: string }).documentId;

  // The third callback run still runs (two completed before it) ...
  await answer(asked[0]!, await docOf(asked[0]!));
  const third = await callbackOf(asked[0]!);
  expect(third.state).toBe('completed');
  expect((await settledRunOf(third.id)).run.state).toBe('completed');
  // ... the fourth is failed by the breaker and runs nothing.
  await answer(asked[1]!, await docOf(asked[1]!));
  const fourth = await callbackOf(asked[1]!);
  expect(fourth.state).toBe('failed');
  expect(fourth.detail).toMatch(
    new RegExp(
      `^loop breaker: ${CALLBACK_LIMIT} completed callback-triggered runs .*\\(limit ${CALLBACK_LIMIT}\\)$`,
    ),
  );
  expect(await runsOfEvent(deps.db, ORG, fourth.id)).toEqual([]);
});
