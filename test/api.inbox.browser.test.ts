import { existsSync, mkdirSync } from 'node:fs';
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
import { ensureUser } from '../db/repositories/organizations';
import { issueApiKey, revokeApiKey, upsertAgentIdentity } from '../db/repositories/credentials';
import { accountId, seedDefaultChart } from '../db/ledger/default-chart';
import { createTestDatabase } from './support/database';
import { ORG, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';

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

  async function signIn(key: string, path = '/inbox'): Promise<Page> {
    // Its own context per person (own cookies); axe-core needs a page made from a context.
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const page = await context.newPage();
    page.once('close', () => void context.close());
    await page.goto(`${base}/inbox`);
    await page.fill('#api-key', key);
    await Promise.all([page.waitForSelector('header nav'), page.click('#sign-in')]);
    if (path !== '/inbox') await page.goto(`${base}${path}`);
    return page;
  }

  /** axe-core on the page as it is: the serious and critical violations, by rule id. */
  async function seriousViolations(page: Page): Promise<string[]> {
    const r = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze();
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

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
    const second = await signIn(approver2Key, '/inbox?sort=amount&dir=desc');
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
    const page = await signIn(approverKey, '/inbox?type=request');
    const rows = page.locator('table.tasks tr.task');
    expect(await rows.count()).toBe(1);
    await rows.first().focus();
    await Promise.all([
      page.waitForURL(/\/inbox\/tasks\/request\/inbox-req-1$/),
      page.keyboard.press('o'),
    ]);
    expect(await page.locator('.asked').textContent()).toMatch(/Which ledger code does each line/);
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
