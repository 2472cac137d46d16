import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import { operatorEnv } from './support/fixtures';
import type { Database } from '../db/connection';
import { appendAudit, verifyAuditChain } from '../db/repositories/audit';
import { ensureOrganization } from '../db/repositories/organizations';
import {
  AnchorSignatureError,
  openSignedHead,
  signedHeadOf,
  verifyAgainstAnchor,
} from '../activities/audit/anchors';
import { recordAuditAnchors } from '../activities/audit';
import { PROJECT_ROOT } from '../scripts/lib/temporal-binaries';

const run = promisify(execFile);

/**
 * Issue 25 item 3: the chain alone cannot see rows cut off its end, an org's rows all
 * deleted, or a chain rewritten from an edited row on (every later hash recomputed). A head
 * signed under a key outside the database and recorded outside the chain can: each attack
 * below passes `verifyAuditChain` and fails against the anchor. The attacker has the owner's
 * access (the runtime role cannot UPDATE or DELETE audit rows at all).
 */
const SECRET = 'a'.repeat(64);
let database: Database;
let owner: PgClient;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase();
  owner = new PgClient({ connectionString: database.ownerUrl });
  await owner.connect();
  dir = mkdtempSync(join(tmpdir(), 'cs-anchors-'));
});
afterAll(async () => {
  await owner?.end();
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function orgWithRows(org: string, n: number, from = 1): Promise<void> {
  await ensureOrganization(database.db, { id: org, name: org });
  for (let i = from; i < from + n; i++)
    await appendAudit(database.db, {
      orgId: org,
      subjectType: 'test',
      subjectId: `s-${i}`,
      event: `event-${i}`,
      idempotencyKey: `${org}:row:${i}`,
      actor: 'test',
      payload: { i },
    });
}

async function tamper(statements: string[]): Promise<void> {
  await owner.query('begin');
  await owner.query('alter table audit_log disable trigger audit_log_no_update');
  for (const s of statements) await owner.query(s);
  await owner.query('alter table audit_log enable trigger audit_log_no_update');
  await owner.query('commit');
}

/** Edits row `seq` and recomputes every hash from it on: the chain verifies again. */
const rechainFrom = (org: string, seq: number, n: number): string[] => [
  `update audit_log set payload = '{"i": ${seq}, "note": "forged"}' where org_id = '${org}' and org_seq = ${seq}`,
  ...Array.from({ length: n - seq + 1 }, (_, k) => seq + k).flatMap((s) => [
    `update audit_log set prev_hash = (select row_hash from audit_log where org_id = '${org}' and org_seq = ${s - 1}) where org_id = '${org}' and org_seq = ${s}`,
    `update audit_log set row_hash = audit_row_hash(org_id, org_seq, subject_type, subject_id, event, idempotency_key, actor, payload, created_at, prev_hash) where org_id = '${org}' and org_seq = ${s}`,
  ]),
];

describe('signed audit anchors', () => {
  it('a signed head opens only under its key, unaltered', async () => {
    await orgWithRows('a-sig', 2);
    const line = await signedHeadOf(database.db, SECRET, 'a-sig');
    expect(openSignedHead(SECRET, line.token)).toMatchObject({ orgId: 'a-sig', orgSeq: '2' });
    expect(() => openSignedHead('b'.repeat(64), line.token)).toThrow(AnchorSignatureError);
    const [p, body, sig] = line.token.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), rows: 1 }),
    ).toString('base64url');
    expect(() => openSignedHead(SECRET, `${p}.${forged}.${sig}`)).toThrow(AnchorSignatureError);
  });

  it('truncation of the last rows: the chain verifies, the anchor does not', async () => {
    await orgWithRows('a-trunc', 5);
    const anchor = openSignedHead(
      SECRET,
      (await signedHeadOf(database.db, SECRET, 'a-trunc')).token,
    );
    expect(await verifyAgainstAnchor(database.db, 'a-trunc', anchor)).toMatchObject({ ok: true });
    await tamper([`delete from audit_log where org_id = 'a-trunc' and org_seq >= 4`]);
    expect(await verifyAuditChain(database.db, 'a-trunc')).toMatchObject({ ok: true, rows: 3 });
    const v = await verifyAgainstAnchor(database.db, 'a-trunc', anchor);
    expect(v).toMatchObject({ ok: false, anchor: { ok: false, kind: 'truncated' } });
    expect(v.anchor?.detail).toMatch(/row #5 .* is gone: the chain has 3 rows, the anchor 5/);
  });

  it("deletion of all of an org's rows: the chain verifies (empty), the anchor does not", async () => {
    await orgWithRows('a-all', 3);
    const anchor = openSignedHead(SECRET, (await signedHeadOf(database.db, SECRET, 'a-all')).token);
    await tamper([`delete from audit_log where org_id = 'a-all'`]);
    expect(await verifyAuditChain(database.db, 'a-all')).toMatchObject({ ok: true, rows: 0 });
    const v = await verifyAgainstAnchor(database.db, 'a-all', anchor);
    expect(v).toMatchObject({ ok: false, anchor: { kind: 'truncated' } });
    expect(v.anchor?.detail).toMatch(/every row of a-all is gone/);
  });

  it('re-chaining (an edited row, every later hash recomputed): the chain verifies, the anchor does not', async () => {
    await orgWithRows('a-rechain', 5);
    const anchor = openSignedHead(
      SECRET,
      (await signedHeadOf(database.db, SECRET, 'a-rechain')).token,
    );
    await tamper(rechainFrom('a-rechain', 2, 5));
    expect(await verifyAuditChain(database.db, 'a-rechain')).toMatchObject({ ok: true, rows: 5 });
    const v = await verifyAgainstAnchor(database.db, 'a-rechain', anchor);
    expect(v).toMatchObject({ ok: false, anchor: { kind: 'rechained' } });
    expect(v.anchor?.detail).toMatch(/row #5 hashes [0-9a-f]{64}, the anchor .* says/);
  });

  it('a chain that only grew since its anchor holds it', async () => {
    await orgWithRows('a-grow', 3);
    const anchor = openSignedHead(
      SECRET,
      (await signedHeadOf(database.db, SECRET, 'a-grow')).token,
    );
    await orgWithRows('a-grow', 2, 4);
    expect(await verifyAgainstAnchor(database.db, 'a-grow', anchor)).toMatchObject({
      ok: true,
      rows: 5,
      anchor: { ok: true },
    });
  });

  it('`audit anchor` records heads; `audit verify` fails on each attack, by default and with --expect-head', async () => {
    const anchors = join(dir, 'anchors.jsonl');
    const env = {
      ...process.env,
      // Operator commands act as an admin of the operating org (issue 25 item 8).
      ...(await operatorEnv(database.db)),
      DATABASE_URL: database.ownerUrl,
      DATABASE_RUNTIME_URL: database.url,
      AUDIT_ANCHOR_SECRET: SECRET,
      AUDIT_ANCHORS_FILE: anchors,
    };
    const cli = join(PROJECT_ROOT, 'client', 'cli.ts');
    const tsx = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
    const cs = (args: string[]) =>
      run(tsx, [cli, '--json', ...args], { env }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    for (const org of ['c-trunc', 'c-all', 'c-rechain']) await orgWithRows(org, 4);
    // Recorded by the CLI (the worker's schedule runs the same function); unchanged heads are not repeated.
    expect((await cs(['audit', 'anchor'])).code).toBe(0);
    expect(await recordAuditAnchors(database.db, { secret: SECRET, file: anchors })).toMatchObject({
      recorded: [],
    });
    const head = await cs(['audit', 'head', '--org', 'c-rechain']);
    const token = (JSON.parse(head.stdout) as { token: string }).token;
    await tamper([`delete from audit_log where org_id = 'c-trunc' and org_seq = 4`]);
    await tamper([`delete from audit_log where org_id = 'c-all'`]);
    await tamper(rechainFrom('c-rechain', 3, 4));
    for (const org of ['c-trunc', 'c-all', 'c-rechain'])
      expect(await verifyAuditChain(database.db, org)).toMatchObject({ ok: true });
    // By default against the last recorded anchors: every org named there is verified, the
    // one whose rows are all gone included.
    const all = await cs(['audit', 'verify']);
    expect(all.code).toBe(3);
    for (const [org, kind] of [
      ['c-trunc', 'truncated'],
      ['c-all', 'truncated'],
      ['c-rechain', 'rechained'],
    ] as const)
      expect(all.stderr).toContain(`audit chain of ${org} does not hold its anchor: ${kind}`);
    // --expect-head: the head handed out before the rewrite.
    const expectHead = await cs(['audit', 'verify', '--expect-head', token]);
    expect(expectHead.code).toBe(3);
    expect(expectHead.stderr).toContain(
      'audit chain of c-rechain does not hold its anchor: rechained',
    );
    // A head signed under another key is refused, and so is an edited line of the file.
    const foreign = await cs([
      'audit',
      'verify',
      '--expect-head',
      token.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    ]);
    expect(foreign.code).not.toBe(0);
    expect(foreign.stderr).toMatch(/signature of the audit head does not verify/);
    const lines = readFileSync(anchors, 'utf8').trim().split('\n');
    writeFileSync(
      anchors,
      [...lines, lines[0]!.replace(/"token":"[^"]+"/, '"token":"csah1.x.y"')].join('\n'),
    );
    const edited = await cs(['audit', 'verify', '--org', 'c-trunc']);
    expect(edited.stderr).toMatch(/anchors file .* line \d+ is not a signed head/);
  }, 240_000);
});
