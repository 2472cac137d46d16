import { AnalysisRequestSchema } from '../../workflows/analysis.contract';
import { personOf } from '../auth';
import { HttpError } from '../http-error';
import {
  AnalysisBody,
  AnalysisParams,
  AnalysisStartResponse,
  OrgParams,
  ReviewBody,
} from '../schemas';
import { json, waitOf, problems, ok, jsonBody, secured } from '../http';
import type { RouteKit } from './kit';

/** Analyses: start one, read its state, and review it. */
export function registerAnalysesRoutes(kit: RouteKit): void {
  const { add, route, needs, reviewer, analysis, defaultWait } = kit;
  add(
    route({
      method: 'post',
      path: '/v1/orgs/{org}/analyses',
      tags: ['analyses'],
      summary: 'Start an analysis',
      description:
        'Answers when the run is delivered (200) or waits for a reviewer (202); past the wait, 202 with Location.',
      security: secured,
      middleware: [needs('start_analysis')],
      request: { params: OrgParams, ...jsonBody(AnalysisBody) },
      responses: {
        200: ok('Delivered', AnalysisStartResponse),
        202: ok('Awaiting review or still running', AnalysisStartResponse),
        ...problems(400, 401, 403),
      },
    }),
    async (c) => {
      const caller = c.get('caller');
      const { request } = AnalysisBody.parse(await c.req.json());
      const parsed = AnalysisRequestSchema.safeParse({
        ...request,
        orgId: caller.orgId,
        requestedBy: caller.kind === 'user' ? `user:${caller.userId}` : `agent:${caller.agentId}`,
      });
      if (!parsed.success) throw HttpError.fromZod('analysis request', parsed.error);
      const full = parsed.data;
      const started = await analysis.start(full);
      const location = `/v1/orgs/${encodeURIComponent(caller.orgId)}/analyses/${encodeURIComponent(full.requestId)}`;
      const wait = waitOf(c, defaultWait);
      const state =
        wait > 0 ? await analysis.awaitSettled(caller.orgId, full.requestId, wait) : null;
      return json(state?.status === 'completed' ? 200 : 202, { ...started, state }, { location });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/analyses/{requestId}',
      tags: ['analyses'],
      summary: "An analysis run's state",
      security: secured,
      middleware: [needs('read')],
      request: { params: AnalysisParams },
      responses: { 200: ok('State'), ...problems(401, 403, 404) },
    }),
    async (c) => {
      const caller = c.get('caller');
      return json(200, await analysis.state(caller.orgId, c.req.param('requestId') ?? ''));
    },
  );

  add(
    route({
      method: 'post',
      path: '/v1/orgs/{org}/analyses/{requestId}/review',
      tags: ['analyses'],
      summary: 'Approve, reject or correct, as the authenticated reviewer (the review Update)',
      security: secured,
      middleware: [reviewer],
      request: { params: AnalysisParams, ...jsonBody(ReviewBody) },
      responses: { 200: ok('The decision was taken'), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const person = personOf(caller);
      const r = ReviewBody.parse(await c.req.json());
      return json(
        200,
        await analysis.review(caller.orgId, c.req.param('requestId') ?? '', {
          ...r,
          reviewer: person,
        }),
      );
    },
  );
}
