import type { Context, Env, Hono } from 'hono';
import { z } from 'zod';
import {
  getDocument,
  getDocumentBytes,
  loadPage,
  loadPages,
} from '../../db/repositories/documents';
import { decidedTasksIn } from '../../db/repositories/inbox';
import { authenticatePrincipal } from '../auth';
import { HttpError } from '../http-error';
import { INBOX_ASSETS } from './assets';
import { renderDetailPage, renderGonePage } from './detail-page';
import { highlight } from './citations';
import { renderCitedPage } from './cited-page';
import { renderDocumentPage } from './document-page';
import { documentFileHeaders } from './document-file';
import { pdfjsFile } from './pdfjs-assets';
import { applyFilters, InboxQuerySchema } from './filters';
import { renderHistoryPage } from './history-page';
import { decidingOrgs, inboxFor, type InboxDeps } from './items';
import { INBOX_SECURITY_HEADERS } from './layout';
import { localeFrom } from './locale';
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

/** A cited page's address: the page from 1, the span's characters, the printed number. */
const CitedPageParams = z.object({
  page: z.coerce.number().int().min(1).max(100_000),
});
const CitedPageQuery = z.object({
  start: z.coerce.number().int().min(0).default(0),
  end: z.coerce.number().int().min(0).default(0),
  number: z.string().max(100).optional(),
});

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
    const all = await inboxFor(
      deps,
      p.userId,
      p.orgId,
      localeFrom(c.req.header('accept-language')),
    );
    const nowMs = now();
    return html(renderListPage(p.userId, p.orgId, all, applyFilters(all, q, nowMs), q, nowMs));
  });

  app.get('/inbox/tasks/:kind/:id', async (c) => {
    const p = await person(c);
    if (p instanceof Response) return p;
    const params = TaskParams.safeParse(c.req.param());
    if (!params.success)
      return html(renderGonePage(p.userId, p.orgId, c.req.param('id') ?? ''), 404);
    const locale = localeFrom(c.req.header('accept-language'));
    const item = (await inboxFor(deps, p.userId, p.orgId, locale)).find(
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

  // The stored original, in the session's org only, as the same 404 as the text view for
  // another org's id. Never sniffed into something else; HTML and XML (an uploaded filing, an
  // e-invoice) open sandboxed: no script of theirs runs and they are a unique origin with no
  // access to the inbox's cookies or pages.
  app.get('/inbox/documents/:docId/file', async (c) => {
    const p = await person(c);
    if (p instanceof Response) return p;
    const docId = c.req.param('docId');
    const doc = await getDocument(deps.db, p.orgId, docId);
    const bytes = doc ? await getDocumentBytes(deps.db, p.orgId, docId) : undefined;
    if (!doc || !bytes)
      throw new HttpError(404, 'NotFound', `No document ${docId} in org ${p.orgId}`);
    return new Response(new Uint8Array(bytes), {
      headers: documentFileHeaders(doc.mimeType, doc.title),
    });
  });

  // One cited page, whole: a PDF's drawn by pdf.js from the file above, a text's as text,
  // with only the cited span highlighted and the printed number marked.
  app.get('/inbox/documents/:docId/pages/:page', async (c) => {
    const p = await person(c);
    if (p instanceof Response) return p;
    const docId = c.req.param('docId');
    const params = CitedPageParams.safeParse(c.req.param());
    const query = CitedPageQuery.safeParse(c.req.query());
    if (!params.success || !query.success)
      throw new HttpError(400, 'InvalidRequest', 'A cited page is /pages/<n>?start=&end=&number=');
    const doc = await getDocument(deps.db, p.orgId, docId);
    const index = params.data.page - 1;
    const text = doc ? await loadPage(deps.db, p.orgId, docId, index) : null;
    if (!doc || text === null || text === undefined)
      throw new HttpError(
        404,
        'NotFound',
        `No page ${params.data.page} of ${docId} in org ${p.orgId}`,
      );
    const q = query.data;
    const cited = highlight(
      text,
      { docId, page: index, charStart: q.start, charEnd: Math.max(q.start, q.end), quote: '' },
      q.number ?? null,
      Infinity,
    );
    return html(
      renderCitedPage(
        p.userId,
        p.orgId,
        { id: doc.id, title: doc.title, mimeType: doc.mimeType },
        cited,
      ),
    );
  });

  // pdf.js and the data it fetches itself, from this origin (the CSP admits nothing else).
  app.get('/inbox/assets/pdfjs/:folder/:name', (c) => {
    const file = pdfjsFile(c.req.param('folder'), c.req.param('name'));
    if (!file) throw new HttpError(404, 'NotFound', `No pdf.js file ${c.req.path}`);
    return new Response(new Uint8Array(file.body), {
      headers: {
        'content-type': file.contentType,
        'cache-control': 'public, max-age=86400',
        'x-content-type-options': 'nosniff',
      },
    });
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
