import { payments } from '../../../db/schema';
import {
  currentPayeeAccount,
  getBankAccount,
  getBill,
  paidOnBill,
  creditedOnBill,
} from '../../../db/repositories/master-data';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import {
  TREASURY,
  PAYEE_CHANGE_WINDOW_MS,
  derivedId,
  postsEntries,
  draft,
  systemAccount,
  placeholders,
  requireActiveVendor,
} from './plan-helpers';

/** A payment sent to a vendor's stored bank account. */
export const paymentSendKind: KindDef<'payment.send'> = {
  submitRoles: TREASURY,
  refs: (p) => [
    { path: 'payload.vendorId', entity: 'vendor', id: p.vendorId },
    { path: 'payload.fromBankAccountId', entity: 'bankAccount', id: p.fromBankAccountId },
    ...(p.billId ? [{ path: 'payload.billId', entity: 'bill' as const, id: p.billId }] : []),
  ],
  async plan(ctx, p) {
    const vendor = await requireActiveVendor(ctx.q, ctx.orgId, p.vendorId);
    const from = await getBankAccount(ctx.q, ctx.orgId, p.fromBankAccountId);
    if (!from || from.ownerType !== 'org' || !from.ledgerAccountId || from.retiredAt) {
      throw new GatewayRefusal(
        ErrorType.InvalidWrite,
        `${p.fromBankAccountId} is not an active bank account of org ${ctx.orgId}`,
        [{ path: 'payload.fromBankAccountId', message: 'not an active org bank account' }],
      );
    }
    const payee = await currentPayeeAccount(ctx.q, ctx.orgId, p.vendorId);
    if (!payee)
      throw new GatewayRefusal(
        ErrorType.InvalidWrite,
        `Vendor ${p.vendorId} has no bank details to pay to`,
        [{ path: 'payload.vendorId', message: 'vendor has no bank details' }],
      );
    if (from.currency !== p.currency)
      throw new GatewayRefusal(
        ErrorType.CurrencyMismatch,
        `Payment in ${p.currency} from a ${from.currency} account`,
        [{ path: 'payload.currency', message: `the paying account holds ${from.currency}` }],
      );
    if (payee.currency !== p.currency)
      throw new GatewayRefusal(
        ErrorType.CurrencyMismatch,
        `Payment in ${p.currency} to a ${payee.currency} payee account`,
        [{ path: 'payload.currency', message: `the payee account holds ${payee.currency}` }],
      );
    if (p.billId) {
      const bill = await getBill(ctx.q, ctx.orgId, p.billId);
      if (!bill || bill.vendorId !== p.vendorId)
        throw new GatewayRefusal(
          ErrorType.InvalidWrite,
          `Bill ${p.billId} is not a bill of vendor ${p.vendorId}`,
          [{ path: 'payload.billId', message: 'bill of another vendor' }],
        );
      if (bill.currency !== p.currency)
        throw new GatewayRefusal(
          ErrorType.CurrencyMismatch,
          `Bill ${p.billId} is in ${bill.currency}, payment in ${p.currency}`,
          [{ path: 'payload.currency', message: `the bill is in ${bill.currency}` }],
        );
      const open =
        bill.totalMinor -
        (await paidOnBill(ctx.q, ctx.orgId, p.billId)) -
        (await creditedOnBill(ctx.q, ctx.orgId, p.billId));
      if (BigInt(p.amountMinor) > open)
        throw new GatewayRefusal(
          ErrorType.AmountMismatch,
          `Payment ${p.amountMinor} exceeds the open amount ${open} of bill ${p.billId}`,
          [{ path: 'payload.amountMinor', message: `exceeds the open amount ${open}` }],
        );
    }
    const ap = await systemAccount(ctx.q, ctx.orgId, 'accounts_payable');
    const amount = BigInt(p.amountMinor);
    const entry = draft(ctx, {
      entryDate: p.paymentDate,
      memo: `Payment to ${vendor.name}${p.reference ? ` (${p.reference})` : ''}`,
      lines: [
        {
          accountId: ap,
          currency: p.currency,
          debit: amount,
          credit: 0n,
          memo: p.billId ?? null,
        },
        {
          accountId: from.ledgerAccountId,
          currency: p.currency,
          debit: 0n,
          credit: amount,
          memo: p.reference ?? null,
        },
      ],
    });
    const paymentId = derivedId('pay', ctx.entryKey);
    return {
      entries: [entry],
      payee: {
        bankAccountId: payee.id,
        holderName: payee.holderName,
        iban: payee.iban,
        accountNumber: payee.accountNumber,
        routingCode: payee.routingCode,
        bic: payee.bic,
        currency: payee.currency,
      },
      postingDate: { date: p.paymentDate, path: 'payload.paymentDate' },
      facts: {
        irreversible: true,
        placeholderContacts: placeholders(vendor.email),
        payeeBankDetailsRecentlyChanged:
          Date.now() - payee.createdAt.getTime() < PAYEE_CHANGE_WINDOW_MS,
      },
      write: postsEntries([entry], async (tx) => {
        await tx.insert(payments).values({
          id: paymentId,
          orgId: ctx.orgId,
          vendorId: p.vendorId,
          billId: p.billId ?? null,
          fromBankAccountId: from.id,
          payeeBankAccountId: payee.id,
          amountMinor: amount,
          currency: p.currency,
          paymentDate: p.paymentDate,
          entryId: entry.id,
          submissionId: ctx.submissionId,
        });
        return [{ entityType: 'payment', entityId: paymentId, action: 'released' }];
      }),
    };
  },
};
