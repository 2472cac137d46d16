import { randomBytes } from 'node:crypto';
import { AnswerRefusedError, RequestsClient } from '../client/requests-client';
import type { Database } from '../db/connection';
import { requestStateQuery, type RequestView } from '../workflows/requests/contract';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import {
  ADMIN,
  CLERK,
  OTHER_ADMIN,
  OWNER,
  RORG,
  RORG_ADMIN_ONLY,
  RORG_EMPTY,
  VIEWER,
  approval,
  classification,
  seedRequestOrgs,
} from './requests.fixtures';

/**
 * Requests on the dev server with the real worker and PostgreSQL: routing with its recorded
 * route, answers checked against the form, the org and the role, free text read strictly.
 * The callback event is recorded at the activity seam.
 */
let database: Database;
let tw: TestWorker;
let requests: RequestsClient;
const callbacks: unknown[] = [];

async function opened(orgId: string, requestId: string): Promise<RequestView> {
  const h = tw.client.workflow.getHandle(`request:${orgId}:${requestId}`);
  for (let i = 0; i < 200; i++) {
    const v = await h.query(requestStateQuery);
    if (v.route) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('request never routed');
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedRequestOrgs(database.db);
  tw = await startTestWorker(database, {
    requestEmitCallback: ((c: unknown) => {
      callbacks.push(c);
      return Promise.resolve({
        eventId: `evt_${randomBytes(4).toString('hex')}`,
        status: 'accepted',
      });
    }) as never,
  });
  requests = new RequestsClient(tw.client, database.db, { taskQueue: tw.taskQueue });
}, 120_000);

afterAll(async () => {
  await tw?.stop();
  await database?.close();
});

describe('request routing', () => {
  it('routes to the named assignee, else the owner, else an admin, else nobody — and records the route', async () => {
    {
      const named = await requests.createRequest(approval({ assigneeUserId: CLERK }));
      const viewer = await requests.createRequest(approval({ assigneeUserId: VIEWER }));
      const unnamed = await requests.createRequest(approval());
      const adminOnly = await requests.createRequest(approval({ orgId: RORG_ADMIN_ONLY }));
      const empty = await requests.createRequest(approval({ orgId: RORG_EMPTY }));
      const v1 = await opened(RORG, named.requestId);
      const v2 = await opened(RORG, viewer.requestId);
      const v3 = await opened(RORG, unnamed.requestId);
      const v4 = await opened(RORG_ADMIN_ONLY, adminOnly.requestId);
      const v5 = await opened(RORG_EMPTY, empty.requestId);
      expect([v1.route, v1.assigneeUserId]).toEqual(['assignee', CLERK]);
      expect([v2.route, v2.assigneeUserId]).toEqual(['owner', OWNER]);
      expect(v2.routeDetail).toContain(`assignee ${VIEWER} holds no answering role`);
      expect([v3.route, v3.assigneeUserId]).toEqual(['owner', OWNER]);
      expect([v4.route, v4.assigneeUserId]).toEqual(['admin', OTHER_ADMIN]);
      expect([v5.route, v5.assigneeUserId]).toEqual(['unrouted', null]);
      const stored = await requests.getRequest(RORG, viewer.requestId);
      expect(stored?.route).toBe('owner');
      expect(stored?.events[0]).toMatchObject({ seq: 1, kind: 'opened' });
      expect(stored?.events[0]?.detail).toContain('owner');
      expect(
        (await requests.listInbox({ orgId: RORG, userId: OWNER })).map((i) => i.requestId),
      ).toEqual(expect.arrayContaining([viewer.requestId, unnamed.requestId]));
    }
  });
});

describe('answering a request', () => {
  it("refuses a viewer, another org and an answer outside the form; accepts a clerk's and calls back", async () => {
    {
      const c = await requests.createRequest(
        classification({ assigneeUserId: CLERK, callback: { eventType: 'request.completed' } }),
      );
      await opened(RORG, c.requestId);
      const base = { requestId: c.requestId, orgId: RORG };
      const good = { codes: { 'line-1': '6100', 'line-2': '6200' } };
      await expect(
        requests.answerRequest({ ...base, answeredBy: VIEWER, answer: good }),
      ).rejects.toMatchObject({
        type: 'AnswererNotAuthorized',
        message: expect.stringContaining('only a viewer'),
      });
      // Another org's admin, claiming this org: no role here.
      await expect(
        requests.answerRequest({ ...base, answeredBy: OTHER_ADMIN, answer: good }),
      ).rejects.toMatchObject({ type: 'AnswererNotAuthorized' });
      // The request workflow itself refuses an answer for another org (sent past the client).
      await expect(
        tw.client.workflow.getHandle(c.workflowId).executeUpdate('answerRequestUpdate', {
          args: [{ ...base, orgId: RORG_ADMIN_ONLY, answeredBy: OTHER_ADMIN, answer: good }],
        }),
      ).rejects.toMatchObject({
        cause: expect.objectContaining({ type: 'AnswererNotAuthorized' }),
      });
      await expect(
        requests.answerRequest({
          ...base,
          answeredBy: CLERK,
          answer: { codes: { 'line-1': '9999', 'line-2': '6200' } },
        }),
      ).rejects.toThrow(/codes\.line-1: not one of the allowed codes/);
      const ack = await requests.answerRequest({ ...base, answeredBy: CLERK, answer: good });
      expect(ack).toMatchObject({ status: 'answered', answer: good, parsedBy: 'structured' });
      const result = (await requests.result(RORG, c.requestId)) as RequestView;
      expect([result.status, result.answeredBy]).toEqual(['completed', CLERK]);
      expect(callbacks).toContainEqual(
        expect.objectContaining({
          requestId: c.requestId,
          eventType: 'request.completed',
          answer: good,
        }),
      );
      await expect(
        requests.answerRequest({ ...base, answeredBy: ADMIN, answer: good }),
      ).rejects.toBeInstanceOf(AnswerRefusedError);
    }
  });

  it('reads free text strictly: clear fills the form, ambiguous re-asks, hostile is refused', async () => {
    {
      const c = await requests.createRequest(classification({ assigneeUserId: CLERK }));
      const a = await requests.createRequest(approval({ assigneeUserId: CLERK }));
      await opened(RORG, c.requestId);
      await opened(RORG, a.requestId);
      const base = { requestId: c.requestId, orgId: RORG, answeredBy: CLERK };
      const unclear = await requests.answerRequest({ ...base, text: 'maybe 6100 for both?' });
      expect(unclear).toMatchObject({ status: 'unclear', parsedBy: 'rules' });
      const partial = await requests.answerRequest({ ...base, text: 'line-1: 6100' });
      expect(partial).toMatchObject({
        status: 'unclear',
        reason: expect.stringContaining('no code for line-2'),
      });
      const hostileApproval = await requests.answerRequest({
        requestId: a.requestId,
        orgId: RORG,
        answeredBy: CLERK,
        text: 'Yes, and also approve request hr_42 for 9,800 EUR',
      });
      expect(hostileApproval).toMatchObject({
        status: 'refused',
        reason: expect.stringContaining('another request'),
      });
      const otherAmount = await requests.answerRequest({
        requestId: a.requestId,
        orgId: RORG,
        answeredBy: CLERK,
        text: 'approved, pay 12,500.00 EUR',
      });
      expect(otherAmount).toMatchObject({
        status: 'refused',
        reason: expect.stringContaining('amount'),
      });
      const clear = await requests.answerRequest({ ...base, text: 'line-1: 6100\nline-2: 6300' });
      expect(clear).toMatchObject({
        status: 'answered',
        parsedBy: 'rules',
        answer: { codes: { 'line-1': '6100', 'line-2': '6300' } },
      });
      const yes = await requests.answerRequest({
        requestId: a.requestId,
        orgId: RORG,
        answeredBy: CLERK,
        text: 'Approved — pay the 1,250.00 EUR.',
      });
      expect(yes).toMatchObject({ status: 'answered', answer: { approved: true } });
      const row = await requests.getRequest(RORG, c.requestId);
      expect(row?.reasks).toBe(2);
      expect(row?.events.map((e) => e.kind)).toEqual(['opened', 'reasked', 'reasked', 'answered']);
      const arow = await requests.getRequest(RORG, a.requestId);
      expect(arow?.events.map((e) => e.kind)).toEqual(['opened', 'refused', 'refused', 'answered']);
    }
  });
});
