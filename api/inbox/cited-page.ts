import type { HighlightedCitation } from './citations';
import { escapeHtml as e, renderPage } from './layout';
import { PDFJS_BASE } from './pdfjs-assets';

/**
 * A cited page as a reviewer checks it against the source: a PDF's page drawn by pdf.js in the
 * browser from the stored file (static/cited-page.js finds the cited span on it and marks only
 * that span, and the number inside it), or, for a text or HTML document, the stored page text
 * with the span and number marked. The whole stored file opens at /inbox/documents/:id/file.
 */
export const isPdf = (mimeType: string | undefined): boolean => mimeType === 'application/pdf';

/** The stored original; a PDF opens at the cited page in the browser's own viewer. */
export function documentFileHref(docId: string, page: number, mimeType?: string): string {
  return `/inbox/documents/${encodeURIComponent(docId)}/file${isPdf(mimeType) ? `#page=${page + 1}` : ''}`;
}

/** The document's stored text, at the cited page. */
export function storedTextHref(docId: string, page: number): string {
  return `/inbox/documents/${encodeURIComponent(docId)}#page-${page + 1}`;
}

/** The cited page alone, the span highlighted (pages are numbered from 1 in the address). */
export function citedPageHref(
  q: Pick<HighlightedCitation, 'docId' | 'page' | 'charStart' | 'charEnd' | 'number'>,
): string {
  const params = new URLSearchParams({ start: String(q.charStart), end: String(q.charEnd) });
  if (q.number) params.set('number', q.number);
  return `/inbox/documents/${encodeURIComponent(q.docId)}/pages/${q.page + 1}?${params.toString()}`;
}

/** How much context the browser compares to pick the right one of repeated spans. */
const MATCH_CONTEXT = 80;

/**
 * The placeholder static/cited-page.js draws a PDF page into: the file, the page, the span's
 * text with a little context on each side (to choose among repeats of the same words on the
 * page) and the printed number to mark. Without script it stays a short note; the quote
 * beside it is the stored text either way.
 */
export function pdfPageFigure(q: HighlightedCitation, docTitle?: string): string {
  const span = `${q.spanBefore}${q.number}${q.spanAfter}`;
  const label = `Page ${q.page + 1} of ${docTitle ?? q.docId} as printed, the cited span highlighted${q.number ? ` and ${q.number} marked` : ''}`;
  return `<div class="pdf-page" data-file="${e(documentFileHref(q.docId, q.page).replace(/#.*$/, ''))}" data-pdfjs="${e(PDFJS_BASE)}" data-page="${q.page + 1}" data-span="${e(span)}" data-number="${e(q.number)}" data-before="${e(q.before.slice(-MATCH_CONTEXT))}" data-after="${e(q.after.slice(0, MATCH_CONTEXT))}" data-state="pending">
<div class="pdf-sheet"><canvas role="img" aria-label="${e(label)}"></canvas><div class="pdf-marks" aria-hidden="true"></div></div>
<p class="meta pdf-status">Page ${q.page + 1} is drawn here from the stored PDF by the inbox's script.</p></div>`;
}

/** The span and its number marked in a text (the window of a citation, or a whole page). */
export function markedText(q: HighlightedCitation): string {
  return `${e(q.before)}<mark class="span">${e(q.spanBefore)}${
    q.number ? `<mark class="number">${e(q.number)}</mark>` : ''
  }${e(q.spanAfter)}</mark>${e(q.after)}`;
}

export interface CitedDocument {
  id: string;
  title: string;
  mimeType: string;
}

/** The page of /inbox/documents/:id/pages/:n: one cited page, whole, with the span marked. */
export function renderCitedPage(
  userId: string,
  orgId: string,
  doc: CitedDocument,
  q: HighlightedCitation,
): string {
  const pdf = isPdf(doc.mimeType);
  return renderPage({
    title: `${doc.title}, page ${q.page + 1} — Countersign inbox`,
    userId,
    orgId,
    current: 'document',
    body: `<p><a href="/inbox">← All tasks</a></p><h1>${e(doc.title)}, page ${q.page + 1}</h1>
<p class="meta">${e(doc.id)} · ${e(doc.mimeType)} · <a href="${e(documentFileHref(doc.id, q.page, doc.mimeType))}">open the whole document</a> · <a href="${e(storedTextHref(doc.id, q.page))}">its stored text</a></p>
${pdf ? pdfPageFigure(q, doc.title) : ''}
<section class="page cited" aria-label="${pdf ? 'Stored text of the page' : `Page ${q.page + 1}`}">${
      pdf ? '<h2 class="meta">The page as its text was stored</h2>' : ''
    }${markedText(q)}</section>`,
  });
}
