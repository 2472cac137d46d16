import { and, eq, sql } from 'drizzle-orm';
import { billSettlements, bills } from '../../../db/schema';
import { getEntry } from '../../../db/repositories/ledger';
import {
  getBankAccount,
  getBankLine,
  getBill,
  getVendor,
  paidOnBill,
  creditedOnBill,
} from '../../../db/repositories/master-data';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import {
  BOOKKEEPING,
  derivedId,
  postsEntries,
  draft,
  requireActiveAccounts,
  matchBankLineOnce,
} from './plan-helpers';

/** A bill settled: its payable cleared against the bank account that paid it. */
export const billSettleKind: KindDef<'bill.settle'> = {
  submitRoles: BOOKKEEPING,
  refs: (p) => [
    { path: 'payload.billId', entity: 'bill', id: p.billId },
    { path: 'payload.bankLineId', entity: 'bankLine', id: p.bankLineId },
  ],
  async plan(ctx, p) {
    const refuse = (type: ErrorType, message: string, path: string, issue: string) =>
      new GatewayRefusal(type, message, [{ path, message: issue }]);
    const bill = await getBill(ctx.q, ctx.orgId, p.billId);
    const line = await getBankLine(ctx.q, ctx.orgId, p.bankLineId);
    if (!bill || !line)
      throw refuse(
        ErrorType.UnknownEntity,
        'Unknown bill or bank line',
        'payload',
        'unknown bill or bank line',
      );
    if (line.matchedEntryId)
      throw refuse(
        ErrorType.AlreadyMatched,
        `Bank line ${p.bankLineId} is already matched to ${line.matchedEntryId}`,
        'payload.bankLineId',
        `already matched to ${line.matchedEntryId}`,
      );
    const [settled] = await ctx.q
      .select({ id: billSettlements.id, bankLineId: billSettlements.bankLineId })
      .from(billSettlements)
      .where(and(eq(billSettlements.orgId, ctx.orgId), eq(billSettlements.billId, p.billId)));
    if (bill.settledAt || settled)
      throw refuse(
        ErrorType.DuplicateEntity,
        `Bill ${p.billId} is already settled${settled ? ` by bank line ${settled.bankLineId}` : ''}`,
        'payload.billId',
        'already settled',
      );
    const paid = await paidOnBill(ctx.q, ctx.orgId, p.billId);
    if (paid > 0n)
      throw refuse(
        ErrorType.InvalidWrite,
        `Bill ${p.billId} already has payments of ${paid} (payment.send): its bank line matches the payment's entry`,
        'payload.billId',
        `paid ${paid} by payment.send`,
      );
    if (line.currency !== bill.currency)
      throw refuse(
        ErrorType.CurrencyMismatch,
        `Bank line ${p.bankLineId} is in ${line.currency}, bill ${p.billId} in ${bill.currency}`,
        'payload.bankLineId',
        `the bill is in ${bill.currency}`,
      );
    // Money out of the bank is negative on the line; it must pay exactly what the bill still
    // asks: its total less the vendor credits applied to it (bill.credit).
    const creditedMinor = await creditedOnBill(ctx.q, ctx.orgId, p.billId);
    const due = bill.totalMinor - creditedMinor;
    if (line.amountMinor !== -due)
      throw refuse(
        ErrorType.AmountMismatch,
        `Bank line ${p.bankLineId} moves ${line.amountMinor} ${line.currency}; bill ${p.billId} totals ${bill.totalMinor}${creditedMinor > 0n ? `, less ${creditedMinor} credited` : ''} (a settlement pays it out in full: -${due})`,
        'payload.bankLineId',
        `moves ${line.amountMinor}, the bill needs -${due}`,
      );
    const bank = await getBankAccount(ctx.q, ctx.orgId, line.bankAccountId);
    if (!bank || bank.ownerType !== 'org' || !bank.ledgerAccountId)
      throw refuse(
        ErrorType.InvalidWrite,
        `Bank line ${p.bankLineId} is not on an org bank account with a ledger account`,
        'payload.bankLineId',
        'no ledger account for its bank account',
      );
    // The AP account the bill credited (its entry's credit side), not today's system role.
    const billEntry = await getEntry(ctx.q, ctx.orgId, bill.entryId);
    const credited = [
      ...new Set((billEntry?.lines ?? []).filter((l) => l.credit > 0n).map((l) => l.accountId)),
    ];
    if (credited.length !== 1)
      throw refuse(
        ErrorType.InvalidWrite,
        `Bill ${p.billId}'s entry credits ${credited.length} accounts: the AP account is not clear`,
        'payload.billId',
        'no single AP account credited by the bill',
      );
    const ap = credited[0]!;
    await requireActiveAccounts(ctx.q, ctx.orgId, [
      { id: ap, path: 'payload.billId' },
      { id: bank.ledgerAccountId, path: 'payload.bankLineId' },
    ]);
    const vendor = await getVendor(ctx.q, ctx.orgId, bill.vendorId);
    const entry = draft(ctx, {
      entryDate: line.bookedOn,
      memo: `Settlement of bill ${bill.billNumber}${vendor ? ` from ${vendor.name}` : ''} by bank line ${line.id}`,
      lines: [
        {
          accountId: ap,
          currency: bill.currency,
          debit: due,
          credit: 0n,
          memo: bill.id,
        },
        {
          accountId: bank.ledgerAccountId,
          currency: bill.currency,
          debit: 0n,
          credit: due,
          memo: line.description.slice(0, 500) || null,
        },
      ],
    });
    const settlementId = derivedId('set', ctx.entryKey);
    return {
      entries: [entry],
      postingDate: { date: line.bookedOn, path: 'payload.bankLineId' },
      facts: {},
      write: postsEntries([entry], async (tx) => {
        // Checked again under the apply transaction: the plan may be stale.
        await matchBankLineOnce(tx, ctx, p.bankLineId, entry.id);
        const marked = await tx
          .update(bills)
          .set({ settledAt: sql`now()` })
          .where(
            and(
              eq(bills.orgId, ctx.orgId),
              eq(bills.id, p.billId),
              sql`${bills.settledAt} is null`,
            ),
          )
          .returning({ id: bills.id });
        if (marked.length === 0)
          throw refuse(
            ErrorType.DuplicateEntity,
            `Bill ${p.billId} was settled concurrently`,
            'payload.billId',
            'already settled',
          );
        await tx.insert(billSettlements).values({
          id: settlementId,
          orgId: ctx.orgId,
          billId: p.billId,
          bankLineId: p.bankLineId,
          entryId: entry.id,
          amountMinor: due,
          currency: bill.currency,
          submissionId: ctx.submissionId,
        });
        return [
          { entityType: 'bill', entityId: p.billId, action: 'settled' },
          { entityType: 'bank_line', entityId: p.bankLineId, action: 'matched' },
          { entityType: 'bill_settlement', entityId: settlementId, action: 'created' },
        ];
      }),
    };
  },
};
