import type { Context, Env, Hono } from 'hono';
import { z } from 'zod';
import { getDocument, loadPages } from '../../db/repositories/documents';
import { decidedTasksIn } from '../../db/repositories/inbox';
import { authenticatePrincipal } from '../auth';
import { HttpError } from '../http-error';
import { INBOX_ASSETS } from './assets';
import { renderDetailPage, renderGonePage } from './detail-page';
import { renderDocumentPage } from './document-page';
import { applyFilters, InboxQuerySchema } from './filters';
import { renderHistoryPage } from './history-page';
import { decidingOrgs, inboxFor, type InboxDeps } from './items';
import { INBOX_SECURITY_HEADERS } from './layout';
import { renderListPage } from './list-page';
import { renderLoginPage } from './login-page';

/**
 * The reviewer inbox's pages, signed in by the session cookie only (a page is never opened with
 * a bearer key): the list with filters, one task, the history, a cited document, and the
 * static script and stylesheet. Decisions are not posted here: the pages' script calls the
 * API's own decision routes, which check everything again.
 */
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  ...INBOX_SECURITY_HEADERS,
};
const html = (body: string, status = 200) => new Response(body, { status, headers: HTML_HEADERS });

const TaskParams = z.object({
  kind: z.enum(['approval', 'review', 'request']),
  id: z.string().min(1).max(300),
});

export function registerInboxPages<E extends Env>(
  app: Hono<E>,
  deps: InboxDeps,
  sessionKey: Buffer,
  now: () => number = Date.now,
): void {
  /** The signed-in person, or the sign-in page to answer with. */
  async function person(c: Context<E>): Promise<{ userId: string; orgId: string } | Response> {
    const p = await authenticatePrincipal(
      deps.db,
      { cookie: c.req.header('cookie') },
      sessionKey,
    ).catch((err: unknown) => (err instanceof HttpError ? err : Promise.reject(err)));
    if (p instanceof HttpError)
      return html(renderLoginPage(p.type === 'SessionInvalid' ? p.message : undefined));
    if (p.kind !== 'user') throw new HttpError(403, 'AgentCannotDecide', 'The inbox is for people');
    return { userId: p.userId, orgId: p.orgId };
  }

  app.get('/inbox', async (c) => {
    const p = await person(c);
    if (p instanceof Response) return p;
    const q = InboxQuerySchema.parse(c.req.query());
    const all = await inboxFor(deps, p.userId, p.orgId);
    const nowMs = now();
    return html(renderListPage(p.userId, p.orgId, all, applyFilters(all, q, nowMs), q, nowMs));
  });

  app.get('/inbox/tasks/:kind/:id', async (c) => {
    const p = await person(c);
    if (p instanceof Response) return p;
    const params = TaskParams.safeParse(c.req.param());
    if (!params.success)
      return html(renderGonePage(p.userId, p.orgId, c.req.param('id') ?? ''), 404);
    const item = (await inboxFor(deps, p.userId, p.orgId)).find(
      (i) => i.kind === params.data.kind && i.id === params.data.id,
    );
    return item
      ? html(renderDetailPage(p.userId, item, now()))
      : html(renderGonePage(p.userId, p.orgId, params.data.id), 404);
  });

  app.get('/inbox/history', async (c) => {
    const p = await person(c);
    if (p instanceof Response) return p;
    const { orgs } = await decidingOrgs(deps.db, p.userId, p.orgId);
    return html(renderHistoryPage(p.userId, p.orgId, await decidedTasksIn(deps.db, orgs)));
  });

  // A cited document, in the session's org only: another org's id is simply not found.
  app.get('/inbox/documents/:docId', async (c) => {
    const p = await person(c);
    if (p instanceof Response) return p;
    const docId = c.req.param('docId');
    const doc = await getDocument(deps.db, p.orgId, docId);
    if (!doc) throw new HttpError(404, 'NotFound', `No document ${docId} in org ${p.orgId}`);
    const pages = await loadPages(deps.db, p.orgId, docId);
    return html(renderDocumentPage(p.userId, p.orgId, { id: doc.id, title: doc.title }, pages));
  });

  app.get('/inbox/assets/:name', (c) => {
    const asset = INBOX_ASSETS[c.req.param('name')];
    if (!asset) throw new HttpError(404, 'NotFound', `No asset ${c.req.param('name')}`);
    return new Response(asset.body, {
      headers: {
        'content-type': asset.contentType,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      },
    });
  });
}
