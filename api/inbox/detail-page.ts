import { CONFIRM_DIALOG, renderDecisionForm } from './decision-form';
import { renderEvidence } from './evidence';
import type { InboxItem } from './items';
import { ageText, escapeHtml as e, renderPage, utcText } from './layout';

/** One task on its own page: what is asked, the facts of the list row, the evidence, the form. */
export function renderDetailPage(userId: string, i: InboxItem, nowMs: number): string {
  const facts: [string, string][] = [
    ['Type', `${i.kind} · ${i.type}`],
    ['Org', i.orgId],
    ...(i.amount ? ([['Amount', i.amount.text]] as [string, string][]) : []),
    ...(i.lane ? ([['Risk lane', i.lane]] as [string, string][]) : []),
    ['Due', i.dueAt ? utcText(i.dueAt) : '—'],
    ['Expires', i.expiresAt ? utcText(i.expiresAt) : '—'],
    [
      'Waiting since',
      i.createdAt ? `${utcText(i.createdAt)} (${ageText(i.createdAt, nowMs)})` : '—',
    ],
    ['Assignee', i.assignee],
  ];
  return renderPage({
    title: `${i.subject} — Countersign inbox`,
    userId,
    orgId: i.orgId,
    body: `<p><a href="/inbox">← All tasks</a></p>
<article class="task-detail" data-id="${e(i.id)}" data-kind="${e(i.kind)}">
<h1>${e(i.subject)}</h1>
<p class="asked">${e(i.asked)}</p>
<section class="panel" aria-label="Task"><dl class="facts">${facts
      .map(
        ([k, v]) =>
          `<dt>${e(k)}</dt><dd class="fact-${e(k.toLowerCase().replace(/\W+/g, '-'))}">${e(v)}</dd>`,
      )
      .join('')}</dl></section>
${renderEvidence(i)}
${renderDecisionForm(i)}
</article>
${CONFIRM_DIALOG}`,
  });
}

export function renderGonePage(userId: string, orgId: string, id: string): string {
  return renderPage({
    title: 'Task not open — Countersign inbox',
    userId,
    orgId,
    body: `<h1>Task not open</h1><p>“${e(id)}” is not waiting for you: it was decided, expired, or is not yours to decide. <a href="/inbox/history">History</a> lists what was decided.</p>`,
  });
}
