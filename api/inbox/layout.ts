/**
 * The inbox's page shell and its security headers. Every page is server-rendered HTML with no
 * inline script, style or event handler: behaviour is one static script and the look one
 * static stylesheet, both served from this origin (./assets), so the CSP can say 'self' and
 * nothing injected into a page (a document's text, a memo) could run.
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

export const INBOX_SCRIPT_PATH = '/inbox/assets/inbox.js';
export const INBOX_STYLE_PATH = '/inbox/assets/inbox.css';
export const CITED_PAGE_SCRIPT_PATH = '/inbox/assets/cited-page.js';

export interface Shell {
  title: string;
  /** The signed-in person; null on the sign-in page. */
  userId: string | null;
  orgId?: string;
  /** Which navigation link is the current page. */
  current?: 'tasks' | 'history' | 'document';
  body: string;
}

export function renderPage(s: Shell): string {
  const nav = s.userId
    ? `<nav aria-label="Inbox"><a href="/inbox"${s.current === 'tasks' ? ' aria-current="page"' : ''}>Tasks</a>
<a href="/inbox/history"${s.current === 'history' ? ' aria-current="page"' : ''}>History</a></nav>
<span class="who">${e(s.userId)}${s.orgId ? ` · ${e(s.orgId)}` : ''} <button id="sign-out" type="button">Sign out</button></span>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${e(s.title)}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="stylesheet" href="${INBOX_STYLE_PATH}"><script src="${INBOX_SCRIPT_PATH}" defer></script>
<script type="module" src="${CITED_PAGE_SCRIPT_PATH}"></script></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><span class="brand">Countersign inbox</span>${nav}</header>
<main id="main">${s.body}</main>
<div id="live" class="visually-hidden" role="status" aria-live="polite"></div>
</body></html>`;
}

/**
 * The inbox pages' response headers. Scripts and styles only from this origin (no inline code
 * at all), no plugins, no framing (clickjacking of the decision buttons), no sniffing, and no
 * referrer leaves the page.
 */
export const INBOX_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** "2026-12-17T09:30:00.000Z" → "2026-12-17 09:30 UTC". */
export function utcText(isoText: string): string {
  return `${isoText.slice(0, 16).replace('T', ' ')} UTC`;
}

/** "3 h", "2 d": how long something has waited, read at a glance. */
export function ageText(isoText: string, nowMs: number): string {
  const minutes = Math.max(0, Math.round((nowMs - Date.parse(isoText)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} d`;
}
