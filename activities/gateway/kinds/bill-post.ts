import { bills } from '../../../db/schema';
import { type EntryDraft } from '../../../db/repositories/ledger';
import {
  currentPayeeAccount,
  findBillByNumber,
  getPaymentTerms,
} from '../../../db/repositories/master-data';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef, Ref } from '../kind-def';
import { expenseLines } from '../bill-lines';
import {
  BOOKKEEPING,
  derivedId,
  postsEntries,
  draft,
  requireActiveAccounts,
  systemAccount,
  placeholders,
  requireActiveVendor,
  addDays,
} from './plan-helpers';

/** A vendor bill posted to the books: expense lines, input tax and the payable. */
export const billPostKind: KindDef<'bill.post'> = {
  submitRoles: BOOKKEEPING,
  refs: (p) => [
    { path: 'payload.vendorId', entity: 'vendor', id: p.vendorId },
    ...p.lines.flatMap((l, i): Ref[] => [
      ...(l.accountId
        ? [{ path: `payload.lines.${i}.accountId`, entity: 'account' as const, id: l.accountId }]
        : []),
      ...(l.taxCodeId
        ? [{ path: `payload.lines.${i}.taxCodeId`, entity: 'taxCode' as const, id: l.taxCodeId }]
        : []),
    ]),
  ],
  async plan(ctx, p) {
    const vendor = await requireActiveVendor(ctx.q, ctx.orgId, p.vendorId);
    const dup = await findBillByNumber(ctx.q, ctx.orgId, p.vendorId, p.billNumber);
    if (dup)
      throw new GatewayRefusal(
        ErrorType.DuplicateEntity,
        `Bill ${p.billNumber} of vendor ${p.vendorId} is already posted (${dup.id})`,
        [{ path: 'payload.billNumber', message: `already posted as ${dup.id}` }],
      );
    const fallback =
      vendor.defaultExpenseAccountId ?? (await systemAccount(ctx.q, ctx.orgId, 'default_expense'));
    const expense = await expenseLines(
      ctx.q,
      ctx.orgId,
      { date: p.billDate, lines: p.lines },
      fallback,
    );
    const total = expense.total;
    const lines: EntryDraft['lines'] = expense.lines.map((l) => ({
      accountId: l.accountId,
      currency: p.currency,
      debit: l.amount,
      credit: 0n,
      memo: l.memo,
    }));
    const ap = await systemAccount(ctx.q, ctx.orgId, 'accounts_payable');
    lines.push({
      accountId: ap,
      currency: p.currency,
      debit: 0n,
      credit: total,
      memo: `${vendor.name} ${p.billNumber}`,
    });
    await requireActiveAccounts(
      ctx.q,
      ctx.orgId,
      lines.map((l) => ({ id: l.accountId, path: 'payload.lines' })),
    );
    const terms = vendor.paymentTermsId
      ? await getPaymentTerms(ctx.q, ctx.orgId, vendor.paymentTermsId)
      : undefined;
    const dueDate = p.dueDate ?? addDays(p.billDate, terms?.dueDays ?? 30);
    const entry = draft(ctx, {
      entryDate: p.billDate,
      memo: `Bill ${p.billNumber} from ${vendor.name}`,
      lines,
    });
    const billId = derivedId('bill', ctx.entryKey);
    // A bill asking to be paid to another account than the vendor's stored one is the
    // payee-change fraud pattern: the same rule as a changed payee.
    const stored = p.payeeIban
      ? await currentPayeeAccount(ctx.q, ctx.orgId, p.vendorId)
      : undefined;
    const payeeChanged = !!stored?.iban && stored.iban !== p.payeeIban;
    return {
      entries: [entry],
      postingDate: { date: p.billDate, path: 'payload.billDate' },
      facts: {
        placeholderContacts: placeholders(vendor.email),
        ...(payeeChanged ? { payeeBankDetails: 'changed' as const } : {}),
      },
      write: postsEntries([entry], async (tx) => {
        await tx.insert(bills).values({
          id: billId,
          orgId: ctx.orgId,
          vendorId: p.vendorId,
          billNumber: p.billNumber,
          billDate: p.billDate,
          dueDate,
          currency: p.currency,
          totalMinor: total,
          entryId: entry.id,
          submissionId: ctx.submissionId,
        });
        return [{ entityType: 'bill', entityId: billId, action: 'created' }];
      }),
    };
  },
};
