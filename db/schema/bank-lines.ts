import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';

export const BANK_LINE_STATUSES = ['auto', 'hybrid', 'asked', 'human'] as const;
export type BankLineStatus = (typeof BANK_LINE_STATUSES)[number];

/**
 * Every imported bank/card line the bank transaction processor has seen, per org: posted on its
 * own classification (`auto`), posted because a model agreed with a thin pattern (`hybrid`),
 * waiting in a human request (`asked`), or resolved by a person (`human`). The rows resolved by people are the agent's durable memory: a description pattern
 * (merchant, card) is memorized only while every line it covered was resolved the same way.
 */
export const bankLineClassifications = pgTable(
  'bank_line_classifications',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    /** The line's stable key (its journal entry key): a line is classified once. */
    lineKey: text('line_key').notNull(),
    statementRef: text('statement_ref').notNull(),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    /** Signed minor units: positive is spending (debit the expense account). */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    merchant: text('merchant').notNull(),
    merchantKey: text('merchant_key').notNull(),
    /** The card's last four digits ('' when the feed has none). */
    cardKey: text('card_key').notNull(),
    taxCode: text('tax_code'),
    status: text('status', { enum: BANK_LINE_STATUSES }).notNull(),
    accountId: text('account_id'),
    /** The account the line is credited to when not the agent's role account (a statement's bank account). */
    creditAccountId: text('credit_account_id'),
    requestId: text('request_id'),
    runId: text('run_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.lineKey] }),
    index('bank_line_classifications_pattern').on(t.orgId, t.merchantKey, t.status),
    index('bank_line_classifications_request').on(t.orgId, t.requestId),
    check(
      'bank_line_classifications_resolved',
      sql`${t.status} = 'asked' or ${t.accountId} is not null`,
    ),
  ],
);
export type BankLineClassification = typeof bankLineClassifications.$inferSelect;
