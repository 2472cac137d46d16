import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import { refused } from './support/refused';
import type { Database } from '../db/connection';
import { auditTrail } from '../db/repositories/audit';
import { countEntries } from '../db/repositories/ledger';
import { rolesInOrg } from '../db/repositories/organizations';
import {
  APPROVER_1,
  CLERK,
  ORG,
  OUTSIDER,
  OWNER,
  acc,
  directGateway,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/**
 * Issue 25 item 1: no credential the platform's processes hold can approve its own writes.
 * The runtime role (API, CLI, MCP, the other domains) cannot even write a submission or a vote
 * (test/ledger.gateway-role.test.ts). This file plays the stronger attacker: a holder of the
 * gateway worker's own role (countersign_gateway), which may register and vote. Each bypass an
 * outside review used (and a few more) is tried straight against PostgreSQL as that role, in
 * one transaction as an attacker would, and the database refuses it; nothing reaches the books
 * or the grants. The seeding path (the owner's connection) still bootstraps orgs as the system
 * identity.
 */
let database: Database;
let gateway: PgClient;
let owner: PgClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  gateway = new PgClient({ connectionString: database.gatewayUrl });
  await gateway.connect();
  owner = new PgClient({ connectionString: database.ownerUrl });
  await owner.connect();
});
afterAll(async () => {
  await gateway?.end();
  await owner?.end();
  await database?.close();
});

const systemSubmission = (id: string, kind: string, payload: object, lane = 'low') =>
  `insert into gateway_submissions (id, org_id, idempotency_key, workflow_id, run_id, kind, payload, submitter, submitter_kind, risk_score, lane, rules_fired, required_approvals, status)
   values ('${id}', '${ORG}', '${id}', '${id}', 'system', '${kind}', '${JSON.stringify(payload)}', '{"kind":"system"}', 'system', 0, '${lane}', '[]', 0, 'approved')`;

const entryJson = (id: string, submissionId: string, amount = 5_000_000) => ({
  entry: JSON.stringify({
    id,
    org_id: ORG,
    idempotency_key: id,
    entry_date: '2025-03-01',
    memo: 'forged',
    reversal_of: null,
    submission_id: submissionId,
    source_ref: null,
  }),
  lines: JSON.stringify([
    { line_no: 1, account_id: acc('6200'), currency: 'USD', debit: String(amount), credit: '0' },
    { line_no: 2, account_id: acc('1010'), currency: 'USD', debit: '0', credit: String(amount) },
  ]),
});

const systemRefusal = (id: string) => ({
  code: '42501',
  constraint: 'gateway_system_submitter',
  message: `gateway submission ${id}: only the owner's seeding path registers system submissions`,
});

describe('the gateway role and system submissions', () => {
  it('cannot register a system submission and post through it', async () => {
    const before = await countEntries(database.db, ORG);
    const { entry, lines } = entryJson('je-sys-forged', 'sys-forged-post');
    expect(
      await refused(gateway, [
        systemSubmission('sys-forged-post', 'journal.post', { memo: 'forged' }),
        `select gateway_begin_apply('sys-forged-post')`,
        `select ledger_post_entry('${entry}'::jsonb, '${lines}'::jsonb)`,
        `update gateway_submissions set status = 'applied' where id = 'sys-forged-post'`,
      ]),
    ).toMatchObject(systemRefusal('sys-forged-post'));
    expect(await countEntries(database.db, ORG)).toBe(before);
  });

  it('cannot grant itself a role through a system submission', async () => {
    expect(
      await refused(gateway, [
        systemSubmission(
          'sys-forged-grant',
          'membership.grant',
          { userId: CLERK, role: 'owner' },
          'high',
        ),
        `select gateway_begin_apply('sys-forged-grant')`,
        `insert into memberships (org_id, user_id, role) values ('${ORG}', '${CLERK}', 'owner')`,
      ]),
    ).toMatchObject(systemRefusal('sys-forged-grant'));
    expect(await rolesInOrg(database.db, ORG, CLERK)).not.toContain('owner');
  });

  it('cannot open the gateway context for a system submission it did not register', async () => {
    // A system row left unapplied (registered by the owner, or by anyone before migration 0020).
    await owner.query(systemSubmission('sys-left-open', 'journal.post', { memo: 'seed' }));
    const { entry, lines } = entryJson('je-sys-left', 'sys-left-open');
    await gateway.query('begin');
    try {
      const opened = await gateway.query<{ ok: boolean }>(
        `select gateway_begin_apply('sys-left-open') as ok`,
      );
      expect(opened.rows[0]?.ok).toBe(false);
      await expect(
        gateway.query(`select ledger_post_entry('${entry}'::jsonb, '${lines}'::jsonb)`),
      ).rejects.toMatchObject({ code: '42501', constraint: 'gateway_context_required' });
    } finally {
      await gateway.query('rollback');
    }
  });

  it('still seeds through the owner: a system grant is applied and audited as the system', async () => {
    await ensureUser(database.db, {
      id: 'seeded-sam',
      email: 'sam@acme.example',
      displayName: 'Sam',
      orgId: ORG,
      roles: ['viewer'],
    });
    expect(await rolesInOrg(database.db, ORG, 'seeded-sam')).toEqual(['viewer']);
    const grant = await auditTrail(database.db, ORG, 'membership', 'seeded-sam');
    expect(grant.map((r) => r.event)).toEqual(['granted']);
    const submitted = await auditTrail(
      database.db,
      ORG,
      'gateway_submission',
      `gateway:${ORG}:system:grant:seeded-sam:viewer`,
    );
    expect(submitted.map((r) => [r.event, r.actor])).toEqual([
      ['submitted', 'system'],
      ['applied', 'gateway'],
    ]);
  });
});

describe('gateway_begin_apply re-checks the votes against the lane', () => {
  /**
   * A moderate write (a first posting to 6900: one approval) the owner submitted through the
   * gateway, not yet approved — so the clerk is not its submitter and could only vote.
   */
  async function pendingModerate(): Promise<string> {
    const ev = await directGateway(database.db).evaluate(
      journalPost({
        submitter: { kind: 'user', userId: OWNER },
        lines: [
          { accountId: acc('6900'), debit: '50' },
          { accountId: acc('1010'), credit: '50' },
        ],
      }),
    );
    expect(ev.risk.lane).toBe('moderate');
    return ev.submissionId;
  }
  const forgedVote = (submissionId: string, userId: string) =>
    `insert into gateway_plan_votes (submission_id, revision, plan_hash, approver_user_id, decision, decided_at)
     select submission_id, revision, plan_hash, '${userId}', 'approve', now()
       from gateway_plan_revisions where submission_id = '${submissionId}' and revision = 0`;

  it.each([
    ['a user who does not exist', 'mallory'],
    ['an approver of another org', OUTSIDER],
    ['a member without an approving role', CLERK],
  ])('does not count a vote by %s', async (_what, userId) => {
    const id = await pendingModerate();
    await gateway.query(forgedVote(id, userId));
    const opened = await gateway.query<{ ok: boolean }>(
      `select gateway_begin_apply('${id}') as ok`,
    );
    expect(opened.rows[0]?.ok).toBe(false);
  });

  it('requires the lane floor even when a forged revision asks for no approvals', async () => {
    // A low write (no approvals), then a later revision the gateway role registers as high with 0
    // approvals required: the high lane needs two, whatever the row says.
    const ev = await directGateway(database.db).evaluate(journalPost({ amount: '7' }));
    expect(ev.risk.lane).toBe('low');
    await gateway.query(
      `insert into gateway_plan_revisions (submission_id, revision, plan_hash, lane, required_approvals, risk, plan)
       values ('${ev.submissionId}', 1, 'forged-hash', 'high', 0, '{}', '{}')`,
    );
    const opened = await gateway.query<{ ok: boolean }>(
      `select gateway_begin_apply('${ev.submissionId}') as ok`,
    );
    expect(opened.rows[0]?.ok).toBe(false);
  });

  it('refuses posting entries other than the approved plan’s, in the apply of an approved write', async () => {
    const id = await pendingModerate();
    await directGateway(database.db).vote(id, APPROVER_1, 'approve');
    const before = await countEntries(database.db, ORG);
    const { entry, lines } = entryJson('je-not-in-plan', id);
    expect(
      await refused(gateway, [
        `select gateway_begin_apply('${id}')`,
        `select ledger_post_entry('${entry}'::jsonb, '${lines}'::jsonb)`,
        `update gateway_submissions set status = 'applied' where id = '${id}'`,
      ]),
    ).toMatchObject({
      code: '42501',
      constraint: 'gateway_plan_entry',
      message: `posting refused: entry je-not-in-plan is not in the approved plan of submission ${id}`,
    });
    // The planned entry's id with other amounts is refused the same way, by the set-based path too.
    const planned = await gateway.query<{ entry_id: string }>(
      `select plan->'entries'->0->>'entryId' as entry_id from gateway_plan_revisions where submission_id = $1 order by revision desc limit 1`,
      [id],
    );
    const entryId = planned.rows[0]?.entry_id ?? '';
    const batch = entryJson(entryId, id, 51);
    const batchLines = JSON.stringify(
      (JSON.parse(batch.lines) as object[]).map((l) => ({ ...l, entry_id: entryId, org_id: ORG })),
    );
    expect(
      await refused(gateway, [
        `select gateway_begin_apply('${id}')`,
        `select ledger_post_entries('[${batch.entry}]'::jsonb, '${batchLines}'::jsonb)`,
      ]),
    ).toMatchObject({ code: '42501', constraint: 'gateway_plan_entry' });
    expect(await countEntries(database.db, ORG)).toBe(before);
  });

  it('still opens for a real approver of the org', async () => {
    const id = await pendingModerate();
    await directGateway(database.db).vote(id, APPROVER_1, 'approve');
    const applied = await directGateway(database.db).apply(id);
    expect(applied.entryIds).toHaveLength(1);
  });
});
