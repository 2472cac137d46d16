import { getRunRecord, runsOfEvent } from '../../db/repositories/agent-runs';
import { eventTransitionsOf, getEvent } from '../../db/repositories/events';
import { HttpError } from '../http-error';
import { EventAcceptedResponse, EventBody, EventParams, OrgParams, RunParams } from '../schemas';
import { json, problems, ok, jsonBody, secured } from '../http';
import type { RouteKit } from './kit';

/** Events and agent runs: accept an event, read it and its runs, and what runs cost. */
export function registerEventsRoutes(kit: RouteKit): void {
  const { add, route, needs, deps, events } = kit;
  add(
    route({
      method: 'post',
      path: '/v1/orgs/{org}/events',
      tags: ['events'],
      summary: 'Submit an event (deduplicated on its payload while one is active)',
      security: secured,
      middleware: [needs('submit_event')],
      request: { params: OrgParams, ...jsonBody(EventBody) },
      responses: {
        202: ok('Accepted or recorded as a duplicate', EventAcceptedResponse),
        ...problems(400, 401, 403),
      },
    }),
    async (c) => {
      const caller = c.get('caller');
      const e = EventBody.parse(await c.req.json());
      const accepted = await events.acceptEvent({ ...e, orgId: caller.orgId });
      return json(202, accepted, {
        location: `/v1/orgs/${encodeURIComponent(caller.orgId)}/events/${encodeURIComponent(accepted.eventId)}`,
      });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/events/{eventId}',
      tags: ['events'],
      summary: 'An event, its transitions and the agent runs it started',
      security: secured,
      middleware: [needs('read')],
      request: { params: EventParams },
      responses: { 200: ok('Event'), ...problems(401, 403, 404) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const id = c.req.param('eventId') ?? '';
      const event = await getEvent(deps.db, caller.orgId, id);
      // Another org's event is not found here: ids never reveal what exists elsewhere.
      if (!event || event.orgId !== caller.orgId)
        throw new HttpError(404, 'NotFound', `No event ${id} in org ${caller.orgId}`);
      const [transitions, runs] = await Promise.all([
        eventTransitionsOf(deps.db, caller.orgId, id),
        runsOfEvent(deps.db, caller.orgId, id),
      ]);
      return json(200, { event, transitions, runs });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/agent-runs/{runId}',
      tags: ['events'],
      summary: 'An agent run: transitions, progress, submissions and model calls',
      security: secured,
      middleware: [needs('read')],
      request: { params: RunParams },
      responses: { 200: ok('Run'), ...problems(401, 403, 404) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const id = c.req.param('runId') ?? '';
      const record = await getRunRecord(deps.db, caller.orgId, id);
      if (!record || record.run.orgId !== caller.orgId)
        throw new HttpError(404, 'NotFound', `No agent run ${id} in org ${caller.orgId}`);
      return json(200, record);
    },
  );
}
