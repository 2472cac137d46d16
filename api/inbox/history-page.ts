import type { DecidedTask } from '../../db/repositories/inbox';
import { escapeHtml as e, renderPage, utcText } from './layout';

/** Decided tasks, newest first: who decided, how, when, and where the task ended. */
export function renderHistoryPage(userId: string, orgId: string, done: DecidedTask[]): string {
  const rows = done
    .map(
      (d) => `<tr class="decided" data-id="${e(d.id)}" data-kind="${e(d.kind)}">
<td><time datetime="${e(d.decidedAt.toISOString())}">${e(utcText(d.decidedAt.toISOString()))}</time></td>
<td>${e(d.kind)}</td><td>${e(d.subject)}<div class="meta">${e(d.id)}</div></td>
<td class="decision">${e(d.decision)}</td><td class="by">${e(d.decidedBy)}</td><td>${e(d.status)}</td>
<td>${d.note ? e(d.note) : '—'}</td></tr>`,
    )
    .join('\n');
  return renderPage({
    title: 'History — Countersign inbox',
    userId,
    orgId,
    current: 'history',
    body: `<h1>Decided tasks</h1>${
      done.length
        ? `<table class="history"><caption class="visually-hidden">Decisions, newest first</caption>
<thead><tr><th scope="col">Decided</th><th scope="col">Type</th><th scope="col">Subject</th><th scope="col">Decision</th><th scope="col">By</th><th scope="col">Outcome</th><th scope="col">Note</th></tr></thead>
<tbody>${rows}</tbody></table>`
        : '<p class="empty">Nothing has been decided yet.</p>'
    }`,
  });
}
