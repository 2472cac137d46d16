import { getTaxCodes } from '../../db/repositories/master-data';
import type { Q } from '../../db/repositories/ledger';
import { ErrorType } from '../../workflows/errors';
import { GatewayRefusal } from './refusal';

/**
 * The expense side of a supplier document, shared by bill.post (debited) and bill.credit
 * (credited, the reverse): each line's net on its account (or the fallback expense account),
 * then the tax of lines with a tax code, summed per tax account. Amounts are positive minor
 * units; the caller puts them on the side its kind posts and AP on the other for the total.
 */
export interface ExpenseLine {
  accountId: string;
  amount: bigint;
  memo: string;
}

export async function expenseLines(
  q: Q,
  orgId: string,
  doc: {
    /** The document's date: a tax code must be in effect on it. */
    date: string;
    lines: { description: string; amountMinor: string; accountId?: string; taxCodeId?: string }[];
  },
  fallbackAccountId: string,
): Promise<{ lines: ExpenseLine[]; total: bigint }> {
  const taxes = await getTaxCodes(
    q,
    orgId,
    doc.lines.flatMap((l) => (l.taxCodeId ? [l.taxCodeId] : [])),
  );
  const lines: ExpenseLine[] = [];
  let total = 0n;
  const taxBy = new Map<string, bigint>();
  doc.lines.forEach((l, i) => {
    const net = BigInt(l.amountMinor);
    lines.push({ accountId: l.accountId ?? fallbackAccountId, amount: net, memo: l.description });
    total += net;
    if (!l.taxCodeId) return;
    const t = taxes.find((x) => x.id === l.taxCodeId);
    if (!t || t.effectiveFrom > doc.date || (t.effectiveTo !== null && t.effectiveTo <= doc.date))
      throw new GatewayRefusal(
        ErrorType.InvalidWrite,
        `Tax code ${l.taxCodeId} is not in effect on ${doc.date}`,
        [{ path: `payload.lines.${i}.taxCodeId`, message: `not in effect on ${doc.date}` }],
      );
    // Half-up rounding in integer arithmetic: minor units never pass through a float.
    const tax = (net * BigInt(t.rateBasisPoints) + 5000n) / 10000n;
    if (tax > 0n) taxBy.set(t.accountId, (taxBy.get(t.accountId) ?? 0n) + tax);
    total += tax;
  });
  for (const [accountId, tax] of taxBy) lines.push({ accountId, amount: tax, memo: 'tax' });
  return { lines, total };
}
