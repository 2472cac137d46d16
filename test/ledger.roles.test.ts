import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import { refused } from './support/refused';
import type { Database } from '../db/connection';
import { RUNTIME_ROLE } from '../db/connection';
import { getSubmission } from '../db/repositories/gateway';
import { countEntries, periodStatus } from '../db/repositories/ledger';
import {
  APPROVER_1,
  CLERK,
  ORG,
  OTHER_ORG,
  acc,
  directGateway,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * Every way around the gateway, tried straight against PostgreSQL as the role the platform
 * runs as (test/support/database.ts opens the app's pool as countersign_runtime): each is
 * refused by the database itself, and nothing is written.
 */
let database: Database;
let runtime: PgClient;
/** The gateway worker's own role: it may register and vote, and the database's checks still hold it. */
let gateway: PgClient;
let owner: PgClient;
let postedEntry: string;
let pending: string;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  runtime = new PgClient({ connectionString: database.url });
  await runtime.connect();
  gateway = new PgClient({ connectionString: database.gatewayUrl });
  await gateway.connect();
  owner = new PgClient({ connectionString: database.ownerUrl });
  await owner.connect();
  const g = directGateway(database.db);
  const ev = await g.evaluate(journalPost({ amount: '300' }));
  postedEntry = (await g.apply(ev.submissionId)).entryIds[0] as string;
  // A moderate write (first posting to 6900) that nobody has approved yet.
  const big = await g.evaluate(
    journalPost({
      lines: [
        { accountId: acc('6900'), debit: '50' },
        { accountId: acc('1010'), credit: '50' },
      ],
    }),
  );
  expect(big.risk.lane).toBe('moderate');
  pending = big.submissionId;
});
afterAll(async () => {
  await runtime?.end();
  await gateway?.end();
  await owner?.end();
  await database?.close();
});

const permissionDenied = (table: string) => ({
  code: '42501',
  message: `permission denied for table ${table}`,
});
const gatewayOnly = (op: string, table: string, org = ORG) => ({
  code: '42501',
  message: `${op} on ${table} refused: it changes only through the write gateway (no submission of org ${org} is being applied in this transaction)`,
});

describe('the runtime role', () => {
  it('is who the platform connects as', async () => {
    const r = await database.pool.query<{ u: string }>('select current_user as u');
    expect(r.rows[0]?.u).toBe(RUNTIME_ROLE);
  });

  it('cannot post a balanced entry by INSERT, with or without a submission', async () => {
    const before = await countEntries(database.db, ORG);
    expect(
      await refused(runtime, [
        `insert into journal_entries (id, org_id, idempotency_key, entry_date, memo, submission_id) values ('je-forged', '${ORG}', 'forged', '2025-03-01', 'forged', '${pending}')`,
      ]),
    ).toMatchObject(permissionDenied('journal_entries'));
    expect(
      await refused(runtime, [
        `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('${postedEntry}', '${ORG}', 9, '${acc('6200')}', 'USD', 1, 0)`,
      ]),
    ).toMatchObject(permissionDenied('journal_lines'));
    expect(await countEntries(database.db, ORG)).toBe(before);
  });

  it('cannot call the posting function (nor can the gateway role outside the apply of an approved submission)', async () => {
    const entry = JSON.stringify({
      id: 'je-forged-2',
      org_id: ORG,
      idempotency_key: 'forged-2',
      entry_date: '2025-03-01',
      memo: 'forged',
      reversal_of: null,
      submission_id: pending,
      source_ref: null,
    });
    const lines = JSON.stringify([
      { line_no: 1, account_id: acc('6200'), currency: 'USD', debit: '5', credit: '0' },
      { line_no: 2, account_id: acc('1010'), currency: 'USD', debit: '0', credit: '5' },
    ]);
    expect(
      await refused(runtime, [`select ledger_post_entry('${entry}'::jsonb, '${lines}'::jsonb)`]),
    ).toMatchObject({ code: '42501', message: 'permission denied for function ledger_post_entry' });
    expect(
      await refused(gateway, [`select ledger_post_entry('${entry}'::jsonb, '${lines}'::jsonb)`]),
    ).toMatchObject({
      code: '42501',
      message: `posting refused: submission ${pending} of org ${ORG} is not being applied in this transaction`,
    });
    // Asking for the context of a submission without its approval opens nothing either.
    await gateway.query('begin');
    const opened = await gateway.query<{ ok: boolean }>(
      `select gateway_begin_apply('${pending}') as ok`,
    );
    expect(opened.rows[0]?.ok).toBe(false);
    await expect(
      gateway.query(`select ledger_post_entry('${entry}'::jsonb, '${lines}'::jsonb)`),
    ).rejects.toMatchObject({ code: '42501' });
    await gateway.query('rollback');
  });

  it('cannot fake the gateway context with a session setting', async () => {
    expect(
      await refused(runtime, [
        `select set_config('countersign.gateway_submission', '${pending}', true)`,
        `insert into accounts (id, org_id, code, name, type) values ('acc-forged', '${ORG}', '9999', 'Forged', 'asset')`,
      ]),
    ).toMatchObject(gatewayOnly('INSERT', 'accounts'));
    expect(
      await refused(runtime, [
        `insert into gateway_apply_context (txid, submission_id, org_id) values (txid_current(), '${pending}', '${ORG}')`,
      ]),
    ).toMatchObject(permissionDenied('gateway_apply_context'));
  });

  it('cannot reopen or close a period by UPDATE or INSERT', async () => {
    expect(
      await refused(runtime, [
        `update fiscal_periods set status = 'open' where org_id = '${ORG}' and period = '2025-03'`,
      ]),
    ).toMatchObject(permissionDenied('fiscal_periods'));
    expect(
      await refused(runtime, [
        `insert into fiscal_periods (org_id, period, status) values ('${ORG}', '2024-01', 'closed')`,
      ]),
    ).toMatchObject(permissionDenied('fiscal_periods'));
    expect(
      await refused(runtime, [
        `select ledger_set_period_status('${ORG}', '2024-01', 'closed', '${pending}')`,
      ]),
    ).toMatchObject({ code: '42501' });
    expect(await periodStatus(database.db, ORG, '2024-01')).toBe('open');
  });

  it('cannot change the chart, grant a role or change risk settings by direct SQL', async () => {
    expect(
      await refused(runtime, [
        `insert into accounts (id, org_id, code, name, type) values ('acc-x', '${ORG}', '9998', 'X', 'asset')`,
      ]),
    ).toMatchObject(gatewayOnly('INSERT', 'accounts'));
    expect(
      await refused(runtime, [
        `update accounts set system_role = null where org_id = '${ORG}' and code = '2000'`,
      ]),
    ).toMatchObject(gatewayOnly('UPDATE', 'accounts'));
    expect(
      await refused(runtime, [
        `insert into memberships (org_id, user_id, role) values ('${ORG}', '${CLERK}', 'owner')`,
      ]),
    ).toMatchObject(gatewayOnly('INSERT', 'memberships'));
    expect(
      await refused(runtime, [
        `delete from memberships where org_id = '${ORG}' and user_id = '${APPROVER_1}'`,
      ]),
    ).toMatchObject(gatewayOnly('DELETE', 'memberships'));
    expect(
      await refused(runtime, [
        `insert into gateway_risk_settings (org_id, moderate_amount_minor, high_amount_minor, high_lane_approvals) values ('${OTHER_ORG}', 999999999, 999999999, 2)`,
      ]),
    ).toMatchObject(gatewayOnly('INSERT', 'gateway_risk_settings', OTHER_ORG));
    expect(
      await refused(runtime, [
        `insert into vendors (id, org_id, name) values ('ven-forged', '${ORG}', 'Forged Ltd')`,
      ]),
    ).toMatchObject(gatewayOnly('INSERT', 'vendors'));
  });

  it('cannot UPDATE or DELETE the audit log, the ledger, votes or review decisions', async () => {
    for (const [table, column, where] of [
      ['audit_log', 'payload', 'true'],
      ['journal_entries', 'memo', `id = '${postedEntry}'`],
      ['journal_lines', 'debit', `entry_id = '${postedEntry}'`],
      ['gateway_approvals', 'decision', 'true'],
      ['gateway_effects', 'action', 'true'],
      ['review_decisions', 'decision', 'true'],
      ['gateway_plan_revisions', 'plan_hash', 'true'],
      ['gateway_plan_votes', 'decision', 'true'],
    ] as const) {
      expect(
        await refused(runtime, [`update ${table} set ${column} = ${column} where ${where}`]),
      ).toMatchObject(permissionDenied(table));
      expect(await refused(runtime, [`delete from ${table} where ${where}`])).toMatchObject(
        permissionDenied(table),
      );
    }
  });

  it("writes no vote into gateway_approvals: the database copies the decided revision's votes there", async () => {
    expect(
      await refused(runtime, [
        `insert into gateway_approvals (submission_id, approver_user_id, decision, decided_at) values ('${postedEntry}', 'u', 'approve', now())`,
      ]),
    ).toMatchObject(permissionDenied('gateway_approvals'));
  });

  it('issues and revokes keys but cannot rewrite or delete one, nor delete an agent record', async () => {
    expect(await refused(runtime, ['update api_keys set secret_hash = secret_hash'])).toMatchObject(
      permissionDenied('api_keys'),
    );
    expect(await refused(runtime, ['update api_keys set expires_at = expires_at'])).toMatchObject(
      permissionDenied('api_keys'),
    );
    expect(await refused(runtime, ['delete from api_keys'])).toMatchObject(
      permissionDenied('api_keys'),
    );
    expect(await refused(runtime, ['delete from agent_identities'])).toMatchObject(
      permissionDenied('agent_identities'),
    );
    // Revocation is the one change a key takes.
    await runtime.query('update api_keys set revoked_at = revoked_at where false');
  });

  it('cannot run DDL: no ALTER TABLE, no disabling a trigger, no new tables', async () => {
    expect(
      await refused(runtime, ['alter table audit_log disable trigger audit_log_no_update']),
    ).toMatchObject({ code: '42501', message: 'must be owner of table audit_log' });
    expect(
      await refused(runtime, [
        'alter table journal_entries alter column submission_id drop not null',
      ]),
    ).toMatchObject({ code: '42501', message: 'must be owner of table journal_entries' });
    expect(await refused(runtime, ['drop trigger audit_log_chain on audit_log'])).toMatchObject({
      code: '42501',
      message: 'must be owner of relation audit_log',
    });
    expect(await refused(runtime, ['create table shadow_ledger (id text)'])).toMatchObject({
      code: '42501',
      message: 'permission denied for schema public',
    });
  });

  it('cannot touch a submission row; the gateway role cannot lower its approvals, forge an unapproved lane, or mark it applied', async () => {
    expect(
      await refused(runtime, [
        `update gateway_submissions set required_approvals = 0, lane = 'low' where id = '${pending}'`,
      ]),
    ).toMatchObject(permissionDenied('gateway_submissions'));
    expect(
      await refused(gateway, [
        `update gateway_submissions set required_approvals = 0, lane = 'low' where id = '${pending}'`,
      ]),
    ).toMatchObject({
      code: '42501',
      message: `gateway submission ${pending}: its lane and required approvals can only rise`,
    });
    expect(
      await refused(gateway, [
        `update gateway_submissions set payload = '{}'::jsonb where id = '${pending}'`,
      ]),
    ).toMatchObject({
      code: '42501',
      message: `gateway submission ${pending}: what was submitted, and by whom, cannot change`,
    });
    expect(
      await refused(gateway, [
        `update gateway_submissions set status = 'applied' where id = '${pending}'`,
      ]),
    ).toMatchObject({
      code: '42501',
      message: `gateway submission ${pending} can be marked applied only by its own apply`,
    });
    expect(
      await refused(gateway, [
        `insert into gateway_submissions (id, org_id, idempotency_key, workflow_id, run_id, kind, payload, submitter, submitter_kind, submitter_user_id, risk_score, lane, rules_fired, required_approvals, status)
         values ('forged', '${ORG}', 'forged', 'forged', 'forged', 'journal.post', '{}', '{}', 'user', '${CLERK}', 90, 'high', '[]', 0, 'approved')`,
      ]),
    ).toMatchObject({ code: '23514' });
    expect(
      await refused(gateway, [
        `insert into gateway_submissions (id, org_id, idempotency_key, workflow_id, run_id, kind, payload, submitter, submitter_kind, submitter_user_id, risk_score, lane, rules_fired, required_approvals, status)
         values ('forged-2', '${ORG}', 'forged-2', 'forged-2', 'forged-2', 'journal.post', '{}', '{}', 'user', '${CLERK}', 0, 'low', '[]', 0, 'applied')`,
      ]),
    ).toMatchObject({
      code: '42501',
      message: 'gateway submission forged-2 cannot be registered as applied',
    });
    expect((await getSubmission(database.db, pending))?.status).toBe('awaiting_approval');
  });

  it('posted entries reference an applied submission, even for the owner', async () => {
    expect(
      await refused(owner, [
        `insert into journal_entries (id, org_id, idempotency_key, entry_date, memo) values ('je-owner-1', '${ORG}', 'owner-1', '2025-03-01', 'no submission')`,
      ]),
    ).toMatchObject({ code: '23502' });
    const err = await refused(owner, [
      `insert into journal_entries (id, org_id, idempotency_key, entry_date, memo, submission_id) values ('je-owner-2', '${ORG}', 'owner-2', '2025-03-01', 'unapproved', '${pending}')`,
      `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('je-owner-2', '${ORG}', 1, '${acc('6200')}', 'USD', 5, 0), ('je-owner-2', '${ORG}', 2, '${acc('1010')}', 'USD', 0, 5)`,
      `update journal_entries set status = 'posted', posted_at = now() where id = 'je-owner-2'`,
    ]);
    expect(err).toMatchObject({
      code: '23514',
      message: `journal entry je-owner-2 is not posted by an applied gateway submission of org ${ORG}`,
    });
  });

  it('the gateway itself still applies the pending write once it is approved', async () => {
    const g = directGateway(database.db);
    await g.vote(pending, APPROVER_1, 'approve');
    const applied = await g.apply(pending);
    expect(applied.entryIds).toHaveLength(1);
    expect((await getSubmission(database.db, pending))?.status).toBe('applied');
  });
});
