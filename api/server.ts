import { ORG_ID_PATTERN } from '../workflows/org-id';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { methodNotAllowed } from 'hono/method-not-allowed';
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
import { checkInputBounds } from '../workflows/input-bounds';
import { MAX_STATEMENT_BYTES } from '../activities/intake/import-statement';
import { EmailLimitsSchema } from '../activities/intake/email';
import { authenticate, personOf } from './auth';
import { mayDo, requireAction } from './authz';
import { type Action } from '../workflows/roles';
import { HttpError } from './http-error';
import { CodecBody, mountCodecRoutes } from './codec';
import { createPayloadCodec } from '../client/codec/payload-codec';
import { problemResponse } from './problem';
import { CSRF_HEADER, SESSION_COOKIE, sessionKey as deriveSessionKey } from './session';
import { registerWritesRoutes } from './routes/writes';
import { registerAnalysesRoutes } from './routes/analyses';
import { registerEventsRoutes } from './routes/events';
import { registerRequestsRoutes } from './routes/requests';
import { registerOperationsRoutes } from './routes/operations';
import { registerIntakeRoutes } from './routes/intake';
import { registerSessionsRoutes } from './routes/sessions';
import type { ApiDeps, Env, RouteKit } from './routes/kit';
import { DEFAULT_WAIT_MS, ok, problems, secured } from './http';

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

export type { ApiDeps } from './routes/kit';

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

  const kit: RouteKit = {
    app,
    add,
    route,
    needs,
    reviewer,
    deps,
    gateway,
    analysis,
    events,
    requests,
    inboxDeps,
    defaultWait,
    sessionKey,
    credentials,
  };
  registerWritesRoutes(kit);
  registerAnalysesRoutes(kit);
  registerEventsRoutes(kit);
  registerRequestsRoutes(kit);
  registerOperationsRoutes(kit);
  registerIntakeRoutes(kit);
  registerSessionsRoutes(kit);

  // ---- the Temporal Web UI's codec server ----------------------------------------------------
  mountCodecRoutes(app, {
    db: deps.db,
    sessionKey,
    codec: deps.codec !== undefined ? deps.codec : createPayloadCodec(loadConfig(), deps.db),
    corsOrigins: deps.codecCorsOrigins ?? loadConfig().CODEC_CORS_ORIGINS,
  });

  // ---- the document (routes outside the JSON schema flow are documented by their routers) --
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
export function createApiServer(deps: ApiDeps): Server {
  const app = createApiApp(deps);
  return createAdaptorServer({ fetch: app.fetch }) as Server;
}
