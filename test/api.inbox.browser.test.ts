import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';
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
 * playwright-core): sign in with a key, see the waiting write with its entries and fired
 * rules, approve it, and watch the workflow apply it. Screenshots go to
 * .data/test/artifacts/. Sessions are checked over plain HTTP first (no browser needed).
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
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs in, shows the waiting write with its evidence, approves it, and the write is applied', async () => {
    // A first posting to 6400: moderate lane, one approval; the clerk cannot sign it.
    const sub = await fetch(`${base}/v1/orgs/${ORG}/writes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${clerkKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(journal('inbox-1', '6400', '2500')),
    });
    expect(sub.status).toBe(202);
    expect(sub.headers.get('location')).toBe(`/v1/orgs/${ORG}/writes/inbox-1`);

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${base}/inbox`);
    await page.fill('#api-key', approverKey);
    await Promise.all([page.waitForSelector('section.item'), page.click('#sign-in')]);
    const item = page.locator('section.item[data-id="inbox-1"]');
    await expect(item.locator('.asked').textContent()).resolves.toMatch(
      /Approve or reject journal\.post "inbox-1" submitted by clerk/,
    );
    await expect(item.locator('.due').textContent()).resolves.toMatch(/^due \d{4}-\d{2}-\d{2}/);
    const entries = await item.locator('table.entries').innerText();
    expect(entries).toContain(accountId(ORG, '6400'));
    expect(entries).toContain('2500');
    expect(await item.locator('.rules').innerText()).toMatch(/first_posting|first posting/i);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-before-approval.png'), fullPage: true });

    await item.locator('button[data-decision="approve"]').click();
    await item.locator('.status.ok').waitFor();
    expect(await item.locator('.status').textContent()).toContain('"accepted":true');
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-after-approval.png'), fullPage: true });

    // The same Update as the API: the workflow goes on and applies the write.
    const gateway = new GatewayClient(worker.client, database.db, worker.taskQueue);
    const result = await gateway.result(ORG, 'inbox-1');
    expect(result).toMatchObject({
      outcome: 'applied',
      votes: [{ userId: 'approver', decision: 'approve' }],
    });
    await page.reload();
    expect(await page.locator('section.item[data-id="inbox-1"]').count()).toBe(0);
    await page.close();
    expect(approverKeyId).toMatch(/^[0-9a-f]+$/);
  });

  it("lists an agent's request routed to the person and answers its form through the request's Update", async () => {
    const requests = new RequestsClient(worker.client, database.db, {
      taskQueue: worker.taskQueue,
    });
    await requests.createRequest(
      classification({ orgId: ORG, requestId: 'inbox-req-1', assigneeUserId: 'approver' }),
    );
    // createRequest returns once the request's workflow started; its row (what the page lists,
    // rendered once) is stored by the workflow's first step.
    for (let i = 0; i < 200; i++) {
      if ((await requests.listInbox({ orgId: ORG, userId: 'approver' })).length > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    await page.goto(`${base}/inbox`);
    await page.fill('#api-key', approverKey);
    await Promise.all([page.waitForSelector('section.item'), page.click('#sign-in')]);
    const item = page.locator('section.item[data-id="inbox-req-1"]');
    expect(await item.locator('.asked').textContent()).toMatch(/Which ledger code does each line/);
    await expect(item.locator('.due').textContent()).resolves.toMatch(/^due \d{4}-\d{2}-\d{2}/);
    await item.locator('input[data-item="line-1"]').fill('6100');
    await item.locator('input[data-item="line-2"]').fill('6200');
    await page.screenshot({ path: join(ARTIFACTS, 'inbox-request.png'), fullPage: true });
    await item.locator('button[data-decision="answer"]').click();
    await item.locator('.status.ok').waitFor();
    expect(await item.locator('.status').textContent()).toContain('"status":"answered"');
    await page.close();
    // The request closed with that answer; the API reads it in its org only.
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
  });
});
