import type { WriteKind } from '../../workflows/gateway/writes';
import type { KindDef } from './kind-def';
import { journalPostBatchKind } from './journal-batch';
import { billPostBatchKind } from './bill-batch';
import { billCreditKind } from './kinds/bill-credit';
import { BOOKKEEPING } from './kinds/plan-helpers';
import { journalPostKind, journalReverseKind } from './kinds/journal';
import { billPostKind } from './kinds/bill-post';
import { billSettleKind } from './kinds/bill-settle';
import { paymentSendKind } from './kinds/payment-send';
import { vendorCreateKind, vendorUpdateKind } from './kinds/vendors';
import { bankLineMatchKind } from './kinds/bank-line-match';
import {
  customerCreateKind,
  taxCodeCreateKind,
  paymentTermsCreateKind,
  bankAccountCreateKind,
  accountCreateKind,
  accountUpdateKind,
} from './kinds/master-data';
import { membershipGrantKind, membershipRevokeKind, riskSettingsUpdateKind } from './kinds/access';
import { periodStatusChange } from './kinds/periods';

/**
 * The registry of write kinds: who may submit each, which entity ids it references, and how
 * it plans (reads only: the entries it would post, the facts risk scoring needs) and applies
 * (writes, inside the one apply transaction). Planning runs at submit, in dry runs, and again
 * inside the apply transaction, so approval delays cannot apply a write against stale state.
 */
export const WRITE_KINDS_REGISTRY: { [K in WriteKind]: KindDef<K> } = {
  'journal.post': journalPostKind,
  'journal.post_batch': journalPostBatchKind(BOOKKEEPING),
  'journal.reverse': journalReverseKind,
  'bill.post': billPostKind,
  'bill.post_batch': billPostBatchKind(BOOKKEEPING),
  'bill.credit': billCreditKind,
  'payment.send': paymentSendKind,
  'vendor.create': vendorCreateKind,
  'vendor.update': vendorUpdateKind,
  'bank_line.match': bankLineMatchKind,
  'bill.settle': billSettleKind,
  'period.close': periodStatusChange('closed'),
  'period.reopen': periodStatusChange('open'),
  'customer.create': customerCreateKind,
  'tax_code.create': taxCodeCreateKind,
  'payment_terms.create': paymentTermsCreateKind,
  'bank_account.create': bankAccountCreateKind,
  'account.create': accountCreateKind,
  'account.update': accountUpdateKind,
  'membership.grant': membershipGrantKind,
  'membership.revoke': membershipRevokeKind,
  'risk_settings.update': riskSettingsUpdateKind,
};
