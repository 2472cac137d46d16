import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
import { checkInputBounds } from '../workflows/input-bounds';
import { InvalidRequestError } from '../client/errors';
import { AnalysisRequestSchema } from '../workflows/analysis.contract';
import { receiveInboundEmail } from '../activities/intake/receive-email';
import { EmailLimitsSchema } from '../activities/intake/email';
import { authenticate, personOf, type Caller } from './auth';
import { HttpError } from './http-error';

/**
 * The HTTP surface for services and people: the same gateway `submit()` and the same
 * analysis client as the CLI and the library, as the authenticated caller. JSON in and out,
 * every body checked with zod.
 */
const MAX_BODY = 1_000_000;
const MAX_JSON_DEPTH = 32;

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

const WriteBody = z
  .object({
    idempotencyKey: z.string(),
    kind: z.string(),
    payload: z.unknown(),
    source: z.unknown().optional(),
    approval: z.unknown().optional(),
    /** For an agent key: the run that makes this write (attribution), chosen by the agent. */
    agentInstanceId: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,200}$/)
      .optional(),
  })
  .strict();
const DecisionBody = z
  .object({ decision: z.enum(['approve', 'reject']), note: z.string().max(4000).optional() })
  .strict();
const AnalysisBody = z.object({ request: z.record(z.string(), z.unknown()) }).strict();
const ReviewBody = z
  .object({
    decision: z.enum(['approve', 'reject', 'correct']),
    note: z.string().max(4000).optional(),
    corrections: z
      .array(
        z.object({ claimId: z.string(), value: z.string(), unit: z.string().optional() }).strict(),
      )
      .optional(),
  })
  .strict();

type Handler = (ctx: {
  caller: Caller;
  params: string[];
  body: unknown;
  query: URLSearchParams;
}) => Promise<[number, unknown]>;
interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** The body is raw bytes (a Buffer) up to this size, not JSON. */
  rawBodyLimit?: number;
}

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw HttpError.fromZod(what, r.error);
  return r.data;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, 'BodyTooLarge', `Body over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return undefined;
  const text = Buffer.concat(chunks).toString('utf8');
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH))
    throw new HttpError(400, 'InvalidRequest', `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
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
  return body;
}

async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new HttpError(413, 'BodyTooLarge', `Body over ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function toHttp(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof InvalidRequestError)
    return new HttpError(400, 'InvalidRequest', err.message, err.issues);
  if (err instanceof IdempotencyConflictError)
    return new HttpError(409, err.type, err.message, err.issues);
  if (err instanceof WriteRefusedError)
    return new HttpError(422, err.type, err.message, err.issues);
  if (err instanceof ApprovalRefusedError || err instanceof ReviewRefusedError) {
    const status = /NotAuthorized|SelfApproval|DecisionProof/.test(err.type) ? 403 : 409;
    return new HttpError(status, err.type, err.message);
  }
  if (err instanceof Error && err.name === 'WorkflowNotFoundError')
    return new HttpError(404, 'NotFound', err.message);
  // Details of unexpected failures go to the operator's log, not to the caller.
  console.error('api: unexpected error', err);
  return new HttpError(500, 'InternalError', 'Internal error; the operator log has the details');
}

export function createApiServer(deps: { db: Db; client: Client; taskQueue: string }): Server {
  const gateway = new GatewayClient(deps.client, deps.db, deps.taskQueue);
  const analysis = new AnalysisClient(deps.client, deps.taskQueue);
  const routes: Route[] = [
    {
      method: 'POST',
      pattern: /^\/v1\/orgs\/([^/]+)\/writes$/,
      handler: async ({ caller, body, query }) => {
        const { agentInstanceId, ...b } = parse(WriteBody, body, 'write');
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
        if (query.get('dryRun') === 'true')
          return [200, await gateway.submit(write, { dryRun: true })];
        const started = await gateway.submit(write);
        return [202, { ...started, state: await gateway.settle(caller.orgId, b.idempotencyKey) }];
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/orgs\/([^/]+)\/writes\/([^/]+)$/,
      handler: async ({ caller, params }) => [
        200,
        await gateway.state(caller.orgId, params[1] as string),
      ],
    },
    {
      method: 'POST',
      pattern: /^\/v1\/orgs\/([^/]+)\/writes\/([^/]+)\/decisions$/,
      handler: async ({ caller, params, body }) => {
        const d = parse(DecisionBody, body, 'decision');
        const ack = await gateway.decide(caller.orgId, params[1] as string, {
          decision: d.decision,
          approver: personOf(caller),
          ...(d.note ? { note: d.note } : {}),
        });
        return [200, ack];
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/orgs\/([^/]+)\/trial-balance$/,
      handler: async ({ caller, query }) => [
        200,
        await gateway.trialBalance(caller.orgId, query.get('asOf') ?? undefined),
      ],
    },
    {
      method: 'POST',
      pattern: /^\/v1\/orgs\/([^/]+)\/analyses$/,
      handler: async ({ caller, body }) => {
        const { request } = parse(AnalysisBody, body, 'analysis');
        const full = parse(
          AnalysisRequestSchema,
          {
            ...request,
            orgId: caller.orgId,
            requestedBy:
              caller.kind === 'user' ? `user:${caller.userId}` : `agent:${caller.agentId}`,
          },
          'analysis request',
        );
        const started = await analysis.start(full);
        return [202, { ...started, state: await analysis.settle(caller.orgId, full.requestId) }];
      },
    },
    {
      method: 'GET',
      pattern: /^\/v1\/orgs\/([^/]+)\/analyses\/([^/]+)$/,
      handler: async ({ caller, params }) => [
        200,
        await analysis.state(caller.orgId, params[1] as string),
      ],
    },
    {
      method: 'POST',
      pattern: /^\/v1\/orgs\/([^/]+)\/analyses\/([^/]+)\/review$/,
      handler: async ({ caller, params, body }) => {
        const r = parse(ReviewBody, body, 'review');
        return [
          200,
          await analysis.review(caller.orgId, params[1] as string, {
            ...r,
            reviewer: personOf(caller),
          }),
        ];
      },
    },
    {
      // Raw RFC 5322 MIME; attachments are ingested as documents, the payload is the event's.
      method: 'POST',
      pattern: /^\/v1\/orgs\/([^/]+)\/inbound-email$/,
      rawBodyLimit: EmailLimitsSchema.parse({}).maxMessageBytes,
      handler: async ({ caller, body }) => {
        const r = await receiveInboundEmail(deps, {
          orgId: caller.orgId,
          raw: body as Buffer,
          channel: 'api',
        });
        if (!r.ok)
          throw new HttpError(
            /TooLarge/.test(r.error.code) ? 413 : 422,
            r.error.code,
            r.error.message,
          );
        return [202, r.payload];
      },
    },
  ];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const matching = routes.filter((r) => r.pattern.test(path));
    const route = matching.find((r) => r.method === req.method);
    if (!route)
      throw matching.length
        ? new HttpError(405, 'MethodNotAllowed', `${req.method} not allowed on ${path}`)
        : new HttpError(404, 'NotFound', `No route ${path}`);
    const params = (route.pattern.exec(path) ?? []).slice(1).map((p) => decodeURIComponent(p));
    const caller = await authenticate(deps.db, req, params[0] as string);
    const [status, payload] = await route.handler({
      caller,
      params,
      body: route.rawBodyLimit ? await readRaw(req, route.rawBodyLimit) : await readJson(req),
      query: url.searchParams,
    });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(payload));
  };

  return createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const e = toHttp(err);
      // An oversized body was not read to its end: close the connection rather than reuse it.
      res.writeHead(e.status, {
        'content-type': 'application/json',
        ...(e.status === 413 ? { connection: 'close' } : {}),
      });
      res.end(JSON.stringify({ error: { type: e.type, message: e.message, issues: e.issues } }));
    });
  });
}
