import { sql } from 'drizzle-orm';
import {
  pgTable,
  text,
  timestamp,
  bigint,
  integer,
  date,
  unique,
  check,
  foreignKey,
  index,
  uniqueIndex,
  primaryKey,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations';
import { accounts, journalEntries } from './ledger';
import { gatewaySubmissions } from './gateway';

/**
 * Master data. Every row is created or changed only by an applied gateway submission, whose
 * id each row keeps (created_by / updated_by) for attribution.
 */
export const paymentTerms = pgTable(
  'payment_terms',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    dueDays: integer('due_days').notNull(),
    discountDays: integer('discount_days'),
    discountBasisPoints: integer('discount_basis_points'),
    createdBySubmission: text('created_by_submission').references(() => gatewaySubmissions.id),
  },
  (t) => [
    // Ids are the org's own: another org may use the same one.
    primaryKey({ name: 'payment_terms_org_pk', columns: [t.orgId, t.id] }),
    unique('payment_terms_org_code').on(t.orgId, t.code),
    unique('payment_terms_org_id').on(t.orgId, t.id),
    check('payment_terms_due_days', sql`${t.dueDays} >= 0`),
  ],
);

/** VAT / sales-tax rates in basis points, valid from effective_from until effective_to (exclusive). */
export const taxCodes = pgTable(
  'tax_codes',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    code: text('code').notNull(),
    name: text('name').notNull(),
    kind: text('kind').$type<'vat' | 'sales_tax'>().notNull(),
    rateBasisPoints: integer('rate_basis_points').notNull(),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    effectiveTo: date('effective_to', { mode: 'string' }),
    /** Where the tax on a purchase lands (input VAT / sales tax receivable). */
    accountId: text('account_id').notNull(),
    createdBySubmission: text('created_by_submission').references(() => gatewaySubmissions.id),
  },
  (t) => [
    unique('tax_codes_org_code_from').on(t.orgId, t.code, t.effectiveFrom),
    unique('tax_codes_org_id').on(t.orgId, t.id),
    foreignKey({
      name: 'tax_codes_account_same_org',
      columns: [t.orgId, t.accountId],
      foreignColumns: [accounts.orgId, accounts.id],
    }),
    check('tax_codes_kind_known', sql`${t.kind} in ('vat','sales_tax')`),
    check('tax_codes_rate_range', sql`${t.rateBasisPoints} between 0 and 10000`),
    check(
      'tax_codes_dates_ordered',
      sql`${t.effectiveTo} is null or ${t.effectiveTo} > ${t.effectiveFrom}`,
    ),
  ],
);

export const vendors = pgTable(
  'vendors',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    taxId: text('tax_id'),
    paymentTermsId: text('payment_terms_id'),
    defaultExpenseAccountId: text('default_expense_account_id'),
    /** Fields holding a reserved placeholder (e.g. an `.invalid` email) until a person fills them. */
    placeholderFields: text('placeholder_fields')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status').$type<'active' | 'inactive'>().notNull().default('active'),
    /** Optimistic concurrency: vendor.update names the version it changes. */
    version: integer('version').notNull().default(1),
    createdBySubmission: text('created_by_submission').references(() => gatewaySubmissions.id),
    updatedBySubmission: text('updated_by_submission').references(() => gatewaySubmissions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Ids are the org's own: another org may use the same one.
    primaryKey({ name: 'vendors_org_pk', columns: [t.orgId, t.id] }),
    unique('vendors_org_id').on(t.orgId, t.id),
    foreignKey({
      name: 'vendors_terms_same_org',
      columns: [t.orgId, t.paymentTermsId],
      foreignColumns: [paymentTerms.orgId, paymentTerms.id],
    }),
    foreignKey({
      name: 'vendors_expense_account_same_org',
      columns: [t.orgId, t.defaultExpenseAccountId],
      foreignColumns: [accounts.orgId, accounts.id],
    }),
    check('vendors_status_known', sql`${t.status} in ('active','inactive')`),
  ],
);

export const customers = pgTable(
  'customers',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    taxId: text('tax_id'),
    paymentTermsId: text('payment_terms_id'),
    /** Fields holding a reserved placeholder (e.g. an `.invalid` email) until a person fills them. */
    placeholderFields: text('placeholder_fields')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdBySubmission: text('created_by_submission').references(() => gatewaySubmissions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Ids are the org's own: another org may use the same one.
    primaryKey({ name: 'customers_org_pk', columns: [t.orgId, t.id] }),
    unique('customers_org_id').on(t.orgId, t.id),
    foreignKey({
      name: 'customers_terms_same_org',
      columns: [t.orgId, t.paymentTermsId],
      foreignColumns: [paymentTerms.orgId, paymentTerms.id],
    }),
  ],
);

/**
 * Bank details. Owner is the org itself (its own accounts, mapped to a ledger cash account)
 * or a vendor (payee details). Payee details are never edited in place: a change retires the
 * old row and inserts a new one, so "when did the bank details change" stays answerable.
 */
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    ownerType: text('owner_type').$type<'org' | 'vendor'>().notNull(),
    vendorId: text('vendor_id'),
    holderName: text('holder_name').notNull(),
    iban: text('iban'),
    accountNumber: text('account_number'),
    routingCode: text('routing_code'),
    bic: text('bic'),
    currency: text('currency').notNull(),
    ledgerAccountId: text('ledger_account_id'),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
    createdBySubmission: text('created_by_submission').references(() => gatewaySubmissions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Ids are the org's own: another org may use the same one.
    primaryKey({ name: 'bank_accounts_org_pk', columns: [t.orgId, t.id] }),
    unique('bank_accounts_org_id').on(t.orgId, t.id),
    foreignKey({
      name: 'bank_accounts_vendor_same_org',
      columns: [t.orgId, t.vendorId],
      foreignColumns: [vendors.orgId, vendors.id],
    }),
    foreignKey({
      name: 'bank_accounts_ledger_same_org',
      columns: [t.orgId, t.ledgerAccountId],
      foreignColumns: [accounts.orgId, accounts.id],
    }),
    check(
      'bank_accounts_owner',
      sql`(${t.ownerType} = 'vendor' and ${t.vendorId} is not null) or (${t.ownerType} = 'org' and ${t.vendorId} is null and ${t.ledgerAccountId} is not null)`,
    ),
    check('bank_accounts_currency_iso', sql`${t.currency} ~ '^[A-Z]{3}$'`),
    check('bank_accounts_has_number', sql`${t.iban} is not null or ${t.accountNumber} is not null`),
    // One current payee account per vendor.
    uniqueIndex('bank_accounts_one_current_per_vendor')
      .on(t.orgId, t.vendorId)
      .where(sql`${t.vendorId} is not null and ${t.retiredAt} is null`),
  ],
);

/** Bills posted through bill.post; one per vendor bill number. */
export const bills = pgTable(
  'bills',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    vendorId: text('vendor_id').notNull(),
    billNumber: text('bill_number').notNull(),
    billDate: date('bill_date', { mode: 'string' }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    totalMinor: bigint('total_minor', { mode: 'bigint' }).notNull(),
    entryId: text('entry_id').notNull(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    /** Set by bill.settle (a bank line paid it; its bill_settlements row says how) or by bill.credit (a vendor credit covered what was open; its vendor_credits row). */
    settledAt: timestamp('settled_at', { withTimezone: true }),
  },
  (t) => [
    unique('bills_org_vendor_number').on(t.orgId, t.vendorId, t.billNumber),
    unique('bills_org_id').on(t.orgId, t.id),
    foreignKey({
      name: 'bills_vendor_same_org',
      columns: [t.orgId, t.vendorId],
      foreignColumns: [vendors.orgId, vendors.id],
    }),
    foreignKey({
      name: 'bills_entry_same_org',
      columns: [t.orgId, t.entryId],
      foreignColumns: [journalEntries.orgId, journalEntries.id],
    }),
    check('bills_total_positive', sql`${t.totalMinor} > 0`),
  ],
);

/** Payment instructions released by payment.send (the outbound bank connector reads these). */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    vendorId: text('vendor_id').notNull(),
    billId: text('bill_id'),
    fromBankAccountId: text('from_bank_account_id').notNull(),
    payeeBankAccountId: text('payee_bank_account_id').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    paymentDate: date('payment_date', { mode: 'string' }).notNull(),
    entryId: text('entry_id').notNull(),
    submissionId: text('submission_id')
      .notNull()
      .unique()
      .references(() => gatewaySubmissions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'payments_vendor_same_org',
      columns: [t.orgId, t.vendorId],
      foreignColumns: [vendors.orgId, vendors.id],
    }),
    foreignKey({
      name: 'payments_bill_same_org',
      columns: [t.orgId, t.billId],
      foreignColumns: [bills.orgId, bills.id],
    }),
    foreignKey({
      name: 'payments_from_same_org',
      columns: [t.orgId, t.fromBankAccountId],
      foreignColumns: [bankAccounts.orgId, bankAccounts.id],
    }),
    foreignKey({
      name: 'payments_payee_same_org',
      columns: [t.orgId, t.payeeBankAccountId],
      foreignColumns: [bankAccounts.orgId, bankAccounts.id],
    }),
    foreignKey({
      name: 'payments_entry_same_org',
      columns: [t.orgId, t.entryId],
      foreignColumns: [journalEntries.orgId, journalEntries.id],
    }),
    check('payments_amount_positive', sql`${t.amountMinor} > 0`),
  ],
);

/**
 * Lines of the org's bank statements as a connector sync delivered them (source data, not
 * books). bank_line.match links one to the posted entry it settles; once only.
 */
export const bankLines = pgTable(
  'bank_lines',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    bankAccountId: text('bank_account_id').notNull(),
    bookedOn: date('booked_on', { mode: 'string' }).notNull(),
    /** Signed: money in is positive, money out negative. */
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    /** The statement line's stable id (`bank:<id>` or `sha256:<hex>`): stored once per account. */
    externalId: text('external_id'),
    reference: text('reference'),
    counterpartyName: text('counterparty_name'),
    counterpartyAccount: text('counterparty_account'),
    matchedEntryId: text('matched_entry_id'),
    matchedBySubmission: text('matched_by_submission').references(() => gatewaySubmissions.id),
    matchedAt: timestamp('matched_at', { withTimezone: true }),
  },
  (t) => [
    // Ids are the org's own: another org may use the same one.
    primaryKey({ name: 'bank_lines_org_pk', columns: [t.orgId, t.id] }),
    unique('bank_lines_org_id').on(t.orgId, t.id),
    foreignKey({
      name: 'bank_lines_account_same_org',
      columns: [t.orgId, t.bankAccountId],
      foreignColumns: [bankAccounts.orgId, bankAccounts.id],
    }),
    foreignKey({
      name: 'bank_lines_entry_same_org',
      columns: [t.orgId, t.matchedEntryId],
      foreignColumns: [journalEntries.orgId, journalEntries.id],
    }),
    uniqueIndex('bank_lines_entry_matched_once')
      .on(t.matchedEntryId)
      .where(sql`${t.matchedEntryId} is not null`),
    index('bank_lines_org_account').on(t.orgId, t.bankAccountId),
    // A re-delivered statement stores nothing twice.
    uniqueIndex('bank_lines_account_external_id')
      .on(t.orgId, t.bankAccountId, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

/**
 * A bill paid by a bank line outside payment.send, applied by bill.settle in one transaction
 * with its entry (Dr the AP account the bill credited, Cr the bank's ledger account), the bank
 * line's match and the bill's settled_at. At most one per bill and one per bank line.
 */
export const billSettlements = pgTable(
  'bill_settlements',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    billId: text('bill_id').notNull(),
    bankLineId: text('bank_line_id').notNull(),
    entryId: text('entry_id').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'bigint' }).notNull(),
    currency: text('currency').notNull(),
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'bill_settlements_org_pk', columns: [t.orgId, t.id] }),
    unique('bill_settlements_one_per_bill').on(t.orgId, t.billId),
    unique('bill_settlements_one_per_bank_line').on(t.orgId, t.bankLineId),
    foreignKey({
      name: 'bill_settlements_bill_same_org',
      columns: [t.orgId, t.billId],
      foreignColumns: [bills.orgId, bills.id],
    }),
    foreignKey({
      name: 'bill_settlements_bank_line_same_org',
      columns: [t.orgId, t.bankLineId],
      foreignColumns: [bankLines.orgId, bankLines.id],
    }),
    foreignKey({
      name: 'bill_settlements_entry_same_org',
      columns: [t.orgId, t.entryId],
      foreignColumns: [journalEntries.orgId, journalEntries.id],
    }),
    check('bill_settlements_amount_positive', sql`${t.amountMinor} > 0`),
  ],
);

/**
 * Vendor credits posted by bill.credit: a supplier's credit note, or an invoice correcting an
 * earlier one with a negative total. Its entry reverses a bill's (Dr AP, Cr expense and input
 * tax). Applied against the bill it names (BT-25) when that bill is open, for at most the
 * bill's open amount; the rest is an open credit on the vendor. One per vendor and credit-note
 * number (compared as bills are, case, spaces and '#' ignored: migration 0023), so the same
 * credit note arriving by PDF, XML and email posts once.
 */
export const vendorCredits = pgTable(
  'vendor_credits',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    vendorId: text('vendor_id').notNull(),
    creditNumber: text('credit_number').notNull(),
    creditDate: date('credit_date', { mode: 'string' }).notNull(),
    currency: text('currency').notNull(),
    totalMinor: bigint('total_minor', { mode: 'bigint' }).notNull(),
    entryId: text('entry_id').notNull(),
    /** The invoice number the credit note names (BT-25), as it names it. */
    precedingBillNumber: text('preceding_bill_number'),
    /** The vendor's open bill it was applied against, and how much of it. */
    appliedBillId: text('applied_bill_id'),
    appliedMinor: bigint('applied_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    submissionId: text('submission_id')
      .notNull()
      .references(() => gatewaySubmissions.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'vendor_credits_org_pk', columns: [t.orgId, t.id] }),
    unique('vendor_credits_org_vendor_number').on(t.orgId, t.vendorId, t.creditNumber),
    index('vendor_credits_applied_bill').on(t.orgId, t.appliedBillId),
    foreignKey({
      name: 'vendor_credits_vendor_same_org',
      columns: [t.orgId, t.vendorId],
      foreignColumns: [vendors.orgId, vendors.id],
    }),
    foreignKey({
      name: 'vendor_credits_entry_same_org',
      columns: [t.orgId, t.entryId],
      foreignColumns: [journalEntries.orgId, journalEntries.id],
    }),
    foreignKey({
      name: 'vendor_credits_bill_same_org',
      columns: [t.orgId, t.appliedBillId],
      foreignColumns: [bills.orgId, bills.id],
    }),
    check('vendor_credits_total_positive', sql`${t.totalMinor} > 0`),
    check(
      'vendor_credits_applied_within_total',
      sql`${t.appliedMinor} >= 0 and ${t.appliedMinor} <= ${t.totalMinor} and (${t.appliedMinor} = 0 or ${t.appliedBillId} is not null)`,
    ),
  ],
);
