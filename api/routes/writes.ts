import { listSubmissions } from '../../db/repositories/operations';
import { personOf } from '../auth';
import {
  DecisionBody,
  OrgParams,
  SubmitResponse,
  TrialBalanceQuery,
  WriteBody,
  WriteListQuery,
  WriteParams,
  WriteQuery,
} from '../schemas';
import { json, waitOf, problems, ok, jsonBody, secured } from '../http';
import type { RouteKit } from './kit';

/** Writes through the gateway: submit (or dry-run), list, read, decide, and the trial balance. */
export function registerWritesRoutes(kit: RouteKit): void {
  const { add, route, needs, deps, gateway, defaultWait } = kit;
  add(
    route({
      method: 'post',
      path: '/v1/orgs/{org}/writes',
      tags: ['writes'],
      summary: 'Submit a write through the gateway (or dry-run it)',
      description:
        'Answers when the submission awaits approval (202) or is finished (200); past the wait, 202 with Location. `?dryRun=true` validates and scores without a workflow.',
      security: secured,
      middleware: [needs('submit_write')],
      request: { params: OrgParams, query: WriteQuery, ...jsonBody(WriteBody) },
      responses: {
        200: ok('Applied (low lane), or the dry run', SubmitResponse),
        202: ok('Awaiting approval or still evaluating; Location has its address', SubmitResponse),
        ...problems(400, 401, 403, 409, 413, 422),
      },
    }),
    async (c) => {
      const caller = c.get('caller');
      const { agentInstanceId, ...b } = WriteBody.parse(await c.req.json());
      // The submitter is the authenticated principal; an agent's operator and permissions
      // come from its stored record (checked again by the gateway), never from the body.
      const write = {
        ...b,
        orgId: caller.orgId,
        submitter:
          caller.kind === 'user'
            ? { kind: 'user' as const, userId: caller.userId }
            : {
                kind: 'agent' as const,
                agentType: caller.agentId,
                instanceId: agentInstanceId ?? `key:${caller.keyId}`,
                operatorUserId: caller.operatorUserId,
              },
      };
      if (c.req.query('dryRun') === 'true')
        return json(200, await gateway.submit(write, { dryRun: true }));
      const started = await gateway.submit(write);
      const location = `/v1/orgs/${encodeURIComponent(caller.orgId)}/writes/${encodeURIComponent(b.idempotencyKey)}`;
      const wait = waitOf(c, defaultWait);
      const state =
        wait > 0 ? await gateway.awaitSettled(caller.orgId, b.idempotencyKey, wait) : null;
      return json(state?.status === 'completed' ? 200 : 202, { ...started, state }, { location });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/writes',
      tags: ['writes'],
      summary: "The org's submissions, newest first",
      security: secured,
      middleware: [needs('read')],
      request: { params: OrgParams, query: WriteListQuery },
      responses: { 200: ok('Submissions'), ...problems(401, 403) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const q = WriteListQuery.parse(c.req.query());
      return json(200, {
        submissions: await listSubmissions(deps.db, caller.orgId, q.status, q.limit ?? 100),
      });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/writes/{key}',
      tags: ['writes'],
      summary: "A submission's state (plan, risk, votes, result)",
      security: secured,
      middleware: [needs('read')],
      request: { params: WriteParams },
      responses: { 200: ok('State'), ...problems(401, 403, 404) },
    }),
    async (c) => {
      const caller = c.get('caller');
      return json(200, await gateway.state(caller.orgId, c.req.param('key') ?? ''));
    },
  );

  add(
    route({
      method: 'post',
      path: '/v1/orgs/{org}/writes/{key}/decisions',
      tags: ['writes'],
      summary: 'Approve or reject, as the authenticated person (the approval Update)',
      security: secured,
      request: { params: WriteParams, ...jsonBody(DecisionBody) },
      responses: { 200: ok('The vote counted'), ...problems(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const d = DecisionBody.parse(await c.req.json());
      const ack = await gateway.decide(caller.orgId, c.req.param('key') ?? '', {
        decision: d.decision,
        approver: personOf(caller),
        revision: d.revision,
        planHash: d.planHash,
        ...(d.note ? { note: d.note } : {}),
      });
      return json(200, ack);
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/trial-balance',
      tags: ['ledger'],
      summary: 'Trial balance, optionally as of a date',
      security: secured,
      middleware: [needs('read')],
      request: { params: OrgParams, query: TrialBalanceQuery },
      responses: { 200: ok('Trial balance'), ...problems(400, 401, 403) },
    }),
    async (c) => {
      const caller = c.get('caller');
      return json(200, await gateway.trialBalance(caller.orgId, c.req.query('asOf') ?? undefined));
    },
  );
}
