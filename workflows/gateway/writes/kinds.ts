/** The write kinds: each kind's name mapped to its payload schema, and the types derived. */
import type { z } from 'zod';
import { MembershipGrantSchema, MembershipRevokeSchema, RiskSettingsUpdateSchema } from './access';
import { BankAccountCreateSchema, BankLineMatchSchema } from './bank';
import { BillCreditSchema, BillPostBatchSchema, BillPostSchema, BillSettleSchema } from './bill';
import { JournalPostBatchSchema, JournalPostSchema, JournalReverseSchema } from './journal';
import {
  AccountCreateSchema,
  AccountUpdateSchema,
  CustomerCreateSchema,
  PaymentTermsCreateSchema,
  TaxCodeCreateSchema,
} from './master-data';
import { PaymentSendSchema } from './payment';
import { PeriodCloseSchema, PeriodReopenSchema } from './period';
import { VendorCreateSchema, VendorUpdateSchema } from './vendor';

/** The registry of write kinds and their payload schemas. */
export const WRITE_SCHEMAS = {
  'journal.post': JournalPostSchema,
  'journal.reverse': JournalReverseSchema,
  'journal.post_batch': JournalPostBatchSchema,
  'bill.post': BillPostSchema,
  'bill.post_batch': BillPostBatchSchema,
  'bill.credit': BillCreditSchema,
  'payment.send': PaymentSendSchema,
  'vendor.create': VendorCreateSchema,
  'vendor.update': VendorUpdateSchema,
  'bank_line.match': BankLineMatchSchema,
  'bill.settle': BillSettleSchema,
  'period.close': PeriodCloseSchema,
  'period.reopen': PeriodReopenSchema,
  'customer.create': CustomerCreateSchema,
  'tax_code.create': TaxCodeCreateSchema,
  'payment_terms.create': PaymentTermsCreateSchema,
  'bank_account.create': BankAccountCreateSchema,
  'account.create': AccountCreateSchema,
  'account.update': AccountUpdateSchema,
  'membership.grant': MembershipGrantSchema,
  'membership.revoke': MembershipRevokeSchema,
  'risk_settings.update': RiskSettingsUpdateSchema,
} as const;
export type WriteKind = keyof typeof WRITE_SCHEMAS;
export const WRITE_KINDS = Object.keys(WRITE_SCHEMAS) as WriteKind[];
export type WritePayload<K extends WriteKind> = z.infer<(typeof WRITE_SCHEMAS)[K]>;
