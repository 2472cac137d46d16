import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import type { Database } from '../db/connection';
import { createApiServer } from '../api/server';
import { GatewayClient } from '../client/gateway-client';
import { RequestsClient } from '../client/requests-client';
import { classification } from './requests.fixtures';
import { issueApiKey, revokeApiKey, upsertAgentIdentity } from '../db/repositories/credentials';
import { accountId } from '../db/ledger/default-chart';
import { createTestDatabase } from './support/database';
import { FIXTURES, ORG, OTHER_ORG, seedOrgs } from './support/fixtures';
import { ingestFile } from '../client/documents';
import { loadPage, storeDocument } from '../db/repositories/documents';
import { startTestWorker, type TestWorker } from './support/worker';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * The reviewer inbox in a real headless Chromium (Debian's package, driven by
 * playwright-core): two approvers sign in with their keys, filter the list, open a high-risk
 * write (formatted amounts, accounts by name, rules in words), approve it one after the other
 * (the second from the list with the keyboard) and find the posting on the books; one answers
 * a classification request; axe-core finds no serious or critical violation on any page.
 * Screenshots go to .data/test/artifacts/ (gitignored). Sessions are checked over plain HTTP
 * first (no browser needed).
 */
function findChromium(): string | null {
  for (const p of [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'])
    if (p && existsSync(p)) return p;
  try {
    return (
      execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
        encoding: 'utf8',
      }).trim() || null
    );
  } catch {
    return null;
  }
}
const CHROMIUM = findChromium();
if (!CHROMIUM)
  console.warn(
    'api.inbox.browser.test: no chromium found (scripts/bootstrap.sh installs it as root with apt; or set CHROMIUM_PATH): the browser test is skipped',
  );
const ARTIFACTS = join(__dirname, '..', '.data', 'test', 'artifacts');

let database: Database;
let worker: TestWorker;
let server: Server;
let base: string;
let clerkKey: string;
let approverKey: string;
let approverKeyId: string;
let approver2Key: string;
let agentKey: string;

const journal = (key: string, account: string, amount: string) => ({
  idempotencyKey: key,
  kind: 'journal.post',
  payload: {
    entryDate: '2026-11-30',
    memo: `inbox ${key}`,
    lines: [
      { accountId: accountId(ORG, account), currency: 'USD', debit: amount },
      { accountId: accountId(ORG, '1010'), currency: 'USD', credit: amount },
    ],
  },
});

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await seedDefaultChart(database.db, ORG);
  await ensureUser(database.db, {
    id: 'clerk',
    email: 'clerk@acme.example',
    displayName: 'Clerk',
    orgId: ORG,
    roles: ['analyst'],
  });
  await ensureUser(database.db, {
    id: 'approver',
    email: 'approver@acme.example',
    displayName: 'Approver',
    orgId: ORG,
    roles: ['approver'],
  });
  await ensureUser(database.db, {
    id: 'approver2',
    email: 'approver2@acme.example',
    displayName: 'Second approver',
    orgId: ORG,
    roles: ['approver'],
  });
  approver2Key = (
    await issueApiKey(
      database.db,
      { kind: 'user', userId: 'approver2' },
      { issuedBy: 'test', orgId: ORG },
    )
  ).key;
  await upsertAgentIdentity(database.db, {
    orgId: ORG,
    agentId: 'inbox_bot',
    operatorUserId: 'clerk',
    allowedWorkflows: ['journal.post'],
    by: 'test',
  });
  clerkKey = (
    await issueApiKey(
      database.db,
      { kind: 'user', userId: 'clerk' },
      { issuedBy: 'test', orgId: ORG },
    )
  ).key;
  const a = await issueApiKey(
    database.db,
    { kind: 'user', userId: 'approver' },
    { issuedBy: 'test', orgId: ORG },
  );
  approverKey = a.key;
  approverKeyId = a.keyId;
  agentKey = (
    await issueApiKey(
      database.db,
      { kind: 'agent', orgId: ORG, agentId: 'inbox_bot' },
      { issuedBy: 'test', orgId: ORG },
    )
  ).key;
  worker = await startTestWorker(database);
  server = createApiServer({ db: database.db, client: worker.client, taskQueue: worker.taskQueue });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await worker?.stop();
  await database?.close();
});

async function login(
  key: string,
): Promise<{ status: number; cookie: string | null; setCookie: string }> {
  const res = await fetch(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: key }),
  });
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { status: res.status, cookie: setCookie.split(';')[0] || null, setCookie };
}

describe('reviewer sessions', () => {
  it('a key becomes an HttpOnly cookie; changes need the inbox header; revoking the key ends it', async () => {
    const a = await issueApiKey(
      database.db,
      { kind: 'user', userId: 'approver' },
      { issuedBy: 'test', orgId: ORG },
    );
    const s = await login(a.key);
    expect(s.status).toBe(200);
    expect(s.setCookie).toMatch(/^cs_session=[^;]+; HttpOnly; SameSite=Strict; Path=\//);
    const cookie = s.cookie as string;
    const inbox = await fetch(`${base}/v1/inbox`, { headers: { cookie } });
    expect(inbox.status).toBe(200);
    expect(await inbox.json()).toMatchObject({ userId: 'approver' });
    // A cross-site form post carries the cookie but cannot set the header: refused.
    const csrf = await fetch(`${base}/v1/orgs/${ORG}/writes/none/decisions`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve' }),
    });
    expect(csrf.status).toBe(403);
    expect(await csrf.json()).toMatchObject({ code: 'CsrfRefused' });
    // A tampered cookie and a revoked key's session are both refused.
    const forged = `${cookie.slice(0, -3)}AAA`;
    expect((await fetch(`${base}/v1/inbox`, { headers: { cookie: forged } })).status).toBe(401);
    await revokeApiKey(database.db, a.keyId, 'test');
    const after = await fetch(`${base}/v1/inbox`, { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'SessionInvalid' });
    // Agents get no session; a wrong key gets none either.
    expect((await login(agentKey)).status).toBe(403);
    expect((await login('csk_nope')).status).toBe(401);
  });
});

/** axe-core on the page as it is: the serious and critical violations, by rule id. */
async function seriousViolationsOf(page: Page): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

(CHROMIUM ? describe : describe.skip)('reviewer inbox in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM as string,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function signIn(key: string, path = '/inbox', locale = 'en-US'): Promise<Page> {
    // Its own context per person (own cookies); axe-core needs a page made from a context.
    // The locale is the browser's Accept-Language, which lays out the amounts.
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, locale });
    const page = await context.newPage();
    page.once('close', () => void context.close());
    await page.goto(`${base}/inbox`);
    await page.fill('#api-key', key);
    await Promise.all([page.waitForSelector('header nav'), page.click('#sign-in')]);
    if (path !== '/inbox') await page.goto(`${base}${path}`);
    return page;
  }

  const seriousViolations = seriousViolationsOf;

  async function submit(key: string, account: string, amount: string): Promise<void> {
    const res = await fetch(`${base}/v1/orgs/${ORG}/writes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clerkKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(journal(key, account, amount)),
    });
    expect(res.status).toBe(202);
  }

  it('two approvers sign a high-risk write from the list and the detail view, and it is posted', async () => {
    // Six waiting tasks: one high-risk posting (two approvals), four moderate ones, a request.
    await submit('inbox-big', '6400', '7500000');
    for (const [n, amount] of [
      [1, '600000'],
      [2, '812345'],
      [3, '1500000'],
      [4, '2400000'],
    ] as const)
      await submit(`inbox-mod-${n}`, '6200', amount);
    const requests = new RequestsClient(worker.client, database.db, {
      taskQueue: worker.taskQueue,
    });
    await requests.createRequest(
      classification({ orgId: ORG, requestId: 'inbox-req-1', assigneeUserId: 'approver' }),
    );
    // createRequest returns once the request's workflow started; its row is stored by the
    // workflow's first step.
    for (let i = 0; i < 200; i++) {
      if ((await requests.listInbox({ orgId: ORG, userId: 'approver' })).length > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }

    const page = await signIn(approverKey);
    const rows = page.locator('table.tasks tr.task');
    expect(await rows.count()).toBe(6);
    // The whole list fits one screen at 1400 × 1000.
    const last = await rows.nth(5).boundingBox();
    expect(last && last.y + last.height).toBeLessThanOrEqual(1000);
    const text = await page.locator('main').innerText();
    expect(text).toContain('$75,000.00');
    expect(text).toContain('$8,123.45');
    // The request's amount, from the evidence its agent attached (1250.00 EUR).
    expect(text).toContain('€1,250.00');
    expect(text).not.toMatch(/\b7500000\b|\b812345\b/);
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-list.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // Filter to the high lane, open the one task with the keyboard.
    await page.selectOption('#f-lane', 'high');
    await Promise.all([
      page.waitForURL(/lane=high/),
      page.click('form.filters button[type=submit]'),
    ]);
    expect(await rows.count()).toBe(1);
    await rows.first().focus();
    await Promise.all([
      page.waitForURL(/\/inbox\/tasks\/approval\/inbox-big$/),
      page.keyboard.press('o'),
    ]);
    const entries = await page.locator('table.entries').innerText();
    expect(entries).toContain('6400 Professional fees');
    expect(entries).toContain('1010 Operating bank account');
    expect(entries).toContain('75,000.00');
    expect(entries).not.toContain(accountId(ORG, '6400'));
    expect(await page.locator('.rules').innerText()).toContain(
      'Amount $75,000.00 is at or above the high-risk threshold of $25,000.00',
    );
    expect(await page.locator('main').innerText()).not.toMatch(/\b7500000\b|\b2500000\b/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-detail.png'), fullPage: true });

    // First approval from the detail view, after the confirmation.
    await page.click('button[data-decision="approve"]');
    await page.locator('dialog#confirm[open]').waitFor();
    expect(await page.locator('#confirm-text').innerText()).toContain('$75,000.00');
    expect(await seriousViolations(page)).toEqual([]);
    await page.click('#confirm-ok');
    await page.locator('form.decide .status.ok').waitFor();
    expect(await page.locator('form.decide .status').innerText()).toContain('"approvals":1');
    await page.close();

    // The second approver, keyboard only: j/k to the row, a, confirm with Enter.
    // The second approver reads German: the same amounts laid out as de-DE writes them.
    const second = await signIn(approver2Key, '/inbox?sort=amount&dir=desc', 'de-DE');
    const german = await second.locator('main').innerText();
    expect(german).toContain('75.000,00\u00a0$');
    expect(german).not.toContain('$75,000.00');
    const top = second.locator('table.tasks tr.task').first();
    expect(await top.getAttribute('data-id')).toBe('inbox-big');
    await second.keyboard.press('j');
    await second.keyboard.press('k');
    expect(await top.getAttribute('aria-selected')).toBe('true');
    await second.keyboard.press('a');
    await second.locator('dialog#confirm[open]').waitFor();
    await second.keyboard.press('Enter');
    await second.locator('#live', { hasText: /^Recorded/ }).waitFor({ state: 'attached' });
    expect(await top.getAttribute('data-state')).toBe('decided');
    await second.screenshot({ path: join(ARTIFACTS, 'inbox-second-approval.png') });

    // The workflow applied it with both votes, and the posting is on the books.
    const gateway = new GatewayClient(worker.client, database.db, worker.taskQueue);
    expect(await gateway.result(ORG, 'inbox-big')).toMatchObject({
      outcome: 'applied',
      votes: [
        { userId: 'approver', decision: 'approve' },
        { userId: 'approver2', decision: 'approve' },
      ],
    });
    const tb = (await (
      await fetch(`${base}/v1/orgs/${ORG}/trial-balance`, {
        headers: { authorization: `Bearer ${clerkKey}` },
      })
    ).json()) as { rows: { code: string; debits: string }[] };
    expect(tb.rows.find((r) => r.code === '6400')).toMatchObject({ debits: '7500000' });

    // History: who decided, and when.
    await second.goto(`${base}/inbox/history`);
    const history = await second.locator('table.history').innerText();
    expect(history).toMatch(/approve\s+approver2/);
    expect(history).toMatch(/approve\s+approver\b/);
    expect(await seriousViolations(second)).toEqual([]);
    await second.screenshot({ path: join(ARTIFACTS, 'inbox-history.png') });
    await second.close();
  });

  it("answers an agent's classification request through the request's Update", async () => {
    const page = await signIn(approverKey, '/inbox?type=request', 'de-DE');
    const rows = page.locator('table.tasks tr.task');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().locator('td.amount').innerText()).toBe('1.250,00\u00a0€');
    await rows.first().focus();
    await Promise.all([
      page.waitForURL(/\/inbox\/tasks\/request\/inbox-req-1$/),
      page.keyboard.press('o'),
    ]);
    expect(await page.locator('.asked').textContent()).toMatch(/Which ledger code does each line/);
    expect(await page.locator('dd.fact-amount').innerText()).toBe('1.250,00\u00a0€');
    await page.locator('input[data-item="line-1"]').fill('6100');
    await page.locator('input[data-item="line-2"]').fill('6200');
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-request.png'), fullPage: true });
    await page.click('button[data-decision="answer"]');
    await page.click('#confirm-ok');
    await page.locator('form.decide .status.ok').waitFor();
    expect(await page.locator('form.decide .status').textContent()).toContain(
      '"status":"answered"',
    );
    await page.close();
    const requests = new RequestsClient(worker.client, database.db, {
      taskQueue: worker.taskQueue,
    });
    await requests.result(ORG, 'inbox-req-1');
    const read = await fetch(`${base}/v1/orgs/${ORG}/requests/inbox-req-1`, {
      headers: { authorization: `Bearer ${approverKey}` },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: 'inbox-req-1', orgId: ORG });
    const elsewhere = await fetch(`${base}/v1/orgs/${ORG}/requests/not-a-request`, {
      headers: { authorization: `Bearer ${approverKey}` },
    });
    expect(elsewhere.status).toBe(404);
    expect(approverKeyId).toMatch(/^[0-9a-f]+$/);
  });
});

/**
 * Evidence a reviewer can check against the source: a PDF's cited page drawn by pdf.js from
 * the stored file under the inbox's CSP, only the cited span highlighted (the right one of two
 * "Net revenues" on the page) and the number outlined where it is printed; a text document's
 * cited page with the span marked; the stored file served in its org only, markup sandboxed.
 */
interface Drawn {
  state: string;
  status: string;
  matched: string;
  /** Centres of the marks, as shares of the drawn sheet's width (x) and height (y). */
  spans: { x: number; y: number }[];
  numbers: { x: number; y: number }[];
  /** Dark pixels on the canvas: pdf.js drew the page. */
  ink: number;
}

// Runs in the page (this project's TypeScript has no DOM types, so it is plain text here).
const MEASURE = `(() => {
  const fig = document.querySelector('.pdf-page');
  const sheet = fig.querySelector('.pdf-sheet').getBoundingClientRect();
  const rel = (el) => {
    const r = el.getBoundingClientRect();
    return {
      x: (r.left + r.width / 2 - sheet.left) / sheet.width,
      y: (r.top + r.height / 2 - sheet.top) / sheet.height,
    };
  };
  const canvas = fig.querySelector('canvas');
  const px = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  let ink = 0;
  for (let i = 0; i < px.length; i += 4) if (px[i] < 128 && px[i + 3] > 0) ink++;
  return {
    state: fig.dataset.state,
    status: fig.querySelector('.pdf-status').textContent,
    matched: fig.dataset.matched,
    spans: [...fig.querySelectorAll('.hl-span')].map(rel),
    numbers: [...fig.querySelectorAll('.hl-number')].map(rel),
    ink,
  };
})()`;

describe('cited pages and stored files', () => {
  const PDF = join(FIXTURES, 'pdf', 'statement-table.pdf');
  let dir: string;
  let pageText: string;
  let cookie: string;
  beforeAll(async () => {
    const deps = { db: database.db, client: worker.client, taskQueue: worker.taskQueue };
    await ingestFile(deps, { orgId: ORG, path: PDF, id: 'statement-table' });
    dir = mkdtempSync(join(tmpdir(), 'cs-inbox-doc-'));
    writeFileSync(
      join(dir, 'note.html'),
      '<html><body><p>Revenue was $1,577 million in 2024.</p><script>document.title="ran"</script></body></html>',
    );
    await ingestFile(deps, { orgId: ORG, path: join(dir, 'note.html'), id: 'note' });
    await storeDocument(database.db, {
      id: 'globex-secret',
      idIsExplicit: true,
      orgId: OTHER_ORG,
      title: 'secret.txt',
      docType: null,
      mimeType: 'text/plain',
      bytes: Buffer.from('globex only'),
    });
    pageText = (await loadPage(database.db, ORG, 'statement-table', 0)) ?? '';
    cookie = (await login(approverKey)).cookie as string;
  });

  const get = (path: string, c: string | null = cookie) =>
    fetch(`${base}${path}`, { headers: c ? { cookie: c } : {} });

  it("serves the original in the session's org only: the PDF as is, HTML sandboxed, another org's not at all", async () => {
    const pdf = await get('/inbox/documents/statement-table/file');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await pdf.arrayBuffer()).equals(readFileSync(PDF))).toBe(true);
    const note = await get('/inbox/documents/note/file');
    expect(note.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(note.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/);
    expect(await note.text()).toContain('<script>');
    // Another org's document is not found, exactly like the text view; no session, no bytes.
    const other = await get('/inbox/documents/globex-secret/file');
    expect(other.status).toBe(404);
    expect(await other.text()).not.toContain('globex only');
    expect((await get('/inbox/documents/globex-secret')).status).toBe(404);
    const anonymous = await get('/inbox/documents/statement-table/file', null);
    expect(anonymous.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await anonymous.text()).toContain('id="api-key"');
  });

  it("shows a text document's cited page with only the span highlighted and the number marked", async () => {
    const text = (await loadPage(database.db, ORG, 'note', 0)) ?? '';
    const start = text.indexOf('Revenue was');
    const res = await get(
      `/inbox/documents/note/pages/1?start=${start}&end=${text.indexOf(' in 2024')}&number=1%2C577`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(
      '<mark class="span">Revenue was $<mark class="number">1,577</mark> million</mark> in 2024.',
    );
    expect(html).toContain('href="/inbox/documents/note/file">open the whole document</a>');
    expect(html).not.toContain('class="pdf-page"');
    expect((await get('/inbox/documents/note/pages/9?start=0&end=3')).status).toBe(404);
  });

  (CHROMIUM ? it : it.skip)(
    "draws a PDF's cited page with pdf.js and marks only the cited span and its number",
    async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM as string,
        args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      try {
        mkdirSync(ARTIFACTS, { recursive: true });
        const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
        const [name, value] = cookie.split('=') as [string, string];
        await context.addCookies([{ name, value, url: base }]);
        const page = await context.newPage();
        const blocked: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused to/i.test(m.text())) blocked.push(m.text());
        });
        page.on('pageerror', (err) => blocked.push(err.message));

        /** The cited page's drawing: its state, and the marks relative to the drawn sheet. */
        async function drawn(start: number, end: number, number: string) {
          const q = new URLSearchParams({ start: String(start), end: String(end), number });
          await page.goto(`${base}/inbox/documents/statement-table/pages/1?${q.toString()}`);
          await page.waitForSelector('.pdf-page:not([data-state="pending"])', { timeout: 15_000 });
          return page.evaluate<Drawn>(MEASURE);
        }

        // The table row "Net revenues $ 6,489 $ 7,500" (baseline 660 of a 792-point page);
        // the same two words open a sentence lower down (baseline 508).
        const row = pageText.indexOf('Net revenues   $ 6,489');
        const rowDrawn = await drawn(row, row + 'Net revenues   $ 6,489'.length, '6,489');
        expect(rowDrawn).toMatchObject({ state: 'rendered', matched: 'Netrevenues$6,489' });
        expect(rowDrawn.ink).toBeGreaterThan(500);
        expect(rowDrawn.spans.length).toBeGreaterThan(0);
        for (const s of rowDrawn.spans)
          expect(Math.abs(s.y - (792 - 662) / 792)).toBeLessThan(0.015);
        // One outline, over the 6,489 printed right-aligned at x 430 (not the 7,500 at 530).
        expect(rowDrawn.numbers).toHaveLength(1);
        expect(rowDrawn.numbers[0]!.x).toBeGreaterThan(400 / 612);
        expect(rowDrawn.numbers[0]!.x).toBeLessThan(430 / 612);
        await page.screenshot({ path: join(ARTIFACTS, 'cited-pdf-page.png'), fullPage: true });
        expect(await seriousViolationsOf(page)).toEqual([]);

        const prose = pageText.lastIndexOf('Net revenues');
        expect(prose).toBeGreaterThan(row);
        const proseDrawn = await drawn(prose, prose + 'Net revenues'.length, '');
        expect(proseDrawn).toMatchObject({
          state: 'rendered',
          matched: 'Netrevenues',
          numbers: [],
        });
        for (const s of proseDrawn.spans)
          expect(Math.abs(s.y - (792 - 510) / 792)).toBeLessThan(0.015);
        await page.screenshot({ path: join(ARTIFACTS, 'cited-pdf-page-prose.png') });
        expect(blocked).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    45_000,
  );
});
