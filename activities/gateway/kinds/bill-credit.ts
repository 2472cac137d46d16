import { and, eq, sql } from 'drizzle-orm';
import { bills, taxCodes, vendorCredits } from '../../../db/schema';
import {
  accountBySystemRole,
  getEntry,
  type EntryDraft,
  type Q,
} from '../../../db/repositories/ledger';
import {
  creditedOnBill,
  findBillByNumber,
  findCreditByNumber,
  paidOnBill,
} from '../../../db/repositories/master-data';
import { ErrorType } from '../../../workflows/errors';
import type { Effect } from '../../../workflows/gateway.contract';
import { expenseLines } from '../bill-lines';
import type { KindDef, Ref } from '../kind-def';
import { GatewayRefusal } from '../refusal';
import {
  BOOKKEEPING,
  derivedId,
  draft,
  placeholders,
  postsEntries,
  requireActiveAccounts,
  requireActiveVendor,
  systemAccount,
} from './plan-helpers';

/**
 * bill.credit: a supplier's credit note (or an invoice correcting one with a negative total)
 * as a vendor credit. Its entry is the reverse of a bill's — Dr AP for the gross, Cr each net
 * line's expense account and the input tax — so it takes back exactly what the bill put on
 * the books. When it names the invoice it corrects (BT-25) and the vendor has that bill, a
 * net line without an account goes back to the expense account the bill debited, and the
 * credit is applied against the bill for at most what is still open on it (paid, settled and
 * credited amounts taken off); a bill the credit covers completely is settled by it. Otherwise
 * it is an open credit on the vendor. One credit per vendor and number, as bills.

 */
export const billCreditKind: KindDef<'bill.credit'> = {
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
    const dup = await findCreditByNumber(ctx.q, ctx.orgId, p.vendorId, p.creditNumber);
    if (dup)
      throw new GatewayRefusal(
        ErrorType.DuplicateEntity,
        `Credit note ${p.creditNumber} of vendor ${p.vendorId} is already posted (${dup.id})`,
        [{ path: 'payload.creditNumber', message: `already posted as ${dup.id}` }],
      );
    const original = p.precedingBillNumber
      ? await findBillByNumber(ctx.q, ctx.orgId, p.vendorId, p.precedingBillNumber)
      : undefined;
    if (original && original.currency !== p.currency)
      throw new GatewayRefusal(
        ErrorType.CurrencyMismatch,
        `Credit note ${p.creditNumber} is in ${p.currency}; the bill it corrects (${original.id}) in ${original.currency}`,
        [
          {
            path: 'payload.currency',
            message: `the bill it corrects is in ${original.currency}`,
          },
        ],
      );
    const fallback =
      (original && (await expenseAccountOf(ctx.q, ctx.orgId, original.entryId))) ??
      vendor.defaultExpenseAccountId ??
      (await systemAccount(ctx.q, ctx.orgId, 'default_expense'));
    const expense = await expenseLines(
      ctx.q,
      ctx.orgId,
      { date: p.creditDate, lines: p.lines },
      fallback,
    );
    const total = expense.total;
    const ap = await systemAccount(ctx.q, ctx.orgId, 'accounts_payable');
    const lines: EntryDraft['lines'] = [
      {
        accountId: ap,
        currency: p.currency,
        debit: total,
        credit: 0n,
        memo: `${vendor.name} ${p.creditNumber}`,
      },
      ...expense.lines.map((l) => ({
        accountId: l.accountId,
        currency: p.currency,
        debit: 0n,
        credit: l.amount,
        memo: l.memo,
      })),
    ];
    await requireActiveAccounts(
      ctx.q,
      ctx.orgId,
      lines.map((l) => ({ id: l.accountId, path: 'payload.lines' })),
    );
    // What the credit takes off the bill it corrects: never more than is still owed on it.
    // Planned again inside the apply transaction, so a payment in between is counted.
    const open = original
      ? original.settledAt
        ? 0n
        : original.totalMinor -
          (await paidOnBill(ctx.q, ctx.orgId, original.id)) -
          (await creditedOnBill(ctx.q, ctx.orgId, original.id))
      : 0n;
    const applied = open <= 0n ? 0n : open < total ? open : total;
    const entry = draft(ctx, {
      entryDate: p.creditDate,
      memo: `Credit note ${p.creditNumber} from ${vendor.name}${p.precedingBillNumber ? ` (corrects ${p.precedingBillNumber})` : ''}`,
      lines,
    });
    const creditId = derivedId('vcr', ctx.entryKey);
    return {
      entries: [entry],
      postingDate: { date: p.creditDate, path: 'payload.creditDate' },
      facts: { placeholderContacts: placeholders(vendor.email) },
      write: postsEntries([entry], async (tx) => {
        await tx.insert(vendorCredits).values({
          id: creditId,
          orgId: ctx.orgId,
          vendorId: p.vendorId,
          creditNumber: p.creditNumber,
          creditDate: p.creditDate,
          currency: p.currency,
          totalMinor: total,
          entryId: entry.id,
          precedingBillNumber: p.precedingBillNumber ?? null,
          appliedBillId: applied > 0n ? original!.id : null,
          appliedMinor: applied,
          submissionId: ctx.submissionId,
        });
        const effects: Effect[] = [
          { entityType: 'vendor_credit', entityId: creditId, action: 'created' },
        ];
        if (applied > 0n && original) {
          effects.push({ entityType: 'bill', entityId: original.id, action: 'credited' });
          if (applied === open) {
            const settled = await tx
              .update(bills)
              .set({ settledAt: sql`now()` })
              .where(
                and(
                  eq(bills.orgId, ctx.orgId),
                  eq(bills.id, original.id),
                  sql`${bills.settledAt} is null`,
                ),
              )
              .returning({ id: bills.id });
            if (settled.length > 0)
              effects.push({ entityType: 'bill', entityId: original.id, action: 'settled' });
          }
        }
        return effects;
      }),
    };
  },
};

/**
 * The one expense account a bill's entry debited besides tax (input tax and tax codes'
 * accounts), or null when it debited several: then the credit cannot say which to reverse.
 */
async function expenseAccountOf(q: Q, orgId: string, entryId: string): Promise<string | null> {
  const entry = await getEntry(q, orgId, entryId);
  if (!entry) return null;
  const inputTax = await accountBySystemRole(q, orgId, 'input_tax');
  const taxAccounts = new Set(
    (
      await q
        .select({ accountId: taxCodes.accountId })
        .from(taxCodes)
        .where(eq(taxCodes.orgId, orgId))
    ).map((t) => t.accountId),
  );
  if (inputTax) taxAccounts.add(inputTax.id);
  const debited = new Set(
    entry.lines
      .filter((l) => l.debit > 0n && !taxAccounts.has(l.accountId))
      .map((l) => l.accountId),
  );
  return debited.size === 1 ? [...debited][0]! : null;
}
