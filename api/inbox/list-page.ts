import { CONFIRM_DIALOG, decisionAttributes } from './decision-form';
import { queryString, type InboxQuery } from './filters';
import type { InboxItem } from './items';
import { ageText, escapeHtml as e, renderPage, utcText } from './layout';

/**
 * The task list: one row per task (type, org, subject, amount, risk lane, due, waiting since,
 * assignee), filters and sortable columns as links and a GET form (they work without script),
 * and keyboard use through the static script: j/k move, o opens, a/r decide after a
 * confirmation.
 */
export function taskHref(i: Pick<InboxItem, 'kind' | 'id'>): string {
  return `/inbox/tasks/${i.kind}/${encodeURIComponent(i.id)}`;
}

function dueCell(i: InboxItem, nowMs: number): string {
  if (!i.dueAt) return '<td>—</td>';
  const overdue = Date.parse(i.dueAt) < nowMs;
  return `<td class="due${overdue ? ' overdue' : ''}"><time datetime="${e(i.dueAt)}">${overdue ? 'overdue ' : ''}${e(utcText(i.dueAt))}</time></td>`;
}

function select(
  name: string,
  label: string,
  current: string | undefined,
  options: [string, string][],
): string {
  return `<label for="f-${name}">${e(label)}<select id="f-${name}" name="${name}"><option value="">all</option>${options
    .map(
      ([v, text]) =>
        `<option value="${e(v)}"${current === v ? ' selected' : ''}>${e(text)}</option>`,
    )
    .join('')}</select></label>`;
}

const COLUMNS: { key: InboxQuery['sort'] | null; label: string; num?: boolean }[] = [
  { key: 'type', label: 'Type' },
  { key: 'org', label: 'Org' },
  { key: null, label: 'Subject' },
  { key: 'amount', label: 'Amount', num: true },
  { key: 'lane', label: 'Risk lane' },
  { key: 'due', label: 'Due' },
  { key: 'waiting', label: 'Waiting since' },
  { key: null, label: 'Assignee' },
];

function header(q: InboxQuery): string {
  return COLUMNS.map((c) => {
    const cls = c.num ? ' class="num"' : '';
    if (!c.key) return `<th scope="col"${cls}>${e(c.label)}</th>`;
    const active = q.sort === c.key;
    const dir = active && q.dir === 'asc' ? 'desc' : 'asc';
    const sort = active ? ` aria-sort="${q.dir === 'asc' ? 'ascending' : 'descending'}"` : '';
    return `<th scope="col"${cls}${sort}><a href="/inbox${e(queryString(q, { sort: c.key, dir }))}">${e(c.label)}${active ? (q.dir === 'asc' ? ' ▲' : ' ▼') : ''}</a></th>`;
  }).join('');
}

export function renderListPage(
  userId: string,
  orgId: string,
  all: InboxItem[],
  shown: InboxItem[],
  q: InboxQuery,
  nowMs: number,
): string {
  const distinct = (f: (i: InboxItem) => string) => [...new Set(all.map(f))].sort();
  const filters = `<form class="filters" method="get" action="/inbox" aria-label="Filter tasks">
${select(
  'org',
  'Org',
  q.org,
  distinct((i) => i.orgId).map((o) => [o, o]),
)}
${select('type', 'Type', q.type, [
  ['approval', 'approval'],
  ['review', 'review'],
  ['request', 'request'],
])}
${select('lane', 'Risk lane', q.lane, [
  ['high', 'high'],
  ['moderate', 'moderate'],
  ['low', 'low'],
  ['none', 'no lane'],
])}
${select('due', 'Due', q.due, [
  ['overdue', 'overdue'],
  ['today', 'within a day'],
  ['week', 'within a week'],
])}
${select(
  'assignee',
  'Assignee',
  q.assignee,
  distinct((i) => i.assignee).map((a) => [a, a === userId ? `${a} (me)` : a]),
)}
<input type="hidden" name="sort" value="${e(q.sort)}"><input type="hidden" name="dir" value="${e(q.dir)}">
<button type="submit">Apply</button> <a href="/inbox">Clear</a></form>`;
  const rows = shown
    .map(
      (
        i,
        n,
      ) => `<tr class="task" id="task-${n}" tabindex="${n === 0 ? 0 : -1}" aria-selected="${n === 0}" data-id="${e(i.id)}" data-state="open" data-href="${e(taskHref(i))}" ${decisionAttributes(i)}>
<td>${e(i.kind)}<div class="meta">${e(i.type)}</div></td><td>${e(i.orgId)}</td>
<td class="subject"><a href="${e(taskHref(i))}">${e(i.subject)}</a></td>
<td class="num amount">${i.amount ? e(i.amount.text) : '—'}</td>
<td>${i.lane ? `<span class="lane lane-${e(i.lane)}">${e(i.lane)}</span>` : '—'}</td>
${dueCell(i, nowMs)}
<td>${i.createdAt ? `<time datetime="${e(i.createdAt)}">${e(ageText(i.createdAt, nowMs))} ago</time>` : '—'}</td>
<td>${e(i.assignee === userId ? 'me' : i.assignee)}</td></tr>`,
    )
    .join('\n');
  const table = shown.length
    ? `<table class="tasks" aria-describedby="keys"><caption class="visually-hidden">Open tasks</caption>
<thead><tr>${header(q)}</tr></thead><tbody>${rows}</tbody></table>`
    : `<p class="empty" id="inbox-empty">${all.length ? 'No task matches these filters.' : 'Nothing is waiting for you.'}</p>`;
  return renderPage({
    title: `Inbox (${all.length}) — Countersign`,
    userId,
    orgId,
    current: 'tasks',
    body: `<h1>${shown.length} of ${all.length} task${all.length === 1 ? '' : 's'}</h1>
${filters}
${table}
<p class="keys" id="keys">Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous · <kbd>o</kbd> or <kbd>Enter</kbd> open ·
<kbd>a</kbd> approve · <kbd>r</kbd> reject (each asks to confirm) · <kbd>h</kbd> history</p>
${CONFIRM_DIALOG}`,
  });
}
