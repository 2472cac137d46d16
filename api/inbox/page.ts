import { createHash } from 'node:crypto';
import type { InboxItem } from './items';
import { CSRF_HEADER } from '../session';

/**
 * The reviewer inbox as one server-rendered page: the task list, each item's evidence and its
 * decision form. A little vanilla JavaScript sends a decision to the same API route a service
 * would call (so it goes through the same Update) and shows what the workflow answered.
 */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
const e = escapeHtml;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d2430}
header{background:#1d2430;color:#fff;padding:10px 20px;display:flex;justify-content:space-between;align-items:center}
header a{color:#fff}
header button{color:#fff;background:transparent;border:1px solid #8a94a3;border-radius:4px}
main{max-width:1100px;margin:0 auto;padding:16px 20px}
.item{background:#fff;border:1px solid #d9dde3;border-radius:6px;margin:0 0 16px;padding:12px 16px}
.item h2{font-size:16px;margin:0 0 4px}
.meta{color:#5b6573;font-size:12px}
.due{font-weight:600}
table{border-collapse:collapse;margin:6px 0}
td,th{border:1px solid #e2e5ea;padding:3px 8px;text-align:left;font-variant-numeric:tabular-nums}
.quote{background:#fafbfc;border-left:3px solid #9aa5b4;padding:6px 10px;white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:12px;margin:4px 0}
mark{background:#ffe066;padding:0 1px;font-weight:700}
.rules li{margin:2px 0}
form{margin-top:8px;display:flex;gap:8px;flex-wrap:wrap;align-items:center}
textarea{width:100%;min-height:40px}
button{padding:5px 12px;cursor:pointer}
.status{font-weight:600}
.status.ok{color:#17803d}.status.err{color:#b42318}
.empty{color:#5b6573;font-style:italic}
`;

function page(title: string, body: string, script = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1"><style>${STYLE}</style></head>
<body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`;
}

const LOGIN_SCRIPT = `document.getElementById('login').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const s = document.getElementById('login-status');
  const r = await fetch('/v1/sessions', { method: 'POST', credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: document.getElementById('api-key').value }) });
  if (r.ok) { location.reload(); return; }
  const p = await r.json().catch(() => ({}));
  s.className = 'status err'; s.textContent = p.detail || ('Sign-in failed: ' + r.status);
});`;

export function renderLoginPage(message?: string): string {
  return page(
    'Countersign inbox — sign in',
    `<header><strong>Countersign inbox</strong></header><main>
<h1>Sign in</h1>
<p>Paste the API key the platform issued you. It is exchanged for a session cookie and not kept by this page.</p>
${message ? `<p class="status err" id="login-error">${e(message)}</p>` : ''}
<form id="login"><input id="api-key" name="apiKey" type="password" size="70" autocomplete="off" placeholder="csk_…" required>
<button type="submit" id="sign-in">Sign in</button></form>
<p class="status" id="login-status"></p></main>`,
    LOGIN_SCRIPT,
  );
}

function dueText(i: InboxItem): string {
  if (!i.dueAt) return 'no due date';
  const overdue = Date.parse(i.dueAt) < Date.now();
  return `${overdue ? 'overdue since' : 'due'} ${i.dueAt.slice(0, 16).replace('T', ' ')} UTC`;
}

function renderEvidence(i: InboxItem): string {
  const ev = i.evidence;
  const parts: string[] = [];
  if (ev.risk)
    parts.push(`<p><strong>Risk:</strong> score ${ev.risk.score}, lane <strong>${e(ev.risk.lane)}</strong>,
approvals ${ev.risk.approvals} of ${ev.risk.requiredApprovals}</p>
<ul class="rules">${ev.risk.rules.map((r) => `<li><code>${e(r.rule)}</code> (${e(r.lane)}): ${e(r.detail)}</li>`).join('') || '<li>no rule fired</li>'}</ul>`);
  if (ev.entries.length)
    parts.push(
      ev.entries
        .map(
          (en) => `<p><strong>Proposed entry</strong> ${e(en.entryDate)} — ${e(en.memo)}</p>
<table class="entries"><tr><th>Account</th><th>Currency</th><th>Debit</th><th>Credit</th></tr>
${en.lines.map((l) => `<tr><td>${e(l.accountId)}</td><td>${e(l.currency)}</td><td>${e(l.debit)}</td><td>${e(l.credit)}</td></tr>`).join('')}</table>`,
        )
        .join(''),
    );
  if (ev.payee)
    parts.push(
      `<p><strong>Payee account:</strong> <code>${e(JSON.stringify(ev.payee))}</code></p>`,
    );
  if (ev.payload !== null && ev.payload !== undefined)
    parts.push(`<pre class="quote">${e(JSON.stringify(ev.payload, null, 2))}</pre>`);
  if (ev.answer) parts.push(`<p><strong>Proposed answer:</strong> ${e(ev.answer)}</p>`);
  if (ev.reasons.length)
    parts.push(
      `<p><strong>Why a person is asked:</strong></p><ul>${ev.reasons.map((r) => `<li>${e(r)}</li>`).join('')}</ul>`,
    );
  for (const c of ev.claims) {
    parts.push(
      `<div class="claim"><p><strong>${e(c.label)}</strong>${c.value ? `: ${e(c.value)} ${e(c.unit)}` : ''}${c.printed ? ` (printed “${e(c.printed)}”)` : ''}</p>
${c.citations.map((q) => `<div class="meta">${e(q.docId)}, page ${q.page + 1}${q.fact ? ` · fact ${e(q.fact.concept)} ${e(q.fact.period)} (${e(q.fact.factId)})` : ''}</div><div class="quote">…${e(q.before)}<mark>${e(q.match)}</mark>${e(q.after)}…</div>`).join('')}</div>`,
    );
  }
  return parts.join('\n');
}

function renderForm(i: InboxItem): string {
  const claimInputs =
    i.kind === 'review'
      ? i.evidence.claims
          .filter((c) => c.value !== '')
          .map(
            (c) =>
              `<label>${e(c.label)} <input class="correction" data-claim="${e(c.id)}" value="${e(c.value)}" size="14"></label>`,
          )
          .join('')
      : '';
  const fieldInputs = i.evidence.fields
    .map((f) => {
      const attrs = `class="field" data-field="${e(f.name)}" data-kind="${e(f.kind)}"`;
      if (f.kind === 'enum')
        return `<label>${e(f.label)} <select ${attrs}><option value=""></option>${(f.options ?? []).map((o) => `<option>${e(o)}</option>`).join('')}</select></label>`;
      if (f.kind === 'boolean')
        return `<label>${e(f.label)} <select ${attrs}><option value=""></option><option value="true">yes</option><option value="false">no</option></select></label>`;
      if (f.kind === 'code_per_item')
        return (f.items ?? [])
          .map(
            (it) =>
              `<label>${e(f.label)}: ${e(it.label)} <input ${attrs} data-item="${e(it.id)}" size="10"></label>`,
          )
          .join('');
      return `<label>${e(f.label)} <input ${attrs} ${f.kind === 'number' ? 'type="number" step="any"' : ''}></label>`;
    })
    .join('');
  return `<form class="decide" data-path="${e(i.decisionPath)}" data-kind="${e(i.kind)}">
${fieldInputs}
<textarea name="note" placeholder="${i.kind === 'request' ? 'Your answer' : 'Note (optional; a rejection should say why)'}"></textarea>
${claimInputs}
${i.decisions.map((d) => `<button type="submit" name="decision" value="${e(d)}" data-decision="${e(d)}">${e(d[0]!.toUpperCase() + d.slice(1))}</button>`).join('')}
<span class="status" role="status"></span></form>`;
}

const SCRIPT = `
for (const form of document.querySelectorAll('form.decide')) {
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const decision = ev.submitter ? ev.submitter.value : 'approve';
    const status = form.querySelector('.status');
    const note = form.querySelector('textarea').value.trim();
    let body;
    if (form.dataset.kind === 'request') {
      // A filled form is a structured answer; otherwise the text is read by the request.
      const answer = {};
      for (const f of form.querySelectorAll('.field')) {
        if (f.value === '') continue;
        const v = f.dataset.kind === 'number' ? Number(f.value)
          : f.dataset.kind === 'boolean' ? f.value === 'true' : f.value;
        if (f.dataset.item) (answer[f.dataset.field] ??= {})[f.dataset.item] = v;
        else answer[f.dataset.field] = v;
      }
      body = Object.keys(answer).length ? { answer } : { text: note };
    } else {
      body = { decision };
      if (note) body.note = note;
    }
    if (decision === 'correct') {
      body.corrections = [...form.querySelectorAll('input.correction')]
        .filter((i) => i.value !== i.defaultValue)
        .map((i) => ({ claimId: i.dataset.claim, value: i.value }));
    }
    for (const b of form.querySelectorAll('button')) b.disabled = true;
    status.className = 'status'; status.textContent = 'sending…';
    const r = await fetch(form.dataset.path, { method: 'POST', credentials: 'same-origin',
      headers: { 'content-type': 'application/json', '${CSRF_HEADER}': '1' }, body: JSON.stringify(body) });
    const p = await r.json().catch(() => ({}));
    if (r.ok) {
      status.className = 'status ok';
      status.textContent = 'Recorded: ' + JSON.stringify(p);
      form.closest('.item').dataset.state = 'decided';
    } else {
      status.className = 'status err';
      status.textContent = (p.code || r.status) + ': ' + (p.detail || 'refused');
      for (const b of form.querySelectorAll('button')) b.disabled = false;
    }
  });
}
document.getElementById('sign-out').addEventListener('click', async () => {
  await fetch('/v1/sessions', { method: 'DELETE', credentials: 'same-origin', headers: { '${CSRF_HEADER}': '1' } });
  location.reload();
});`;

export function renderInboxPage(userId: string, items: InboxItem[]): string {
  const list = items.length
    ? items
        .map(
          (
            i,
          ) => `<section class="item" data-kind="${e(i.kind)}" data-org="${e(i.orgId)}" data-id="${e(i.id)}" data-state="open">
<h2>${e(i.title)}</h2>
<div class="meta">${e(i.orgId)} · ${e(i.kind)} · <span class="due">${e(dueText(i))}</span>${i.createdAt ? ` · since ${e(i.createdAt.slice(0, 16).replace('T', ' '))} UTC` : ''}</div>
<p class="asked">${e(i.asked)}</p>
${renderEvidence(i)}
${renderForm(i)}
</section>`,
        )
        .join('\n')
    : '<p class="empty" id="inbox-empty">Nothing is waiting for you.</p>';
  return page(
    `Inbox (${items.length}) — Countersign`,
    `<header><strong>Countersign inbox</strong><span>${e(userId)} · <button id="sign-out" type="button">Sign out</button></span></header>
<main><h1>${items.length} task${items.length === 1 ? '' : 's'} for ${e(userId)}</h1>${list}</main>`,
    SCRIPT,
  );
}

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The inbox page's response headers. The CSP allows only this origin and, inline, exactly the
 * page's own script and style by hash (nothing injected into the page could run); the page
 * cannot be framed (clickjacking of the decision buttons), its type is never sniffed, and no
 * referrer leaves it.
 */
export const INBOX_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    `script-src ${sha256(LOGIN_SCRIPT)} ${sha256(SCRIPT)}`,
    `style-src ${sha256(STYLE)}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
