import type { Context, Env, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { Payload } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Db } from '../db/connection';
import { rolesInOrg } from '../db/repositories/organizations';
import { keyIdOf } from '../client/codec/codec';
import type { PayloadCodecSetup } from '../client/codec/payload-codec';
import { orgOfScope, orgScope } from '../client/codec/scope';
import { authenticatePrincipal } from './auth';
import { ACTIONS } from '../workflows/roles';
import { HttpError } from './http-error';
import { problemResponse } from './problem';

/**
 * The codec server of the Temporal Web UI's protocol: `POST /codec/decode` and
 * `/codec/encode` take and answer a Payloads message in protobuf JSON (`{ payloads: [{
 * metadata: {k: base64}, data: base64 }] }`). The caller is a person holding an owner or admin
 * role in the org their key (or session) belongs to: decode opens only payloads under that
 * org's data keys (another org's, or the platform key's, is 403 and nothing is decrypted);
 * encode encrypts under that org's current key. Browsers reach it from the configured Web UI
 * origins only (CORS with credentials: the inbox session cookie, or a bearer key).
 */
const MAX_CODEC_BODY = 8_000_000;
const MAX_PAYLOADS = 2_000;

const Base64 = z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, 'base64');
export const CodecBody = z.object({
  payloads: z
    .array(
      z.object({
        metadata: z.record(z.string(), Base64).optional(),
        data: Base64.optional(),
      }),
    )
    .max(MAX_PAYLOADS),
});

export interface CodecRouteDeps {
  db: Db;
  sessionKey: Buffer;
  /** Null when the installation runs without the codec: the routes then answer 404. */
  codec: PayloadCodecSetup | null;
  /** Web UI origins allowed to call from a browser (exact `scheme://host:port`). */
  corsOrigins: readonly string[];
}

function corsHeaders(c: Context, allowed: readonly string[]): Record<string, string> {
  const origin = c.req.header('origin');
  if (!origin || !allowed.some((o) => o.replace(/\/$/, '') === origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    vary: 'Origin',
  };
}

const toPayloads = (body: z.infer<typeof CodecBody>): Payload[] =>
  temporal.api.common.v1.Payloads.fromObject(body).payloads;

const toJson = (payloads: Payload[]) =>
  temporal.api.common.v1.Payloads.toObject(temporal.api.common.v1.Payloads.create({ payloads }), {
    bytes: String,
    defaults: false,
  });

export function mountCodecRoutes<E extends Env>(app: Hono<E>, deps: CodecRouteDeps): void {
  // Every answer, errors included, carries the CORS headers: the UI shows a 401/403 as such.
  app.use('/codec/*', async (c, next) => {
    const cors = corsHeaders(c, deps.corsOrigins);
    if (c.req.method === 'OPTIONS') {
      if (!cors['access-control-allow-origin'])
        return problemResponse(
          c,
          new HttpError(403, 'OriginNotAllowed', 'This origin may not call the codec'),
        );
      return new Response(null, {
        status: 204,
        headers: {
          ...cors,
          'access-control-allow-methods': 'POST, OPTIONS',
          'access-control-allow-headers': 'content-type, x-namespace, authorization',
          'access-control-max-age': '600',
        },
      });
    }
    try {
      await next();
    } finally {
      for (const [k, v] of Object.entries(cors)) c.res.headers.set(k, v);
    }
  });

  const codecBody = bodyLimit({
    maxSize: MAX_CODEC_BODY,
    onError: (c) =>
      problemResponse(c, new HttpError(413, 'BodyTooLarge', `Body over ${MAX_CODEC_BODY} bytes`)),
  });

  /** The org whose payloads this caller may read: 401 / 403 before the body is looked at. */
  async function callerOrg(c: Context): Promise<string> {
    const p = await authenticatePrincipal(
      deps.db,
      { authorization: c.req.header('authorization'), cookie: c.req.header('cookie') },
      deps.sessionKey,
    );
    if (p.kind !== 'user')
      throw new HttpError(403, 'ActionNotPermitted', 'Workflow history is read by people');
    const allowed: readonly string[] = ACTIONS.read_history;
    const roles = await rolesInOrg(deps.db, p.orgId, p.userId);
    if (!roles.some((r) => allowed.includes(r)))
      throw new HttpError(
        403,
        'ActionNotPermitted',
        `User ${p.userId} may not read history in org ${p.orgId}; it takes one of: ${allowed.join(', ')}`,
      );
    return p.orgId;
  }

  async function body(c: Context): Promise<Payload[]> {
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new HttpError(400, 'InvalidJson', 'The body is not valid JSON');
    }
    const parsed = CodecBody.safeParse(raw);
    if (!parsed.success) throw HttpError.fromZod('body', parsed.error);
    return toPayloads(parsed.data);
  }

  function setup(): PayloadCodecSetup {
    if (!deps.codec)
      throw new HttpError(404, 'NotFound', 'This installation runs without the payload codec');
    return deps.codec;
  }

  app.post('/codec/decode', codecBody, async (c) => {
    const { codec, keyring } = setup();
    const org = await callerOrg(c);
    const payloads = await body(c);
    // Every key is checked before anything is decrypted: all of the caller's org, or nothing.
    for (const p of payloads) {
      const id = keyIdOf(p);
      if (id === null) continue;
      const key = await keyring.byId(id).catch(() => {
        throw new HttpError(422, 'UnknownDataKey', `No data key ${id} in this installation`);
      });
      if (orgOfScope(key.scope) !== org)
        throw new HttpError(
          403,
          'PayloadOfAnotherScope',
          `A payload is encrypted under a key that is not org ${org}'s`,
        );
    }
    return c.json(toJson(await codec.decode(payloads)));
  });

  app.post('/codec/encode', codecBody, async (c) => {
    const { codec } = setup();
    const org = await callerOrg(c);
    const payloads = await body(c);
    return c.json(toJson(await codec.encodeInScope(payloads, orgScope(org))));
  });
}
