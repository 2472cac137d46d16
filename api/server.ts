import { ORG_ID_PATTERN } from '../workflows/org-id';
import type { DefaultLogger } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { z } from 'zod';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/connection';
import { AnalysisClient, ReviewRefusedError } from '../client/analysis-client';
import {
  ApprovalRefusedError,
  GatewayClient,
  IdempotencyConflictError,
  WriteRefusedError,
} from '../client/gateway-client';
import { EventsClient } from '../client/events-client';
import { AnswerRefusedError, RequestsClient } from '../client/requests-client';
import { InvalidRequestError } from '../client/errors';
import { loadConfig } from '../config/env';
import { decisionSecret } from '../activities/identity/decision-secret';
import { authenticateApiKey } from '../db/repositories/credentials';
import { costRollup, getRunRecord, runsOfEvent } from '../db/repositories/agent-runs';
import { eventTransitionsOf, getEvent } from '../db/repositories/events';
import { membershipsOf } from '../db/repositories/inbox';
import { listSubmissions } from '../db/repositories/operations';
import { rolesInOrg } from '../db/repositories/organizations';
import {
  createBrowserSession,
  endBrowserSession,
  pruneBrowserSessions,
} from '../db/repositories/sessions';
import { checkInputBounds } from '../workflows/input-bounds';
import { AnalysisRequestSchema } from '../workflows/analysis.contract';
import { receiveInboundEmail } from '../client/receive-email';
import { importStatementAsEvents } from '../client/intake-client';
import { MAX_STATEMENT_BYTES } from '../activities/intake/import-statement';
import { EmailLimitsSchema } from '../activities/intake/email';
import { authenticate, authenticatePrincipal, personOf, type Caller } from './auth';
import { mayDo, requireAction } from './authz';
import { ACTIONS, type Action } from '../workflows/roles';
import { HttpError } from './http-error';
import { CodecBody, mountCodecRoutes } from './codec';
import { createPayloadCodec, type PayloadCodecSetup } from '../client/codec/payload-codec';
import { inboxFor, InboxItemSchema } from './inbox/items';
import { registerInboxPages } from './inbox/routes';
import { microUsdToUsd, queueStats, renderMetrics } from './operations';
import { ProblemSchema, PROBLEM_CONTENT_TYPE, problemResponse } from './problem';
import {
  AnalysisBody,
  AnalysisParams,
  AnalysisStartResponse,
  AnswerBody,
  AnyObject,
  CostQuery,
  CostResponse,
  DecisionBody,
  EventAcceptedResponse,
  EventBody,
  EventParams,
  LoginBody,
  OrgParams,
  QueueStatsResponse,
  RequestParams,
  ReviewBody,
  RunParams,
  SubmitResponse,
  TrialBalanceQuery,
  WriteBody,
  WriteListQuery,
  WriteParams,
  WriteQuery,
} from './schemas';
import {
  CSRF_HEADER,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  newSessionToken,
  readCookie,
  sessionKey as deriveSessionKey,
  sessionTokenHash,
} from './session';

/**
 * The HTTP surface for services and people, on Hono with @hono/zod-openapi: the zod schemas
 * in ./schemas validate every request and generate the OpenAPI document at /openapi.json.
 * The same gateway `submit()`, analysis client and events client as the CLI and the library,
 * as the authenticated caller. Errors are problem+json (./problem). A write or an analysis
 * answers once its workflow awaits a person or is finished — waiting on an Update, never
 * polling — or, past the wait (`Prefer: wait=N`, `Prefer: respond-async`), 202 with its
 * address in Location.
 */
const MAX_BODY = 1_000_000;
const MAX_JSON_DEPTH = 32;
/** How long a write or analysis call waits for its workflow to settle by default. */
const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 60_000;

export interface ApiDeps {
  db: Db;
  client: Client;
  taskQueue: string;
  /** The decision-proof secret (also keys the session cookies); default: the configured one. */
  decisionSecret?: string;
  /** Default wait for a write or analysis to settle before answering 202. */
  waitMs?: number;
  /**
   * Structured logs (config/logging.ts): one JSON line per request (method, path, status, time,
   * caller's org, request id) and the details of unexpected failures. Unset: errors to stderr.
   */
  logger?: Pick<DefaultLogger, 'info' | 'error'>;
  /** Behind a TLS proxy (TRUST_PROXY=1): `X-Forwarded-Proto: https` makes the cookie Secure. */
  trustProxy?: boolean;
  /**
   * The payload codec behind /codec (the Web UI's codec server); default: the configured one
   * over `db` (null when TEMPORAL_PAYLOAD_CODEC=off).
   */
  codec?: PayloadCodecSetup | null;
  /** Browser origins allowed on /codec; default CODEC_CORS_ORIGINS. */
  codecCorsOrigins?: readonly string[];
}

type Env = { Variables: { caller: Caller } };

/**
 * Nesting depth of a JSON text, counted in one linear pass before parsing (so a body of a
 * million brackets is refused without building it); stops as soon as the limit is passed.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

function toHttp(err: unknown, logger?: ApiDeps['logger']): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof HTTPException)
    return new HttpError(
      err.status,
      err.status === 413
        ? 'BodyTooLarge'
        : err.status === 415
          ? 'UnsupportedMediaType'
          : 'InvalidRequest',
      err.message || 'Bad request',
    );
  if (err instanceof InvalidRequestError)
    return new HttpError(400, 'InvalidRequest', err.message, err.issues);
  if (err instanceof IdempotencyConflictError)
    return new HttpError(409, err.type, err.message, err.issues);
  if (err instanceof WriteRefusedError)
    return new HttpError(
      err.type === 'WriteNotPermitted' ? 403 : 422,
      err.type,
      err.message,
      err.issues,
    );
  if (err instanceof AnswerRefusedError) {
    if (err.type === 'RequestNotOpen' && /^no request /.test(err.message))
      return new HttpError(404, 'NotFound', err.message);
    const status = /NotAuthorized|SelfApproval|DecisionProof/.test(err.type)
      ? 403
      : err.type === 'InvalidAnswer'
        ? 422
        : 409;
    return new HttpError(status, err.type, err.message);
  }
  if (err instanceof ApprovalRefusedError || err instanceof ReviewRefusedError) {
    if (/NotOpen$/.test(err.type) && /No open/.test(err.message))
      return new HttpError(404, 'NotFound', err.message);
    const status = /NotAuthorized|SelfApproval|SelfReview|DecisionProof/.test(err.type) ? 403 : 409;
    return new HttpError(status, err.type, err.message);
  }
  if (err instanceof Error && err.name === 'WorkflowNotFoundError')
    return new HttpError(404, 'NotFound', 'No such resource in this org');
  // Details of unexpected failures go to the operator's log, not to the caller.
  if (logger) logger.error('api: unexpected error', { error: err });
  else console.error('api: unexpected error', err);
  return new HttpError(500, 'InternalError', 'Internal error; the operator log has the details');
}

/** BigInts (micro-dollars, sequence numbers) as decimal strings: JSON has no exact big integers. */
function jsonSafe<T>(v: T): unknown {
  return JSON.parse(
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)),
  );
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(jsonSafe(body)), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** `Prefer: respond-async` → no wait; `Prefer: wait=N` → N seconds (RFC 7240), capped. */
function waitOf(c: Context, fallback: number): number {
  const prefer = c.req.header('prefer') ?? '';
  if (/\brespond-async\b/i.test(prefer)) return 0;
  const m = /\bwait=(\d{1,4})\b/i.exec(prefer);
  return m ? Math.min(Number(m[1]) * 1000, MAX_WAIT_MS) : fallback;
}

const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: 'problem+json',
        content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
      },
    ]),
  );
const ok = (description: string, schema: z.ZodType = AnyObject) => ({
  description,
  content: { 'application/json': { schema } },
});
const jsonBody = (schema: z.ZodType) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
const secured: Record<string, string[]>[] = [{ bearer: [] }, { session: [] }];

export function createApiApp(deps: ApiDeps): OpenAPIHono<Env> {
  const secret = deps.decisionSecret ?? decisionSecret(loadConfig());
  const sessionKey = deriveSessionKey(secret);
  const gateway = new GatewayClient(deps.client, deps.db, deps.taskQueue, {
    decisionSecret: secret,
  });
  const analysis = new AnalysisClient(deps.client, deps.taskQueue, { decisionSecret: secret });
  const events = new EventsClient(deps.client, deps.db, { taskQueue: deps.taskQueue });
  const requests = new RequestsClient(deps.client, deps.db, {
    taskQueue: deps.taskQueue,
    decisionSecret: secret,
  });
  const inboxDeps = { db: deps.db, gateway, analysis, requests };
  const defaultWait = deps.waitMs ?? DEFAULT_WAIT_MS;

  const app = new OpenAPIHono<Env>({
    defaultHook: (result, c) => {
      if (!result.success)
        return problemResponse(
          c,
          HttpError.fromZod(result.target === 'json' ? 'body' : result.target, result.error),
        );
    },
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key the platform issued (csk_<id>_<secret>)',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'session', {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'A reviewer session from POST /v1/sessions',
  });

  if (deps.logger) {
    const logger = deps.logger;
    app.use('*', async (c, next) => {
      const started = performance.now();
      const requestId = c.req.header('x-request-id') ?? randomUUID();
      await next();
      // After the handler: error and not-found responses are built fresh, so set it on the final one.
      c.res.headers.set('x-request-id', requestId);
      logger.info('request', {
        requestId,
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round(performance.now() - started),
        org: c.get('caller')?.orgId,
      });
    });
  }

  app.onError((err, c) => {
    const e = toHttp(err, deps.logger);
    // An oversized body was not read to its end: close the connection rather than reuse it.
    return problemResponse(c, e, e.status === 413 ? { connection: 'close' } : {});
  });
  app.notFound((c) => problemResponse(c, new HttpError(404, 'NotFound', `No route ${c.req.path}`)));
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        problemResponse(
          c,
          new HttpError(405, 'MethodNotAllowed', `${c.req.method} not allowed on ${c.req.path}`),
          { allow: methods.join(', ') },
        ),
    }),
  );

  const credentials = (c: Context) => ({
    authorization: c.req.header('authorization'),
    cookie: c.req.header('cookie'),
  });
  const unsafe = (c: Context) => !['GET', 'HEAD', 'OPTIONS'].includes(c.req.method);

  // Every org route: the caller in the org of the path (401 / 403 before anything else).
  app.use('/v1/orgs/:org/*', async (c, next) => {
    // An id no org can have is a malformed request (400), answered before authentication: it
    // says nothing about which orgs exist.
    const org = c.req.param('org') ?? '';
    if (!ORG_ID_PATTERN.test(org))
      throw new HttpError(
        400,
        'InvalidOrgId',
        'An org id is 1–64 of a-z, 0-9, _ and -, starting with a letter or digit',
        [{ path: 'org', message: 'not an org id' }],
      );
    const caller = await authenticate(
      deps.db,
      credentials(c),
      c.req.param('org') ?? '',
      sessionKey,
    );
    // A session cookie travels with any request the browser makes: a change made with one
    // must carry the inbox's header, which a cross-site form cannot set.
    if (caller.viaSession && unsafe(c) && c.req.header(CSRF_HEADER) !== '1')
      throw new HttpError(
        403,
        'CsrfRefused',
        `A change made with a session needs the ${CSRF_HEADER} header`,
      );
    c.set('caller', caller);
    await next();
  });

  // JSON bodies: at most 1 MB, nesting at most 32, bounded values — before any schema.
  const emailLimit = EmailLimitsSchema.parse({}).maxMessageBytes;
  const tooLarge = (limit: number) => (c: Context) =>
    problemResponse(c, new HttpError(413, 'BodyTooLarge', `Body over ${limit} bytes`), {
      connection: 'close',
    });
  app.use(
    '/v1/orgs/:org/inbound-email',
    bodyLimit({ maxSize: emailLimit, onError: tooLarge(emailLimit) }),
  );
  // Statement files are raw bytes too: bounded by the importer's own limit, not parsed as JSON.
  app.use(
    '/v1/orgs/:org/statements',
    bodyLimit({ maxSize: MAX_STATEMENT_BYTES, onError: tooLarge(MAX_STATEMENT_BYTES) }),
  );
  app.use('/v1/*', async (c, next) => {
    if (!unsafe(c) || /\/(inbound-email|statements)$/.test(c.req.path)) return next();
    return bodyLimit({ maxSize: MAX_BODY, onError: tooLarge(MAX_BODY) })(c, async () => {
      const text = await c.req.text();
      if (text.length > 0) {
        if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
          throw new HttpError(
            400,
            'InvalidRequest',
            `JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
          );
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new HttpError(400, 'InvalidJson', 'The body is not valid JSON');
        }
        const bounds = checkInputBounds(body);
        if (!bounds.ok)
          throw new HttpError(
            400,
            'InvalidRequest',
            `Invalid body: ${bounds.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
            bounds.issues,
          );
      }
      await next();
    });
  });

  const route = <R extends RouteConfig>(r: R) => createRoute(r);
  // Handlers answer with plain Responses (problem+json or JSON); the route configs document them.
  const add = (r: RouteConfig, handler: (c: Context<Env>) => Promise<Response>) =>
    app.openapi(r, handler as never);

  // Authorization runs before any body is validated: a refused caller learns nothing of the schema.
  const needs = (action: Action) =>
    createMiddleware<Env>(async (c, next) => {
      requireAction(c.get('caller'), action);
      await next();
    });
  const reviewer = createMiddleware<Env>(async (c, next) => {
    const caller = c.get('caller');
    personOf(caller);
    // No self-review exists, so the role is checked here first (the Update checks again).
    if (caller.kind === 'user' && !mayDo(caller, 'review_analysis'))
      throw new HttpError(
        403,
        'ReviewerNotAuthorized',
        `User ${caller.userId} holds no reviewer, admin or owner role in org ${caller.orgId}`,
      );
    await next();
  });

  // ---- writes ------------------------------------------------------------------------------
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

  // ---- analyses ----------------------------------------------------------------------------
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

  // ---- events and agent runs ---------------------------------------------------------------
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

  // ---- human requests ----------------------------------------------------------------------
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

  // ---- operations --------------------------------------------------------------------------
  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/costs',
      tags: ['operations'],
      summary: 'Recorded model cost by agent, run or month',
      security: secured,
      middleware: [needs('read_costs')],
      request: { params: OrgParams, query: CostQuery },
      responses: { 200: ok('Cost rollup', CostResponse), ...problems(400, 401, 403) },
    }),
    async (c) => {
      const caller = c.get('caller');
      const q = CostQuery.parse(c.req.query());
      const rows = await costRollup(deps.db, q.by, {
        orgId: caller.orgId,
        ...(q.month ? { month: q.month } : {}),
      });
      return json(200, {
        orgId: caller.orgId,
        by: q.by,
        month: q.month ?? null,
        rows: rows.map((r) => ({
          ...r,
          costMicroUsd: r.costMicroUsd.toString(),
          costUsd: microUsdToUsd(r.costMicroUsd),
        })),
      });
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/orgs/{org}/queue',
      tags: ['operations'],
      summary:
        'Queue statistics: task queue backlog, submissions, analyses, events and agent runs by state',
      security: secured,
      middleware: [needs('read')],
      request: { params: OrgParams },
      responses: { 200: ok('Queue statistics', QueueStatsResponse), ...problems(401, 403) },
    }),
    async (c) => {
      const caller = c.get('caller');
      return json(200, await queueStats(deps.db, deps.client, deps.taskQueue, caller.orgId));
    },
  );

  // ---- intake ------------------------------------------------------------------------------
  // Raw RFC 5322 MIME; attachments are ingested as documents, the payload is the event's.
  app.post('/v1/orgs/:org/inbound-email', async (c) => {
    const caller = c.get('caller');
    requireAction(caller, 'receive_email');
    const raw = Buffer.from(await c.req.arrayBuffer());
    const r = await receiveInboundEmail(deps, { orgId: caller.orgId, raw, channel: 'api' });
    if (!r.ok)
      throw new HttpError(/TooLarge/.test(r.error.code) ? 413 : 422, r.error.code, r.error.message);
    return json(202, r.payload);
  });

  // A connector sync's statement file (OFX, CAMT.053, MT940, CSV) as raw bytes: one
  // connector.statement_imported event per statement, or the whole file refused (422, nothing
  // imported) with the importer's typed error.
  app.post('/v1/orgs/:org/statements', async (c) => {
    const caller = c.get('caller');
    requireAction(caller, 'import_statement');
    const q = StatementQuery.safeParse({
      connector: c.req.query('connector'),
      file: c.req.query('file'),
    });
    if (!q.success)
      throw new HttpError(
        400,
        'InvalidRequest',
        q.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      );
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    const r = await importStatementAsEvents(deps, {
      orgId: caller.orgId,
      connectorId: q.data.connector,
      file: q.data.file,
      bytes,
    });
    if (!r.ok)
      throw new HttpError(
        r.error.code === 'TooLarge' ? 413 : 422,
        r.error.code,
        `${r.error.file}${r.error.line === null ? '' : `:${r.error.line}`}: ${r.error.message}`,
      );
    return json(202, {
      format: r.format,
      lines: r.lines,
      events: r.events.map((e) => ({ eventId: e.eventId, status: e.status })),
    });
  });

  // ---- sessions and the inbox --------------------------------------------------------------
  add(
    route({
      method: 'post',
      path: '/v1/sessions',
      tags: ['sessions'],
      summary: "Exchange a person's API key for an HttpOnly session cookie (the inbox)",
      request: jsonBody(LoginBody),
      responses: {
        200: ok('Signed in; Set-Cookie carries the session'),
        ...problems(400, 401, 403),
      },
    }),
    async (c) => {
      const { apiKey } = LoginBody.parse(await c.req.json());
      const auth = await authenticateApiKey(deps.db, apiKey);
      if (!auth.ok) throw new HttpError(401, 'Unauthenticated', 'The key was not accepted');
      if (auth.principal.kind !== 'user')
        throw new HttpError(
          403,
          'AgentCannotDecide',
          'Sessions are for people; an agent uses its key',
        );
      if ((await rolesInOrg(deps.db, auth.principal.orgId, auth.principal.userId)).length === 0)
        throw new HttpError(
          403,
          'NotAMember',
          `User ${auth.principal.userId} has no role in org ${auth.principal.orgId}`,
        );
      const expiresAtMs = Date.now() + SESSION_TTL_MS;
      // The session is a row; the cookie carries only a random token whose keyed hash finds it.
      const { id, token } = newSessionToken();
      await createBrowserSession(deps.db, {
        id,
        tokenHash: sessionTokenHash(sessionKey, token) as string,
        keyId: auth.principal.keyId,
        userId: auth.principal.userId,
        orgId: auth.principal.orgId,
        expiresAt: new Date(expiresAtMs),
      });
      // Old sessions go as new ones come: ended or expired more than 30 days ago. A prune that
      // fails is logged and never costs the person their sign-in.
      await pruneBrowserSessions(deps.db).catch((err: unknown) =>
        deps.logger?.error('session prune failed', {
          error: err instanceof Error ? err.message : String(err),
        }),
      );
      const https =
        new URL(c.req.url).protocol === 'https:' ||
        (deps.trustProxy === true &&
          c.req.header('x-forwarded-proto')?.split(',')[0]?.trim() === 'https');
      const secure = https ? '; Secure' : '';
      return json(
        200,
        { userId: auth.principal.userId, expiresAt: new Date(expiresAtMs).toISOString() },
        {
          'set-cookie': `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_TTL_MS / 1000}${secure}`,
          'cache-control': 'no-store',
        },
      );
    },
  );
  // Signing out ends the session on the server: the cookie stops working even if kept.
  add(
    route({
      method: 'delete',
      path: '/v1/sessions',
      tags: ['sessions'],
      summary: 'Sign out: ends the session of the cookie on the server and clears the cookie',
      responses: {
        200: ok(
          'Signed out (sessionEnded: false when the cookie named no live session)',
          z.object({ signedOut: z.literal(true), sessionEnded: z.boolean() }),
        ),
      },
    }),
    async (c) => {
      const token = readCookie(c.req.header('cookie'), SESSION_COOKIE);
      const hash = token === undefined ? null : sessionTokenHash(sessionKey, token);
      const ended = hash === null ? false : await endBrowserSession(deps.db, hash, 'logout');
      return json(
        200,
        { signedOut: true, sessionEnded: ended },
        { 'set-cookie': `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0` },
      );
    },
  );

  add(
    route({
      method: 'get',
      path: '/v1/inbox',
      tags: ['sessions'],
      summary: "The caller's task list in their key's org (approvals, reviews), with evidence",
      security: secured,
      responses: {
        200: ok('Task list', z.object({ userId: z.string(), items: z.array(InboxItemSchema) })),
        ...problems(401, 403),
      },
    }),
    async (c) => {
      const p = await authenticatePrincipal(deps.db, credentials(c), sessionKey);
      if (p.kind !== 'user')
        throw new HttpError(403, 'AgentCannotDecide', 'The inbox is for people');
      return json(200, {
        userId: p.userId,
        items: await inboxFor(inboxDeps, p.userId, p.orgId),
      });
    },
  );

  registerInboxPages(app, inboxDeps, sessionKey);

  // ---- the Temporal Web UI's codec server ----------------------------------------------------
  mountCodecRoutes(app, {
    db: deps.db,
    sessionKey,
    codec: deps.codec !== undefined ? deps.codec : createPayloadCodec(loadConfig(), deps.db),
    corsOrigins: deps.codecCorsOrigins ?? loadConfig().CODEC_CORS_ORIGINS,
  });

  // ---- metrics and the document ------------------------------------------------------------
  app.get('/metrics', async (c) => {
    const p = await authenticatePrincipal(deps.db, credentials(c), sessionKey);
    if (p.kind !== 'user')
      throw new HttpError(403, 'ActionNotPermitted', 'Metrics are read by an owner or admin');
    const readable: readonly string[] = ACTIONS.read_metrics;
    // A person's key reads only the org it was issued for.
    const orgs = (await membershipsOf(deps.db, p.userId))
      .filter((m) => m.orgId === p.orgId && m.roles.some((r) => readable.includes(r)))
      .map((m) => m.orgId);
    if (orgs.length === 0)
      throw new HttpError(
        403,
        'ActionNotPermitted',
        `User ${p.userId} is owner or admin of no org`,
      );
    return new Response(await renderMetrics(deps.db, deps.client, deps.taskQueue, orgs), {
      status: 200,
      headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' },
    });
  });

  // Routes outside the JSON schema flow, documented by hand.
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/orgs/{org}/inbound-email',
    tags: ['intake'],
    summary:
      'Receive a raw RFC 5322 message: attachments become documents, it an email.received event',
    security: secured,
    request: {
      params: OrgParams,
      body: { content: { 'message/rfc822': { schema: z.string() } }, required: true },
    },
    responses: { 202: ok('The email.received payload'), ...problems(401, 403, 413, 422) },
  });
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/orgs/{org}/statements',
    tags: ['intake'],
    summary:
      'Import a bank statement file (OFX, CAMT.053, MT940, CSV): one connector.statement_imported event per statement, or nothing',
    security: secured,
    request: {
      params: OrgParams,
      query: StatementQuery,
      body: { content: { 'application/octet-stream': { schema: z.string() } }, required: true },
    },
    responses: {
      202: ok('The format, the number of lines and the events accepted'),
      ...problems(400, 401, 403, 413, 422),
    },
  });
  for (const op of ['decode', 'encode'] as const)
    app.openAPIRegistry.registerPath({
      method: 'post',
      path: `/codec/${op}`,
      tags: ['operations'],
      summary:
        op === 'decode'
          ? "The Temporal Web UI's codec server: decrypt payloads of the caller's org (owner, admin)"
          : "The Temporal Web UI's codec server: encrypt payloads under the caller's org key",
      security: secured,
      request: {
        body: { content: { 'application/json': { schema: CodecBody } }, required: true },
      },
      responses: { 200: ok('Payloads (protobuf JSON)'), ...problems(400, 401, 403, 413, 422) },
    });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/metrics',
    tags: ['operations'],
    summary: 'Prometheus text for the orgs the caller owns or administers',
    security: secured,
    responses: {
      200: {
        description: 'text/plain; version=0.0.4',
        content: { 'text/plain': { schema: z.string() } },
      },
      ...problems(401, 403),
    },
  });

  app.doc('/openapi.json', {
    openapi: '3.0.3',
    info: {
      title: 'Countersign API',
      version: '1',
      description:
        'Finance agents on Temporal: writes through the gateway, analyses, events, reviews. Errors are application/problem+json with a stable `type` URI per kind.',
    },
  });

  return app;
}

/** The API as a Node HTTP server (not yet listening): `listen`, `close` and `address` as usual. */
/** Who delivered a statement file, and its name (used in every error message). */
const StatementQuery = z.object({
  connector: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a connector id such as bank-a'),
  file: z.string().min(1).max(200),
});

export function createApiServer(deps: ApiDeps): Server {
  const app = createApiApp(deps);
  return createAdaptorServer({ fetch: app.fetch }) as Server;
}
