import { z } from 'zod';
import { authenticateApiKey } from '../../db/repositories/credentials';
import { rolesInOrg } from '../../db/repositories/organizations';
import {
  createBrowserSession,
  endBrowserSession,
  pruneBrowserSessions,
} from '../../db/repositories/sessions';
import { authenticatePrincipal } from '../auth';
import { HttpError } from '../http-error';
import { inboxFor, InboxItemSchema } from '../inbox/items';
import { registerInboxPages } from '../inbox/routes';
import { LoginBody } from '../schemas';
import {
  SESSION_COOKIE,
  SESSION_TTL_MS,
  newSessionToken,
  readCookie,
  sessionTokenHash,
} from '../session';
import { json, problems, ok, jsonBody, secured } from '../http';
import type { RouteKit } from './kit';

/** Browser sessions (login, logout, who am I) and the reviewer inbox. */
export function registerSessionsRoutes(kit: RouteKit): void {
  const { app, add, route, deps, inboxDeps, sessionKey, credentials } = kit;
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
}
