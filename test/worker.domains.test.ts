import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { temporal } from '@temporalio/proto';
import type { NativeConnection } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { connectClient } from '../client/temporal-connection';
import { AnalysisClient } from '../client/analysis-client';
import { ingestFile } from '../client/documents';
import { GatewayClient } from '../client/gateway-client';
import { RequestsClient } from '../client/requests-client';
import { queueStats } from '../client/commands/queues';
import type { Database } from '../db/connection';
import { getEvent } from '../db/repositories/events';
import { emittedEventId } from '../activities/events/emit';
import { PROJECT_ROOT } from '../scripts/lib/temporal-binaries';
import { analysisWorkflowId } from '../workflows/analysis.contract';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import { domainTaskQueue, slotsTaskQueue, type Domain } from '../workflows/task-queue';
import { createWorker } from '../worker';
import type { WorkerGroup } from '../worker-group';
import { createTestDatabase } from './support/database';
import { SAMPLES, seedOrgs } from './support/fixtures';
import { testConfig, workflowBundle } from './support/worker';
import { ORG, OWNER, journalPost, seedGatewayOrgs } from './gateway.fixtures';

/**
 * Workers per domain (issue 9, item 9) on the dev server and PostgreSQL: the gateway domain
 * runs alone in its own OS process (WORKER_DOMAINS=gateway), the other four domains in this
 * one. A write that needs an approval crosses both ways — the gateway run (process A) opens
 * its inbox entry with the requests domain (B), the answer goes from the request run (B) to
 * the gateway's Update (A), and the applied write is announced to the events domain (B) —
 * and an analysis runs end to end in B. The histories say which process did each step.
 */
const TEN_K = 'northwind-2024-10k';
const baseQueue = `domains-${randomBytes(4).toString('hex')}`;
let database: Database;
let gatewayProcess: ChildProcess | undefined;
let rest: { worker: WorkerGroup; connection: NativeConnection; running: Promise<void> };
let client: Client;
const here = `${process.pid}@${hostname()}`;

function readyLine(child: ChildProcess, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(
      () => reject(new Error(`the gateway worker process was not ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.stdout?.on('data', (d: Buffer) => {
      buf += d.toString();
      const line = buf.split('\n').find((l) => l.startsWith('WORKER_READY '));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line.slice('WORKER_READY '.length)) as string[]);
      }
    });
    child.once('exit', (code) => reject(new Error(`the gateway worker exited (${code})`)));
  });
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await seedGatewayOrgs(database.db);
  const env = { DELEGATION_WATCH_MINUTES: '0', TEMPORAL_TASK_QUEUE: baseQueue };
  gatewayProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'test/fixtures/domains/domain-worker.ts')],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: {
        ...process.env,
        // As the other worker (testConfig): clear payloads, no anchors.
        TEMPORAL_PAYLOAD_CODEC: 'off',
        AUDIT_ANCHOR_EVERY_MINUTES: '0',
        ...env,
        // A deployment's gateway worker: only its own role's URL (countersign_gateway).
        DATABASE_URL: database.gatewayUrl,
        WORKER_DOMAINS: 'gateway',
      },
    },
  );
  const ready = readyLine(gatewayProcess, 60_000);
  const cfg = testConfig(database, { ...env, WORKER_DOMAINS: 'analysis,events,agents,requests' });
  const w = await createWorker({ cfg, database, workflowBundle: workflowBundle() });
  rest = { ...w, running: w.worker.run() };
  expect(await ready).toEqual([domainTaskQueue(baseQueue, 'gateway')]);
  client = await connectClient(cfg, database.db);
}, 90_000);

afterAll(async () => {
  if (gatewayProcess && gatewayProcess.exitCode === null) {
    const exited = new Promise((r) => gatewayProcess?.once('exit', r));
    gatewayProcess.kill('SIGTERM');
    await exited;
  }
  if (rest) {
    rest.worker.shutdown();
    await rest.running;
    await rest.connection.close();
  }
  await client?.connection.close();
  await database?.close();
});

type Event = temporal.api.history.v1.IHistoryEvent;
const history = async (workflowId: string): Promise<Event[]> =>
  (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
/** Who ran each workflow task and each activity (by activity type), from a history. */
function whoRan(events: Event[]) {
  const types = new Map<string, string>();
  const activities: { type: string; queue: string; identity: string }[] = [];
  const queues = new Map<string, string>();
  for (const e of events) {
    const s = e.activityTaskScheduledEventAttributes;
    if (s) {
      types.set(String(e.eventId), s.activityType?.name ?? '?');
      queues.set(String(e.eventId), s.taskQueue?.name ?? '?');
    }
    const t = e.activityTaskStartedEventAttributes;
    if (t) {
      const id = String(t.scheduledEventId);
      activities.push({
        type: types.get(id) ?? '?',
        queue: queues.get(id) ?? '?',
        identity: t.identity ?? '?',
      });
    }
  }
  const workflowTasks = new Set(
    events.flatMap((e) =>
      e.workflowTaskStartedEventAttributes ? [e.workflowTaskStartedEventAttributes.identity] : [],
    ),
  );
  return { workflowTasks: [...workflowTasks], activities };
}

it('serves each domain from the process that runs it: gateway alone in one, the rest in another', async () => {
  const gatewayPid = gatewayProcess?.pid;
  const there = `${gatewayPid}@${hostname()}`;
  // Each queue is polled by exactly the process that serves its domain.
  const polled = async (queue: string) => {
    const s = await queueStats(client, queue);
    return [...new Set([...s.workflow.pollers, ...s.activity.pollers].map((p) => p.identity))];
  };
  const restDomains: Domain[] = ['analysis', 'events', 'agents', 'requests'];
  expect(await polled(domainTaskQueue(baseQueue, 'gateway'))).toEqual([there]);
  for (const d of restDomains) expect(await polled(domainTaskQueue(baseQueue, d))).toEqual([here]);
  expect(await polled(slotsTaskQueue(baseQueue))).toEqual([here]);

  // A write needing one approval, decided through its inbox entry (the requests domain).
  const gateway = new GatewayClient(client, database.db, baseQueue);
  const requests = new RequestsClient(client, database.db, { taskQueue: baseQueue });
  const write = journalPost({ amount: '1000' });
  await gateway.submit(write);
  expect((await gateway.settle(ORG, write.idempotencyKey)).status).toBe('awaiting_approval');
  let item;
  for (let i = 0; !item && i < 200; i++) {
    item = (await requests.listInbox({ orgId: ORG, userId: OWNER })).find(
      (x) => x.source === 'gateway_approval' && x.linkKey === write.idempotencyKey,
    );
    if (!item) await new Promise((r) => setTimeout(r, 50));
  }
  if (!item) throw new Error('the approval never reached the inbox');
  await requests.answerRequest({
    requestId: item.requestId,
    orgId: ORG,
    answeredBy: OWNER,
    // An approval names the plan it approves (what `gateway show` and the inbox display).
    answer: { decision: 'approve', ...(await gateway.currentPlan(ORG, write.idempotencyKey)) },
  });
  const result = await gateway.result(ORG, write.idempotencyKey);
  expect(result.outcome).toBe('applied');
  const submissionId = gatewayWorkflowId(ORG, write.idempotencyKey);
  // The downstream rule's event was accepted by the events domain (in this process).
  const eventId = emittedEventId(`write.applied|${result.submissionId}`);
  let announced = await getEvent(database.db, ORG, eventId);
  for (let i = 0; !announced && i < 200; i++) {
    await new Promise((r) => setTimeout(r, 50));
    announced = await getEvent(database.db, ORG, eventId);
  }
  expect(announced).toMatchObject({ type: 'write.applied' });

  const g = whoRan(await history(submissionId));
  expect(g.workflowTasks).toEqual([there]);
  const inbox = g.activities.filter((a) => a.type.startsWith('request'));
  const own = g.activities.filter((a) => !a.type.startsWith('request'));
  expect(inbox.map((a) => a.type)).toEqual(
    expect.arrayContaining(['requestOpenLinked', 'requestCloseLinked']),
  );
  expect(inbox.every((a) => a.queue === domainTaskQueue(baseQueue, 'requests'))).toBe(true);
  expect(inbox.every((a) => a.identity === here)).toBe(true);
  expect(own.map((a) => a.type)).toEqual(expect.arrayContaining(['gatewayApply']));
  expect(own.every((a) => a.identity === there)).toBe(true);

  // An analysis end to end, with ingestion, in the process serving analysis.
  const deps = { db: database.db, client, taskQueue: baseQueue };
  await ingestFile(deps, { orgId: ORG, path: join(SAMPLES, `${TEN_K}.txt`), docType: '10-K' });
  const analysis = new AnalysisClient(client, baseQueue);
  const requestId = `domains-${Date.now()}`;
  await analysis.start({
    requestId,
    orgId: ORG,
    docIds: [TEN_K],
    queryType: 'extract_metric',
    queryText: 'What is the FY2024 net sales (in USD millions)?',
  });
  const delivered = await analysis.result(ORG, requestId);
  expect(delivered.outcome).toBe('delivered');
  const a = whoRan(await history(analysisWorkflowId(ORG, requestId)));
  expect(a.workflowTasks).toEqual([here]);
  expect(a.activities.length).toBeGreaterThan(3);
  expect(a.activities.every((x) => x.identity === here)).toBe(true);
});
