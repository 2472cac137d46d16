import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { DefaultLogger } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import type { AnalysisClient } from '../../client/analysis-client';
import type { GatewayClient } from '../../client/gateway-client';
import type { EventsClient } from '../../client/events-client';
import type { RequestsClient } from '../../client/requests-client';
import type { PayloadCodecSetup } from '../../client/codec/payload-codec';
import type { Action } from '../../workflows/roles';
import type { Caller } from '../auth';
import type { InboxDeps } from '../inbox/items';

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

/** What every request handler may read: the authenticated caller. */
export type Env = { Variables: { caller: Caller } };

/**
 * What a domain's routes are registered with: the app, the route helpers, the authorization
 * middleware and the clients — built once by `createApiApp` (api/server.ts), shared by every
 * router so each domain's routes live in a file of their own.
 */
export interface RouteKit {
  app: OpenAPIHono<Env>;
  /** Registers a documented route; handlers answer with plain Responses. */
  add: (r: RouteConfig, handler: (c: Context<Env>) => Promise<Response>) => unknown;
  route: <R extends RouteConfig>(r: R) => R;
  /** Middleware: the caller may do this action in the org (before any body is read). */
  needs: (action: Action) => MiddlewareHandler<Env>;
  /** Middleware: the caller is a person with a reviewer, admin or owner role. */
  reviewer: MiddlewareHandler<Env>;
  deps: ApiDeps;
  gateway: GatewayClient;
  analysis: AnalysisClient;
  events: EventsClient;
  requests: RequestsClient;
  inboxDeps: InboxDeps;
  /** How long a write or analysis call waits for its workflow by default (ms). */
  defaultWait: number;
  sessionKey: Buffer;
  credentials: (c: Context) => { authorization: string | undefined; cookie: string | undefined };
}
