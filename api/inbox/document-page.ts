import { escapeHtml as e, renderPage } from './layout';

/** A whole document's stored text, page by page, each page an anchor a citation links to. */
export function renderDocumentPage(
  userId: string,
  orgId: string,
  doc: { id: string; title: string },
  pages: { page: number; text: string }[],
): string {
  return renderPage({
    title: `${doc.title} — Countersign inbox`,
    userId,
    orgId,
    current: 'document',
    body: `<p><a href="/inbox">← All tasks</a></p><h1>${e(doc.title)}</h1>
<p class="meta">${e(doc.id)} · ${pages.length} page${pages.length === 1 ? '' : 's'} of stored text</p>
<div class="document">${pages
      .map(
        (p) =>
          `<section class="page" id="page-${p.page + 1}" aria-label="Page ${p.page + 1}" tabindex="-1"><h2 class="meta">Page ${p.page + 1}</h2>${e(p.text)}</section>`,
      )
      .join('')}</div>`,
  });
}
