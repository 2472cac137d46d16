// The reviewer inbox's only script (served from this origin; the CSP allows no inline code).
// Sign-in, sign-out, the task list's keyboard (j/k move, o/Enter open, a/r decide after a
// confirmation, h history) and the detail view's decision form. Every decision goes through
// postDecision() to the same API route a service would call, with the inbox's CSRF header.
'use strict';

const CSRF_HEADER = 'x-countersign-inbox';

function announce(text) {
  const live = document.getElementById('live');
  if (live) live.textContent = text;
}

// ---- sign-in / sign-out -------------------------------------------------------------------
const login = document.getElementById('login');
if (login) {
  login.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const s = document.getElementById('login-status');
    const r = await fetch('/v1/sessions', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: document.getElementById('api-key').value }),
    });
    if (r.ok) {
      location.reload();
      return;
    }
    const p = await r.json().catch(() => ({}));
    s.className = 'status err';
    s.textContent = p.detail || 'Sign-in failed: ' + r.status;
  });
}
const signOut = document.getElementById('sign-out');
if (signOut) {
  signOut.addEventListener('click', async () => {
    await fetch('/v1/sessions', {
      method: 'DELETE',
      credentials: 'same-origin',
      headers: { [CSRF_HEADER]: '1' },
    });
    location.href = '/inbox';
  });
}

// ---- decisions: the one place a decision is built and sent ---------------------------------
/**
 * The body of a decision from the element that carries the task's data attributes (a list row
 * or the detail form). An approval carries the plan revision and hash the approver was shown
 * when the server rendered them (data-revision, data-plan-hash).
 */
function decisionBody(el, decision, extra) {
  const body = Object.assign({ decision: decision }, extra || {});
  if (el.dataset.planHash) {
    body.revision = Number(el.dataset.revision);
    body.planHash = el.dataset.planHash;
  }
  return body;
}

async function postDecision(path, body) {
  const r = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', [CSRF_HEADER]: '1' },
    body: JSON.stringify(body),
  });
  const p = await r.json().catch(() => ({}));
  return { ok: r.ok, status: r.status, payload: p };
}

function describeResult(res) {
  if (res.ok) return 'Recorded: ' + JSON.stringify(res.payload);
  return (res.payload.code || res.status) + ': ' + (res.payload.detail || 'refused');
}

// ---- confirmation -------------------------------------------------------------------------
function confirmDecision(text) {
  const dialog = document.getElementById('confirm');
  if (!dialog || typeof dialog.showModal !== 'function')
    return Promise.resolve(window.confirm(text));
  return new Promise((resolve) => {
    const returnTo = document.activeElement;
    document.getElementById('confirm-text').textContent = text;
    const ok = document.getElementById('confirm-ok');
    const cancel = document.getElementById('confirm-cancel');
    const done = (answer) => {
      ok.removeEventListener('click', onOk);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('cancel', onCancel);
      if (dialog.open) dialog.close();
      if (returnTo && returnTo.focus) returnTo.focus();
      resolve(answer);
    };
    const onOk = () => done(true);
    const onCancel = (ev) => {
      if (ev) ev.preventDefault();
      done(false);
    };
    ok.addEventListener('click', onOk);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    ok.focus();
  });
}

const verb = (d) => d.charAt(0).toUpperCase() + d.slice(1);

// ---- the list -----------------------------------------------------------------------------
const rows = Array.from(document.querySelectorAll('table.tasks tr.task'));
let current = 0;

function select(n, focus) {
  if (rows.length === 0) return;
  current = Math.max(0, Math.min(rows.length - 1, n));
  rows.forEach((row, i) => {
    row.setAttribute('aria-selected', String(i === current));
    row.tabIndex = i === current ? 0 : -1;
  });
  if (focus) rows[current].focus();
}

async function decideRow(row, decision) {
  if (row.dataset.state !== 'open') return;
  const allowed = (row.dataset.decisions || '').split(' ');
  if (!allowed.includes(decision)) {
    // A request is answered with its form: open it.
    location.href = row.dataset.href;
    return;
  }
  if (!(await confirmDecision(verb(decision) + ' ' + row.dataset.label + '?'))) return;
  const res = await postDecision(row.dataset.path, decisionBody(row, decision));
  if (res.ok) {
    row.dataset.state = 'decided';
    row.querySelector('td.subject').append(' — ' + decision + 'd');
  }
  announce(describeResult(res));
}

rows.forEach((row, i) => {
  row.addEventListener('click', (ev) => {
    if (ev.target.closest('a')) return;
    select(i, true);
  });
  row.addEventListener('focus', () => select(i, false));
});

document.addEventListener('keydown', (ev) => {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t && (t.closest('input, textarea, select, dialog') || t.isContentEditable)) return;
  if (ev.key === 'h') {
    location.href = '/inbox/history';
    return;
  }
  if (rows.length === 0) {
    const form = document.querySelector('form.decide');
    if (form && (ev.key === 'a' || ev.key === 'r')) {
      const button = form.querySelector(
        'button[data-decision="' + (ev.key === 'a' ? 'approve' : 'reject') + '"]',
      );
      if (button) {
        ev.preventDefault();
        button.click();
      }
    }
    return;
  }
  if (ev.key === 'j' || ev.key === 'ArrowDown') {
    ev.preventDefault();
    select(current + 1, true);
  } else if (ev.key === 'k' || ev.key === 'ArrowUp') {
    ev.preventDefault();
    select(current - 1, true);
  } else if (ev.key === 'o' || (ev.key === 'Enter' && t && t.matches && t.matches('tr.task'))) {
    ev.preventDefault();
    location.href = rows[current].dataset.href;
  } else if (ev.key === 'a' || ev.key === 'r') {
    ev.preventDefault();
    void decideRow(rows[current], ev.key === 'a' ? 'approve' : 'reject');
  }
});

// ---- the detail view's form ---------------------------------------------------------------
for (const form of document.querySelectorAll('form.decide')) {
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const decision = ev.submitter ? ev.submitter.value : form.dataset.decisions.split(' ')[0];
    const status = form.querySelector('.status');
    const note = form.querySelector('textarea').value.trim();
    let body;
    if (form.dataset.kind === 'request') {
      // A filled form is a structured answer; otherwise the text is read by the request.
      const answer = {};
      for (const f of form.querySelectorAll('.field')) {
        if (f.value === '') continue;
        const v =
          f.dataset.kind === 'number'
            ? Number(f.value)
            : f.dataset.kind === 'boolean'
              ? f.value === 'true'
              : f.value;
        if (f.dataset.item)
          (answer[f.dataset.field] = answer[f.dataset.field] || {})[f.dataset.item] = v;
        else answer[f.dataset.field] = v;
      }
      body = Object.keys(answer).length ? { answer: answer } : { text: note };
    } else {
      const extra = note ? { note: note } : {};
      if (decision === 'correct') {
        extra.corrections = Array.from(form.querySelectorAll('input.correction'))
          .filter((i) => i.value !== i.defaultValue)
          .map((i) => ({ claimId: i.dataset.claim, value: i.value }));
      }
      body = decisionBody(form, decision, extra);
    }
    const question =
      form.dataset.kind === 'request'
        ? 'Send this answer to ' + form.dataset.label + '?'
        : verb(decision) + ' ' + form.dataset.label + '?';
    if (!(await confirmDecision(question))) return;
    for (const b of form.querySelectorAll('button')) b.disabled = true;
    status.className = 'status';
    status.textContent = 'sending…';
    const res = await postDecision(form.dataset.path, body);
    status.className = 'status ' + (res.ok ? 'ok' : 'err');
    status.textContent = describeResult(res);
    if (res.ok) form.dataset.state = 'decided';
    else for (const b of form.querySelectorAll('button')) b.disabled = false;
  });
}
