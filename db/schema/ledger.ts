import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  timestamp,
  bigint,
  bigserial,
  integer,
  date,
  boolean,
  unique,
  index,
  check,
  foreignKey,
  primaryKey,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { gatewaySubmissions } from './gateway';

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/**
 * Chart of accounts, per org. Accounts carry no currency: each journal line does, so one
 * account can hold balances in several currencies (and each balances on its own).
 */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    type: text('type').$type<AccountType>().notNull(),
    /** A system role the gateway looks accounts up by (accounts_payable, input_tax, ...). */
    systemRole: text('system_role'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Ids are the org's own: another org may use the same one.
    primaryKey({ name: 'accounts_org_pk', columns: [t.orgId, t.id] }),
    unique('accounts_org_code').on(t.orgId, t.code),
    // Target of the (org_id, account_id) foreign keys: a line can only use its own org's accounts.
    unique('accounts_org_id').on(t.orgId, t.id),
    uniqueIndex('accounts_org_system_role')
      .on(t.orgId, t.systemRole)
      .where(sql`${t.systemRole} is not null`),
    check(
      'accounts_type_known',
      sql`${t.type} in ('asset','liability','equity','revenue','expense')`,
    ),
  ],
);

/**
 * Accounting periods (calendar months, 'YYYY-MM'). A month without a row is open; the
 * posting trigger creates the row on first use so that close and post serialize on it.
 */
export const fiscalPeriods = pgTable(
  'fiscal_periods',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    period: text('period').notNull(),
    status: text('status').$type<'open' | 'closed'>().notNull().default('open'),
    changedAt: timestamp('changed_at', { withTimezone: true }).notNull().defaultNow(),
    changedBySubmission: text('changed_by_submission').references(() => gatewaySubmissions.id),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.period] }),
    check('fiscal_periods_status_known', sql`${t.status} in ('open','closed')`),
    check('fiscal_periods_period_format', sql`${t.period} ~ '^[0-9]{4}-(0[1-9]|1[0-2])$'`),
  ],
);

export const ENTRY_STATUSES = ['draft', 'posted'] as const;

/**
 * A journal entry. Written as a draft, its lines added, then flipped to posted in the same
 * transaction: from then on triggers refuse any change, and a deferred constraint trigger
 * checks at commit that it balances per currency (migration 0003).
 */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    /** One posting per key per org, ever: the gateway uses the submission id. */
    idempotencyKey: text('idempotency_key').notNull(),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    memo: text('memo').notNull(),
    status: text('status').$type<(typeof ENTRY_STATUSES)[number]>().notNull().default('draft'),
    /** A correction is a reversal entry pointing at the original; at most one per original. */
    reversalOf: text('reversal_of').references((): AnyPgColumn => journalEntries.id),
    /** Every entry is posted by an applied gateway submission (checked at commit, 0006). */
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    sourceRef: text('source_ref'),
    postedAt: timestamp('posted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('journal_entries_org_idempotency').on(t.orgId, t.idempotencyKey),
    unique('journal_entries_org_id').on(t.orgId, t.id),
    unique('journal_entries_one_reversal').on(t.reversalOf),
    foreignKey({
      name: 'journal_entries_reversal_same_org',
      columns: [t.orgId, t.reversalOf],
      foreignColumns: [t.orgId, t.id],
    }),
    check('journal_entries_status_known', sql`${t.status} in ('draft','posted')`),
    check('journal_entries_posted_at', sql`(${t.status} = 'posted') = (${t.postedAt} is not null)`),
    check(
      'journal_entries_not_self_reversal',
      sql`${t.reversalOf} is null or ${t.reversalOf} <> ${t.id}`,
    ),
    index('journal_entries_org_date').on(t.orgId, t.entryDate),
  ],
);

/** One side of an entry: exactly one of debit and credit is positive, in integer minor units. */
export const journalLines = pgTable(
  'journal_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entryId: text('entry_id').notNull(),
    orgId: text('org_id').notNull(),
    lineNo: integer('line_no').notNull(),
    accountId: text('account_id').notNull(),
    currency: text('currency').notNull(),
    debit: bigint('debit', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    credit: bigint('credit', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    memo: text('memo'),
  },
  (t) => [
    unique('journal_lines_entry_line').on(t.entryId, t.lineNo),
    foreignKey({
      name: 'journal_lines_entry_same_org',
      columns: [t.orgId, t.entryId],
      foreignColumns: [journalEntries.orgId, journalEntries.id],
    }),
    foreignKey({
      name: 'journal_lines_account_same_org',
      columns: [t.orgId, t.accountId],
      foreignColumns: [accounts.orgId, accounts.id],
    }),
    check('journal_lines_currency_iso', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check(
      'journal_lines_one_side',
      sql`${t.debit} >= 0 and ${t.credit} >= 0 and ((${t.debit} = 0) <> (${t.credit} = 0))`,
    ),
    index('journal_lines_org_account').on(t.orgId, t.accountId),
  ],
);
