/**
 * Wire shapes of gateway writes: the envelope every submission shares and one payload schema
 * per write kind. Pure (no db), so the workflow, the client and the activities parse the
 * same way. Money is integer minor units as a digit string (JSON has no bigint, and floats
 * are refused); each line or amount names its ISO 4217 currency.
 *
 * This file is the entry point: it hands on what the files under writes/ define. A kind's
 * schema lives in the file its family names (journal.*, bill.*, vendor.*, ...); the registry
 * of kinds is writes/kinds.ts.
 */

// Fields every kind builds on: currencies, amounts, dates.
export {
  CurrencySchema,
  DateSchema,
  MinorUnitsSchema,
  PositiveMinorUnitsSchema,
} from './writes/fields';

// The keys of batch entries.
export { EntryKeySchema, splitIdempotencyKey } from './writes/batch-keys';

// journal.post, journal.post_batch, journal.reverse.
export {
  BATCH_MAX_ENTRIES,
  JournalBatchEntrySchema,
  JournalLineSchema,
  JournalPostBatchSchema,
  JournalPostSchema,
  JournalReverseSchema,
} from './writes/journal';
export type { JournalBatchEntry, JournalLineInput } from './writes/journal';

// bill.post, bill.post_batch, bill.credit, bill.settle.
export {
  BILL_BATCH_MAX_ENTRIES,
  BillBatchEntrySchema,
  BillCreditSchema,
  BillPostBatchSchema,
  BillPostSchema,
  BillSettleSchema,
} from './writes/bill';
export type { BillBatchEntry } from './writes/bill';

// payment.send.
export { PaymentSendSchema } from './writes/payment';

// Bank details; bank_account.create, bank_line.match.
export {
  BIC,
  BankAccountCreateSchema,
  BankDetailsSchema,
  BankLineMatchSchema,
  IBAN,
} from './writes/bank';
export type { BankDetails } from './writes/bank';

// Placeholder contact fields (vendors and customers).
export { PLACEHOLDER_FIELDS } from './writes/contacts';

// vendor.create, vendor.update.
export { VendorCreateSchema, VendorUpdateSchema } from './writes/vendor';

// customer.create, tax_code.create, payment_terms.create, account.create, account.update.
export {
  ACCOUNT_TYPES,
  AccountCreateSchema,
  AccountUpdateSchema,
  CustomerCreateSchema,
  PaymentTermsCreateSchema,
  TaxCodeCreateSchema,
} from './writes/master-data';

// period.close, period.reopen.
export { PeriodCloseSchema, PeriodReopenSchema, PeriodSchema } from './writes/period';

// membership.grant, membership.revoke, risk_settings.update.
export {
  MembershipGrantSchema,
  MembershipRevokeSchema,
  RiskSettingsUpdateSchema,
} from './writes/access';

// The registry of write kinds.
export { WRITE_KINDS, WRITE_SCHEMAS } from './writes/kinds';
export type { WriteKind, WritePayload } from './writes/kinds';

// The envelope and parsing a submission.
export {
  DEFAULT_APPROVAL_DUE_MS,
  DEFAULT_APPROVAL_EXPIRE_MS,
  MAX_APPROVAL_WINDOW_MS,
  SubmitterSchema,
  formatIssues,
  parseWrite,
} from './writes/envelope';
export type { GatewayWrite, GatewayWriteInput, Submitter, WriteIssue } from './writes/envelope';

// An approver's decision.
export { ApprovalDecisionSchema, RecordedApprovalDecisionSchema } from './writes/approval-decision';
export type { ApprovalDecision } from './writes/approval-decision';
