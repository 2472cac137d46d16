import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { promisify } from 'node:util';
import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import { operatorEnv } from './support/fixtures';
import { gatewayDbFor, type Database } from '../db/connection';
import {
  GENESIS_HASH,
  appendAudit,
  auditHead,
  auditTrail,
  verifyAuditChain,
} from '../db/repositories/audit';
import { ensureOrganization } from '../db/repositories/organizations';
import { registerSubmission } from '../db/repositories/gateway';
import { PROJECT_ROOT } from '../scripts/lib/temporal-binaries';
import {
  APPROVER_1,
  APPROVER_2,
  ORG,
  OTHER_ORG,
  OUTSIDER,
  acc,
  directGateway,
  journalPost,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

const run = promisify(execFile);

/**
 * The audit log is hash-chained per org. The chain is verified outside the database (the hash
 * is recomputed in TypeScript), so an attacker with the owner's access — who can disable the
 * append-only trigger — still cannot edit, delete or reorder a row unnoticed.
 */
let database: Database;
let owner: PgClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  owner = new PgClient({ connectionString: database.ownerUrl });
  await owner.connect();
});
afterAll(async () => {
  await owner?.end();
  await database?.close();
});

/** An org with `n` audit rows of its own. */
async function orgWithRows(org: string, n: number): Promise<void> {
  await ensureOrganization(database.db, { id: org, name: org });
  for (let i = 1; i <= n; i++)
    await appendAudit(database.db, {
      orgId: org,
      subjectType: 'test',
      subjectId: `s-${i}`,
      event: `event-${i}`,
      idempotencyKey: `${org}:row:${i}`,
      actor: 'test',
      payload: { i, note: 'ünïcødé 𝄞 and "quotes"' },
    });
}

/** As an attacker with the owner's access: switch off the append-only trigger and tamper. */
async function tamper(statements: string[]): Promise<void> {
  await owner.query('begin');
  await owner.query('alter table audit_log disable trigger audit_log_no_update');
  for (const s of statements) await owner.query(s);
  await owner.query('alter table audit_log enable trigger audit_log_no_update');
  await owner.query('commit');
}
const idAt = async (org: string, seq: number) =>
  (
    await owner.query<{ id: string }>(
      `select id from audit_log where org_id = $1 and org_seq = $2`,
      [org, seq],
    )
  ).rows[0]?.id;

describe('the hash-chained audit log', () => {
  it('chains every gateway state change of an org: submitted, each vote, applied', async () => {
    const g = directGateway(database.db);
    const ev = await g.evaluate(
      journalPost({
        amount: '9000000',
        lines: [
          { accountId: acc('6200'), debit: '9000000' },
          { accountId: acc('1010'), credit: '9000000' },
        ],
      }),
    );
    expect(ev.risk.lane).toBe('high');
    await g.vote(ev.submissionId, APPROVER_1, 'approve');
    await g.vote(ev.submissionId, APPROVER_2, 'approve');
    await g.apply(ev.submissionId);
    const trail = await auditTrail(database.db, ORG, 'gateway_submission', ev.submissionId);
    expect(trail.map((t) => [t.event, t.actor])).toEqual([
      ['submitted', 'user:bob'],
      ['vote', `user:${APPROVER_1}`],
      ['vote', `user:${APPROVER_2}`],
      ['applied', 'gateway'],
    ]);
    for (const [i, t] of trail.entries()) {
      if (i > 0) expect(t.orgSeq).toBeGreaterThan(trail[i - 1]?.orgSeq ?? 0);
      expect(t.rowHash).toMatch(/^[0-9a-f]{64}$/);
    }
    const v = await verifyAuditChain(database.db, ORG);
    expect(v).toMatchObject({ ok: true, firstBreak: null });
    const head = await auditHead(database.db, ORG);
    expect(head).toMatchObject({ orgId: ORG, rows: v.rows, hash: v.head, orgSeq: String(v.rows) });
  });

  it('a registered submission always has its "submitted" row: they commit in one statement', async () => {
    // The activity dying right after registering (before any audit call of its own) used to
    // leave a submission without it; now the row is written by the insert that registers it.
    // (Registering is the gateway role's: gatewayDbFor.)
    const id = `gateway:${ORG}:crash-after-register`;
    const { created } = await registerSubmission(gatewayDbFor(database.db), {
      id,
      orgId: ORG,
      idempotencyKey: 'crash-after-register',
      workflowId: id,
      runId: 'run-1',
      kind: 'journal.post',
      payload: { memo: 'x' },
      submitter: { kind: 'user', userId: 'bob' },
      submitterKind: 'user',
      submitterUserId: 'bob',
      riskScore: 0,
      lane: 'low',
      rulesFired: [],
      requiredApprovals: 0,
      status: 'approved',
    });
    expect(created).toBe(true);
    // A retried evaluation finds the registration and writes nothing twice.
    const g = directGateway(database.db);
    const w = journalPost({ key: 'retried-evaluation', amount: '12' });
    await g.evaluate(w);
    await g.evaluate(w);
    for (const [subject, events] of [
      [id, ['submitted']],
      [`gateway:${ORG}:retried-evaluation`, ['submitted']],
    ] as const)
      expect(
        (await auditTrail(database.db, ORG, 'gateway_submission', subject)).map((t) => [
          t.event,
          t.actor,
        ]),
      ).toEqual(events.map((e) => [e, 'user:bob']));
  });

  it('stays one unbroken chain per org under concurrent writers', async () => {
    await orgWithRows('busy', 0);
    const g = directGateway(database.db);
    const writers = [
      // Analysis-style rows and gateway submissions in two orgs, all at once over the pool.
      ...Array.from({ length: 30 }, (_, i) =>
        appendAudit(database.db, {
          orgId: 'busy',
          subjectType: 'analysis',
          subjectId: `analysis:busy:r-${i}`,
          event: 'step',
          idempotencyKey: `busy:${i}`,
          actor: 'workflow',
          payload: { i },
        }),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        g.evaluate(journalPost({ key: key(`conc-${i}`), amount: String(100 + i) })),
      ),
      ...Array.from({ length: 8 }, (_, i) =>
        g.evaluate(
          journalPost({
            key: key(`conc-o-${i}`),
            amount: String(100 + i),
            org: OTHER_ORG,
            submitter: { kind: 'user', userId: OUTSIDER },
          }),
        ),
      ),
    ];
    await Promise.all(writers);
    for (const org of ['busy', ORG, OTHER_ORG]) {
      const v = await verifyAuditChain(database.db, org);
      expect(v).toMatchObject({ orgId: org, ok: true, firstBreak: null });
      const seqs = await owner.query<{ n: number; max: string }>(
        `select count(*)::int as n, max(org_seq)::text as max from audit_log where org_id = $1`,
        [org],
      );
      expect(seqs.rows[0]?.max).toBe(String(seqs.rows[0]?.n));
    }
    expect((await verifyAuditChain(database.db, 'busy')).rows).toBe(30);
  });

  it('an org without rows has the genesis head', async () => {
    await orgWithRows('quiet', 0);
    expect(await auditHead(database.db, 'quiet')).toMatchObject({
      rows: 0,
      orgSeq: null,
      hash: GENESIS_HASH,
    });
  });

  it('names the first edited row', async () => {
    await orgWithRows('t-edit', 5);
    const id = await idAt('t-edit', 3);
    await tamper([
      `update audit_log set payload = '{"i": 3, "note": "nothing to see"}' where org_id = 't-edit' and org_seq = 3`,
    ]);
    expect(await verifyAuditChain(database.db, 't-edit')).toMatchObject({
      ok: false,
      firstBreak: { kind: 'edited', id: Number(id), orgSeq: '3' },
    });
  });

  it('names the row after a deleted one', async () => {
    await orgWithRows('t-delete', 5);
    const after = await idAt('t-delete', 3);
    await tamper([`delete from audit_log where org_id = 't-delete' and org_seq = 2`]);
    const v = await verifyAuditChain(database.db, 't-delete');
    expect(v).toMatchObject({
      ok: false,
      firstBreak: { kind: 'deleted', id: Number(after), orgSeq: '3' },
    });
    expect(v.firstBreak?.detail).toMatch(/^row\(s\) #2 missing before row \d+ \(#3, event-3/);
  });

  it('names a reordered row', async () => {
    await orgWithRows('t-order', 5);
    const second = await idAt('t-order', 2);
    const third = await idAt('t-order', 3);
    await tamper([
      `update audit_log set org_seq = 1000 where org_id = 't-order' and org_seq = 2`,
      `update audit_log set org_seq = 2 where org_id = 't-order' and org_seq = 3`,
      `update audit_log set org_seq = 3 where org_id = 't-order' and org_seq = 1000`,
    ]);
    const v = await verifyAuditChain(database.db, 't-order');
    expect(v).toMatchObject({
      ok: false,
      firstBreak: { kind: 'reordered', id: Number(third), orgSeq: '2' },
    });
    expect(v.firstBreak?.detail).toMatch(/was chained as #3$/);
    expect(second).not.toBe(third);
  });

  it('names a row that was rewritten and re-hashed: the next row’s link no longer matches', async () => {
    await orgWithRows('t-rehash', 4);
    const rewritten = await idAt('t-rehash', 2);
    await tamper([
      `update audit_log set payload = '{"i": 2, "note": "forged"}' where org_id = 't-rehash' and org_seq = 2`,
      `update audit_log set row_hash = audit_row_hash(org_id, org_seq, subject_type, subject_id, event, idempotency_key, actor, payload, created_at, prev_hash) where org_id = 't-rehash' and org_seq = 2`,
    ]);
    expect(await verifyAuditChain(database.db, 't-rehash')).toMatchObject({
      ok: false,
      firstBreak: { kind: 'edited', id: Number(rewritten), orgSeq: '2' },
    });
  });

  it('`npm run cli -- audit verify` exits non-zero and names the row; `audit head` exports the head', async () => {
    const env = {
      ...process.env,
      // Operator commands act as an admin of the operating org (issue 25 item 8).
      ...(await operatorEnv(database.db)),
      DATABASE_URL: database.ownerUrl,
      DATABASE_RUNTIME_URL: database.url,
      // This database's anchors only (none): not the installation's file under .data.
      AUDIT_ANCHOR_SECRET: 'k'.repeat(64),
      AUDIT_ANCHORS_FILE: join(tmpdir(), `cs-no-anchors-${process.pid}.jsonl`),
    };
    const cli = join(PROJECT_ROOT, 'client', 'cli.ts');
    const tsx = join(PROJECT_ROOT, 'node_modules', '.bin', 'tsx');
    const broken = await run(tsx, [cli, '--json', 'audit', 'verify', '--org', 't-edit'], {
      env,
    }).then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(broken?.code).toBe(3);
    expect(broken?.stderr).toMatch(/audit chain of t-edit is broken: edited — row \d+ \(#3, /);
    const ok = await run(tsx, [cli, '--json', 'audit', 'verify', '--org', ORG], { env });
    expect(JSON.parse(ok.stdout)).toMatchObject([{ orgId: ORG, ok: true }]);
    const head = await run(tsx, [cli, '--json', 'audit', 'head', '--org', ORG], { env });
    expect(JSON.parse(head.stdout)).toMatchObject({
      orgId: ORG,
      hash: (await auditHead(database.db, ORG)).hash,
    });
  }, 60_000);
});
