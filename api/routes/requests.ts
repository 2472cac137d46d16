import { personOf } from '../auth';
import { HttpError } from '../http-error';
import { AnswerBody, OrgParams, RequestParams } from '../schemas';
import { json, problems, ok, jsonBody, secured } from '../http';
import type { RouteKit } from './kit';

/** Human requests: read one and answer it as the authenticated person. */
export function registerRequestsRoutes(kit: RouteKit): void {
  const { add, route, needs, requests } = kit;
  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/requests',
      tags: ['requests'],
      summary: "The caller's open requests in this org (agents' requests, approvals, reviews)",
      security: secured,
      middleware: [needs('read')],
      request: { params: OrgParams },
      responses: { 200: ok('Open requests'), ...problems(401, 403) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const person = personOf(caller);
      return json(200, {
        items: await requests.listInbox({ orgId: caller.orgId, userId: person.userId }),
      });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/requests/{requestId}',
      tags: ['requests'],
      summary: 'A request with its history (route, reminders, re-asks, answer)',
      security: secured,
      middleware: [needs('read')],
      request: { params: RequestParams },
      responses: { 200: ok('Request'), ...problems(401, 403, 404) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const id = c.req.param('requestId') ?? '';
      const r = await requests.getRequest(caller.orgId, id);
      if (!r) throw new HttpError(404, 'NotFound', `No request ${id} in org ${caller.orgId}`);
      return json(200, r);
    },
  );

  add(
    route({
      method: 'post',
      path: '/v1/orgs/{org}/requests/{requestId}/answer',
      tags: ['requests'],
      summary: "Answer a request as the authenticated person (the request's Update)",
      security: secured,
      middleware: [needs('answer_request')],
      request: { params: RequestParams, ...jsonBody(AnswerBody) },
      responses: {
        200: ok('answered, or unclear / refused free text (the request stays open)'),
        ...problems(400, 401, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      const caller = c.get('caller');
      const person = personOf(caller);
      const body = AnswerBody.parse(await c.req.json());
      const ack = await requests.answerRequest({
        requestId: c.req.param('requestId') ?? '',
        orgId: caller.orgId,
        answeredBy: person.userId,
        ...body,
      });
      return json(200, ack);
    },
  );
}
