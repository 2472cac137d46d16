import { Client as PgClient } from 'pg';
import { ApplicationFailure } from '@temporalio/common';
import { createTestDatabase } from './support/database';
import { refused } from './support/refused';
import type { Database } from '../db/connection';
import {
  countEntries,
  trialBalance,
  accountBalance,
  listAccounts,
} from '../db/repositories/ledger';
import { DEFAULT_CHART } from '../db/ledger/default-chart';
import {
  ORG,
  OTHER_ORG,
  APPROVER_1,
  acc,
  directGateway,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
  key,
} from './gateway.fixtures';

let database: Database;

/** An applied submission per org that the raw entries below name (a posted entry needs one). */
const RAW_SUBMISSION: Record<string, string> = {
  [ORG]: `raw-applied-${ORG}`,
  [OTHER_ORG]: `raw-applied-${OTHER_ORG}`,
};
const approvedSubmissionSql = (org: string) =>
  `insert into gateway_submissions (id, org_id, idempotency_key, workflow_id, run_id, kind, payload, submitter, submitter_kind, submitter_user_id, risk_score, lane, rules_fired, required_approvals, status)
   values ('${RAW_SUBMISSION[org]}', '${org}', 'raw', 'raw', 'raw', 'journal.post', '{}', '{}', 'user', 'olga', 0, 'low', '[]', 0, 'approved')`;
let pg: PgClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  // These checks play someone who bypasses the code with the owner's access: the runtime role
  // cannot even INSERT into the ledger (test/ledger.roles.test.ts), so the triggers are what is
  // left between an owner session and unbalanced or rewritten books.
  pg = new PgClient({ connectionString: database.ownerUrl });
  await pg.connect();
  for (const org of [ORG, OTHER_ORG]) {
    await pg.query('begin');
    await pg.query(approvedSubmissionSql(org));
    await pg.query(`select gateway_begin_apply('${RAW_SUBMISSION[org]}')`);
    await pg.query(
      `update gateway_submissions set status = 'applied' where id = '${RAW_SUBMISSION[org]}'`,
    );
    await pg.query('commit');
  }
});
afterAll(async () => {
  await pg?.end();
  await database?.close();
});

const sqlError = (statements: string[]) => refused(pg, statements);

describe('ledger invariants enforced by PostgreSQL', () => {
  it('seeds the default chart per org', async () => {
    const accounts = await listAccounts(database.db, OTHER_ORG);
    expect(accounts.map((a) => a.code)).toEqual(DEFAULT_CHART.map((a) => a.code));
    expect(accounts.find((a) => a.systemRole === 'accounts_payable')?.id).toBe(
      acc('2000', OTHER_ORG),
    );
  });

  it('refuses an unbalanced entry at commit even when code is bypassed', async () => {
    const err = await sqlError([
      `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo) values ('${RAW_SUBMISSION[ORG]}', 'je-raw-1', '${ORG}', 'raw-1', '2025-03-01', 'raw')`,
      `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('je-raw-1', '${ORG}', 1, '${acc('6200')}', 'USD', 100, 0), ('je-raw-1', '${ORG}', 2, '${acc('1010')}', 'USD', 0, 90)`,
      `update journal_entries set status = 'posted', posted_at = now() where id = 'je-raw-1'`,
    ]);
    expect(err.code).toBe('23514');
    expect(err.message).toBe(
      'journal entry je-raw-1 does not balance in USD: debits 100, credits 90',
    );
    expect(
      (await pg.query(`select count(*)::int as n from journal_entries where id = 'je-raw-1'`))
        .rows[0].n,
    ).toBe(0);
  });

  it('balances per currency: equal totals across two currencies are not enough', async () => {
    const err = await sqlError([
      `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo) values ('${RAW_SUBMISSION[ORG]}', 'je-raw-2', '${ORG}', 'raw-2', '2025-03-01', 'raw')`,
      `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('je-raw-2', '${ORG}', 1, '${acc('6200')}', 'USD', 100, 0), ('je-raw-2', '${ORG}', 2, '${acc('1010')}', 'EUR', 0, 100)`,
      `update journal_entries set status = 'posted', posted_at = now() where id = 'je-raw-2'`,
    ]);
    expect(err.message).toBe(
      'journal entry je-raw-2 does not balance in EUR: debits 0, credits 100',
    );
  });

  it('refuses a line with both or neither side, or a negative amount', async () => {
    const base = `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo) values ('${RAW_SUBMISSION[ORG]}', 'je-raw-3', '${ORG}', 'raw-3', '2025-03-01', 'raw')`;
    const err = await sqlError([
      base,
      `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('je-raw-3', '${ORG}', 1, '${acc('6200')}', 'USD', -5, 0)`,
    ]);
    expect(err.code).toBe('23514');
    expect(err.message).toMatch(/journal_lines_one_side/);
  });

  it('refuses a line on another org’s account', async () => {
    const err = await sqlError([
      `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo) values ('${RAW_SUBMISSION[ORG]}', 'je-raw-4', '${ORG}', 'raw-4', '2025-03-01', 'raw')`,
      `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('je-raw-4', '${ORG}', 1, '${acc('6200', OTHER_ORG)}', 'USD', 5, 0)`,
    ]);
    expect(err.code).toBe('23503');
    expect(err.message).toMatch(/journal_lines_account_same_org/);
  });

  describe('a posted entry', () => {
    let entryId: string;
    beforeAll(async () => {
      const g = directGateway(database.db);
      const ev = await g.evaluate(journalPost({ amount: '700' }));
      entryId = (await g.apply(ev.submissionId)).entryIds[0] as string;
    });

    it('cannot be updated', async () => {
      const err = await sqlError([
        `update journal_entries set memo = 'changed' where id = '${entryId}'`,
      ]);
      expect(err.code).toBe('23000');
      expect(err.message).toBe(`journal entry ${entryId} is posted and immutable: UPDATE refused`);
    });

    it('cannot be deleted, nor its lines changed, nor lines added', async () => {
      expect(
        (await sqlError([`delete from journal_entries where id = '${entryId}'`])).message,
      ).toBe(`journal entry ${entryId} is posted and immutable: DELETE refused`);
      expect(
        (
          await sqlError([
            `update journal_lines set debit = 1 where entry_id = '${entryId}' and debit > 0`,
          ])
        ).message,
      ).toBe(`journal entry ${entryId} is posted: its lines are immutable (UPDATE refused)`);
      expect(
        (await sqlError([`delete from journal_lines where entry_id = '${entryId}'`])).message,
      ).toBe(`journal entry ${entryId} is posted: its lines are immutable (DELETE refused)`);
      expect(
        (
          await sqlError([
            `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('${entryId}', '${ORG}', 9, '${acc('6200')}', 'USD', 1, 0)`,
          ])
        ).message,
      ).toBe(`journal entry ${entryId} is posted: its lines are immutable (INSERT refused)`);
      expect((await sqlError(['truncate journal_lines cascade'])).message).toMatch(
        /TRUNCATE refused/,
      );
    });

    it('is reversed at most once, and the reversal must mirror it', async () => {
      const forged = await sqlError([
        `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo, reversal_of) values ('${RAW_SUBMISSION[ORG]}', 'je-raw-5', '${ORG}', 'raw-5', '2025-03-20', 'bad reversal', '${entryId}')`,
        `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('je-raw-5', '${ORG}', 1, '${acc('6200')}', 'USD', 0, 1), ('je-raw-5', '${ORG}', 2, '${acc('1010')}', 'USD', 1, 0)`,
        `update journal_entries set status = 'posted', posted_at = now() where id = 'je-raw-5'`,
      ]);
      expect(forged.message).toBe(
        `journal entry je-raw-5 does not mirror the entry ${entryId} it reverses`,
      );
      const g = directGateway(database.db);
      const rev = await g.evaluate({
        orgId: ORG,
        idempotencyKey: key('rev'),
        submitter: { kind: 'user', userId: 'bob' },
        kind: 'journal.reverse',
        payload: { entryId, reversalDate: '2025-03-20', reason: 'duplicate receipt' },
      });
      await g.vote(rev.submissionId, APPROVER_1, 'approve');
      await g.apply(rev.submissionId);
      const twice = await sqlError([
        `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo, reversal_of) values ('${RAW_SUBMISSION[ORG]}', 'je-raw-6', '${ORG}', 'raw-6', '2025-03-20', 'second reversal', '${entryId}')`,
      ]);
      expect(twice.code).toBe('23505');
      expect(twice.message).toMatch(/journal_entries_one_reversal/);
      const again = await g
        .evaluate({
          orgId: ORG,
          idempotencyKey: key('rev'),
          submitter: { kind: 'user', userId: 'bob' },
          kind: 'journal.reverse',
          payload: { entryId, reversalDate: '2025-03-21', reason: 'again' },
        })
        .catch((e: unknown) => e);
      expect(again).toBeInstanceOf(ApplicationFailure);
      expect((again as ApplicationFailure).type).toBe('AlreadyReversed');
    });
  });

  it('refuses a second entry under the same idempotency key', async () => {
    const stmt = (id: string) =>
      `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo) values ('${RAW_SUBMISSION[ORG]}', '${id}', '${ORG}', 'same-key', '2025-03-01', 'x')`;
    await pg.query(stmt('je-raw-7'));
    const err = await sqlError([stmt('je-raw-8')]);
    expect(err.code).toBe('23505');
    expect(err.message).toMatch(/journal_entries_org_idempotency/);
    await pg.query(`delete from journal_entries where id = 'je-raw-7'`); // a draft may be discarded
  });

  it('refuses postings into a closed period, from any path, until it is reopened', async () => {
    await pg.query(
      `insert into fiscal_periods (org_id, period, status) values ('${ORG}', '2024-11', 'closed')`,
    );
    const err = await sqlError([
      `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo) values ('${RAW_SUBMISSION[ORG]}', 'je-raw-9', '${ORG}', 'raw-9', '2024-11-30', 'late')`,
      `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('je-raw-9', '${ORG}', 1, '${acc('6200')}', 'USD', 5, 0), ('je-raw-9', '${ORG}', 2, '${acc('1010')}', 'USD', 0, 5)`,
      `update journal_entries set status = 'posted', posted_at = now() where id = 'je-raw-9'`,
    ]);
    expect(err.code).toBe('55000');
    expect(err.message).toBe(`period 2024-11 is closed for org ${ORG}: posting refused`);
    expect(
      (
        await sqlError([
          `delete from fiscal_periods where org_id = '${ORG}' and period = '2024-11'`,
        ])
      ).message,
    ).toMatch(/is closed: DELETE refused/);
  });

  it('trial balance and account balances come from posted entries only, netting to zero per currency', async () => {
    const tb = await trialBalance(database.db, ORG);
    expect(tb.totals.every((t) => t.net === '0')).toBe(true);
    const usd = tb.totals.find((t) => t.currency === 'USD');
    expect(usd).toBeDefined();
    const supplies = await accountBalance(database.db, ORG, acc('6200'));
    // warm-up 1, posted 700, reversed 700
    expect(supplies).toEqual([{ currency: 'USD', debits: '701', credits: '700', balance: '1' }]);
    expect(await countEntries(database.db, ORG)).toBe(3);
  });
  it('serializes a posting and a period close in both lock orders', async () => {
    const other = new PgClient({ connectionString: database.ownerUrl });
    await other.connect();
    const post = (id: string) => [
      `insert into journal_entries (submission_id, id, org_id, idempotency_key, entry_date, memo) values ('${RAW_SUBMISSION[OTHER_ORG]}', '${id}', '${OTHER_ORG}', '${id}', '2025-07-10', 'race')`,
      `insert into journal_lines (entry_id, org_id, line_no, account_id, currency, debit, credit) values ('${id}', '${OTHER_ORG}', 1, '${acc('6200', OTHER_ORG)}', 'USD', 5, 0), ('${id}', '${OTHER_ORG}', 2, '${acc('1010', OTHER_ORG)}', 'USD', 0, 5)`,
      `update journal_entries set status = 'posted', posted_at = now() where id = '${id}'`,
    ];
    // As period.close does it: make sure the row exists (waiting on a posting that is
    // creating it), then close it.
    const close = `with ensure as (insert into fiscal_periods (org_id, period, status) values ('${OTHER_ORG}', '2025-07', 'open') on conflict do nothing)
      update fiscal_periods set status = 'closed' where org_id = '${OTHER_ORG}' and period = '2025-07'`;
    try {
      // 1. The posting holds the period row first: the close waits for it, then closes.
      await pg.query('begin');
      for (const q of post('je-race-1')) await pg.query(q);
      await other.query('begin');
      const closing = other.query(close);
      const blocked = await Promise.race([
        closing.then(() => false),
        new Promise((r) => setTimeout(() => r(true), 300)),
      ]);
      expect(blocked).toBe(true);
      await pg.query('commit');
      await closing;
      await other.query('commit');
      // 2. The close holds it first: a posting waits, then is refused, and writes nothing.
      await other.query('begin');
      await other.query(
        `update fiscal_periods set status = 'open' where org_id = '${OTHER_ORG}' and period = '2025-07'`,
      );
      await other.query('commit');
      await other.query('begin');
      await other.query(close);
      await pg.query('begin');
      const [insertEntry, insertLines, postIt] = post('je-race-2');
      await pg.query(insertEntry as string);
      await pg.query(insertLines as string);
      const posting = pg.query(postIt as string).then(
        () => null,
        (e: { message: string }) => e.message,
      );
      expect(
        await Promise.race([
          posting.then(() => 'done'),
          new Promise((r) => setTimeout(() => r('waiting'), 300)),
        ]),
      ).toBe('waiting');
      await other.query('commit');
      expect(await posting).toBe(`period 2025-07 is closed for org ${OTHER_ORG}: posting refused`);
      await pg.query('rollback');
      const rows = await pg.query(
        `select id from journal_entries where id in ('je-race-1', 'je-race-2') order by id`,
      );
      expect(rows.rows).toEqual([{ id: 'je-race-1' }]);
    } finally {
      await other.end();
    }
  });
});
