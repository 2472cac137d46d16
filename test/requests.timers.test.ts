import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { createRequestsActivities } from '../activities/requests';
import { EventsClient } from '../client/events-client';
import {
  DELIVERY_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  createNotifier,
  deliveryId,
  verifyWebhook,
} from '../activities/requests/notifier';
import { RequestsClient } from '../client/requests-client';
import { notificationsOf, requestEvents } from '../db/repositories/requests';
import type { Database } from '../db/connection';
import type { RequestView } from '../workflows/requests/contract';
import { createTestDatabase } from './support/database';
import { workflowBundle } from './support/worker';
import { startTimeSkippingEnv } from './support/time-skipping';
import {
  CLERK,
  OWNER,
  PLACEHOLDER_USER,
  RORG,
  approval,
  classification,
  seedRequestOrgs,
} from './requests.fixtures';
import { domainTaskQueue } from '../workflows/task-queue';
import { CsOrg, CsState } from '../workflows/search-attributes';

/**
 * The request workflow's timers on the time-skipping test server (days pass in milliseconds)
 * with the real request activities over PostgreSQL and the real notifier aimed at a local
 * SMTP server (smtp-server) and a local webhook receiver (node:http).
 */
const WEBHOOK_SECRET = randomBytes(32).toString('hex');
let testEnv: TestWorkflowEnvironment;
let database: Database;
let requests: RequestsClient;
let smtp: SMTPServer;
let hook: Server;
const mails: { to: string[]; data: string }[] = [];
const hooks: {
  body: { purpose: string; requestId: string; deliveryId: string; assignee: { email: string } };
  valid: boolean;
  delivery: string | undefined;
}[] = [];
let notifierConfig: Parameters<typeof createNotifier>[0];
const taskQueue = `requests-${randomBytes(4).toString('hex')}`;
let worker: Worker | undefined;
let running: Promise<void> | undefined;

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, cb) {
      let data = '';
      stream.on('data', (c: Buffer) => (data += c.toString()));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        cb();
      });
    },
  });
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hooks.push({
        body: JSON.parse(body) as (typeof hooks)[number]['body'],
        valid: verifyWebhook(
          WEBHOOK_SECRET,
          {
            signature: req.headers[SIGNATURE_HEADER] as string | undefined,
            timestamp: req.headers[TIMESTAMP_HEADER] as string | undefined,
          },
          body,
        ),
        delivery: req.headers[DELIVERY_HEADER] as string | undefined,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  const hookPort = (hook.address() as AddressInfo).port;

  testEnv = await startTimeSkippingEnv([CsOrg, CsState]);
  notifierConfig = {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    from: 'countersign@acme-books.io',
    webhookUrl: `http://127.0.0.1:${hookPort}/notify`,
    webhookSecret: WEBHOOK_SECRET,
  };
  database = await createTestDatabase();
  await seedRequestOrgs(database.db);
  requests = new RequestsClient(testEnv.client, database.db, { taskQueue });
  // One worker for the file: time skipped for one test must find a worker for the requests
  // another test left open (a dead worker's sticky queue would hold the skipping clock).
  worker = await Worker.create({
    connection: testEnv.nativeConnection,
    namespace: testEnv.namespace ?? 'default',
    taskQueue: domainTaskQueue(taskQueue, 'requests'),
    workflowBundle: workflowBundle(),
    activities: createRequestsActivities({
      db: database.db,
      requests: new RequestsClient(testEnv.client, database.db, { taskQueue }),
      events: new EventsClient(testEnv.client, database.db, { taskQueue }),
      notifier: createNotifier(notifierConfig),
      anthropic: null,
      model: 'claude-haiku-4-5',
    }),
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await testEnv?.teardown();
  await database?.close();
  await new Promise<void>((r) => smtp?.close(() => r()));
  await new Promise<void>((r) => hook?.close(() => r()));
});

describe('request timers and notices', () => {
  it('reminds when due (day 14) and every 7 days by email and signed webhook, then expires at day 90', async () => {
    const c = await requests.createRequest(classification());
    const result = (await requests.result(RORG, c.requestId)) as RequestView;
    expect(result.status).toBe('expired');
    // Days 14, 21, ..., 84: eleven reminders before the expiry at day 90.
    expect(result.remindersSent).toBe(11);
    const events = await requestEvents(database.db, c.requestId);
    expect(events.filter((e) => e.kind === 'reminded')).toHaveLength(11);
    expect(events.at(-1)?.kind).toBe('expired');
    const row = await requests.getRequest(RORG, c.requestId);
    expect([row?.status, row?.remindersSent]).toEqual(['expired', 11]);
    expect(await requests.listInbox({ orgId: RORG, userId: OWNER })).not.toContainEqual(
      expect.objectContaining({ requestId: c.requestId }),
    );
    // The assignment and each reminder reached the owner on both channels, once each.
    const mine = mails.filter((m) => m.data.includes(`X-Countersign-Request: ${c.requestId}`));
    expect(mine).toHaveLength(12);
    expect(mine.every((m) => m.to.join() === 'olga@acme-books.io')).toBe(true);
    expect(mine.filter((m) => /Subject: \[Countersign\] Reminder/.test(m.data))).toHaveLength(11);
    const signed = hooks.filter((h) => h.body.requestId === c.requestId);
    expect(signed.map((h) => h.body.purpose)).toEqual([
      'assigned',
      ...Array.from({ length: 11 }, (_, i) => `reminder-${i + 1}`),
    ]);
    expect(signed.every((h) => h.valid)).toBe(true);
    const notes = await notificationsOf(database.db, c.requestId);
    expect(notes.filter((n) => n.status === 'sent')).toHaveLength(24);
  });

  it('sends a notice again with the same delivery id, so a resend after a lost record can be dropped', async () => {
    // A worker that died after sending and before recording retries the send: at-least-once.
    const notifier = createNotifier(notifierConfig);
    const notice = {
      requestId: 'hr_resend_probe',
      orgId: RORG,
      purpose: 'assigned',
      type: 'classification',
      title: 'Ledger codes',
      question: 'Which codes?',
      dueAt: new Date(0).toISOString(),
      assigneeUserId: OWNER,
      email: 'olga@acme-books.io',
    };
    for (let i = 0; i < 2; i++)
      for (const ch of ['email', 'webhook'] as const) await notifier.send(ch, notice);
    const id = (ch: 'email' | 'webhook') => deliveryId(notice.requestId, notice.purpose, ch);
    const sentMails = mails.filter((m) =>
      m.data.includes('X-Countersign-Request: hr_resend_probe'),
    );
    expect(sentMails).toHaveLength(2);
    for (const m of sentMails)
      expect(m.data).toMatch(new RegExp(`Message-ID: <${id('email')}@acme-books\\.io>`, 'i'));
    const sentHooks = hooks.filter((h) => h.body.requestId === 'hr_resend_probe');
    expect(sentHooks.map((h) => [h.delivery, h.body.deliveryId, h.valid])).toEqual([
      [id('webhook'), id('webhook'), true],
      [id('webhook'), id('webhook'), true],
    ]);
    // Another purpose of the same request is another notice.
    expect(deliveryId(notice.requestId, 'reminder-1', 'email')).not.toBe(id('email'));
  });

  it('refuses every notice to a placeholder address, and still reminds and expires', async () => {
    const p = await requests.createRequest(
      approval({ assigneeUserId: PLACEHOLDER_USER, dueInDays: 1, expiresInDays: 2 }),
    );
    const c = await requests.createRequest(
      approval({ assigneeUserId: CLERK, dueInDays: 1, expiresInDays: 2 }),
    );
    const result = (await requests.result(RORG, p.requestId)) as RequestView;
    await requests.result(RORG, c.requestId);
    expect([result.status, result.remindersSent, result.assigneeUserId]).toEqual([
      'expired',
      1,
      PLACEHOLDER_USER,
    ]);
    const notes = await notificationsOf(database.db, p.requestId);
    expect(notes).toHaveLength(4); // assigned + reminder-1, on email and webhook
    expect(
      notes.every((n) => n.status === 'refused' && n.recipient === 'pete@vendor.example'),
    ).toBe(true);
    expect(notes[0]?.detail).toMatch(/placeholder address/);
    expect(mails.some((m) => m.to.includes('pete@vendor.example'))).toBe(false);
    expect(hooks.some((h) => h.body.requestId === p.requestId)).toBe(false);
    // The same notices to a real address were sent.
    expect(mails.filter((m) => m.to.includes('cleo@acme-books.io'))).toHaveLength(2);
  });
});
