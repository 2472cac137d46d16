import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Database } from '../db/connection';
import { createApiServer } from '../api/server';
import { ingestFile } from '../client/documents';
import { issueApiKey, upsertAgentIdentity } from '../db/repositories/credentials';
import { accountId } from '../db/ledger/default-chart';
import { createTestDatabase } from './support/database';
import { ORG, OTHER_ORG, SAMPLES, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * The HTTP API the api.http-*.test.ts files share: a database, a worker and a server, started
 * by each file's own beforeAll (startHttpApi) and stopped by its afterAll (stopHttpApi). Jest
 * loads this module afresh for every test file, so each file has its own; the bindings below
 * are set by startHttpApi and read through the imports.
 */
export let database: Database;
export let worker: TestWorker;
let server: Server;
export let base: string;
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
export let CLERK: Record<string, string>;
export let APPROVER: Record<string, string>;
export let RITA: Record<string, string>;
export let GINA: Record<string, string>;
export let AGENT: Record<string, string>;
const userKey = async (userId: string, ttlDays?: number) =>
  bearer(
    (
      await issueApiKey(
        database.db,
        { kind: 'user', userId },
        { issuedBy: 'test', orgId: userId === 'gina' ? OTHER_ORG : ORG, ttlDays },
      )
    ).key,
  );

/** The plan a write's state shows (what a decision names). */
export async function planOf(key: string): Promise<{ revision: number; planHash: string }> {
  const res = await fetch(`${base}/v1/orgs/${ORG}/writes/${key}`, { headers: APPROVER });
  const state = (await res.json()) as { revision: number; planHash: string };
  return { revision: state.revision, planHash: state.planHash };
}

export async function call(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown> & {
    error?: { type: string; message: string; issues: { path: string }[] };
  };
  // Errors are problem+json: `code` is the kind, `detail` the message, `type` its stable URI.
  if (res.headers.get('content-type') === 'application/problem+json') {
    expect(json.type).toBe(
      `https://countersign.dev/problems/${String(json.code)
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .toLowerCase()}`,
    );
    expect(json.status).toBe(res.status);
    json.error = {
      type: json.code as string,
      message: json.detail as string,
      issues: json.issues as { path: string }[],
    };
  }
  return { status: res.status, body: json };
}

export const post = (key: string, amount: string) => ({
  idempotencyKey: key,
  kind: 'journal.post',
  payload: {
    entryDate: '2026-11-30',
    memo: 'supplies',
    lines: [
      { accountId: accountId(ORG, '6200'), currency: 'USD', debit: amount },
      { accountId: accountId(ORG, '1010'), currency: 'USD', credit: amount },
    ],
  },
});

/** For a file's beforeAll: the database, its users and keys, the worker and the server. */
export async function startHttpApi(): Promise<void> {
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
    id: 'gina',
    email: 'gina@globex.example',
    displayName: 'Gina Globex',
    orgId: 'globex',
    roles: ['reviewer', 'approver'],
  });
  await upsertAgentIdentity(database.db, {
    orgId: ORG,
    by: 'test-admin',
    agentId: 'posting_bot',
    operatorUserId: 'clerk',
    allowedWorkflows: ['journal.post'],
  });
  CLERK = await userKey('clerk');
  APPROVER = await userKey('approver');
  RITA = await userKey('rita');
  GINA = await userKey('gina');
  AGENT = bearer(
    (
      await issueApiKey(
        database.db,
        { kind: 'agent', orgId: ORG, agentId: 'posting_bot' },
        { issuedBy: 'test', orgId: ORG },
      )
    ).key,
  );
  worker = await startTestWorker(database);
  await ingestFile(
    { db: database.db, client: worker.client, taskQueue: worker.taskQueue },
    { orgId: ORG, path: join(SAMPLES, 'northwind-2024-10k.txt') },
  );
  server = createApiServer({ db: database.db, client: worker.client, taskQueue: worker.taskQueue });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** For a file's afterAll. */
export async function stopHttpApi(): Promise<void> {
  await new Promise((r) => server?.close(r));
  await worker?.stop();
  await database?.close();
}
