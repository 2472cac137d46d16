import { getEntry } from '../../../db/repositories/ledger';
import { getBankAccount, getBankLine } from '../../../db/repositories/master-data';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import { BOOKKEEPING, matchBankLineOnce } from './plan-helpers';

/** A bank line matched, once, to the entry it settles. */
export const bankLineMatchKind: KindDef<'bank_line.match'> = {
  submitRoles: BOOKKEEPING,
  refs: (p) => [
    { path: 'payload.bankLineId', entity: 'bankLine', id: p.bankLineId },
    { path: 'payload.entryId', entity: 'entry', id: p.entryId },
  ],
  async plan(ctx, p) {
    const line = await getBankLine(ctx.q, ctx.orgId, p.bankLineId);
    const entry = await getEntry(ctx.q, ctx.orgId, p.entryId);
    if (!line || !entry)
      throw new GatewayRefusal(ErrorType.UnknownEntity, `Unknown bank line or entry`, [
        { path: 'payload', message: 'unknown bank line or entry' },
      ]);
    if (line.matchedEntryId)
      throw new GatewayRefusal(
        ErrorType.AlreadyMatched,
        `Bank line ${p.bankLineId} is already matched to ${line.matchedEntryId}`,
        [{ path: 'payload.bankLineId', message: `already matched to ${line.matchedEntryId}` }],
      );
    if (entry.status !== 'posted')
      throw new GatewayRefusal(ErrorType.InvalidWrite, `Entry ${p.entryId} is not posted`, [
        { path: 'payload.entryId', message: 'not posted' },
      ]);
    const bank = await getBankAccount(ctx.q, ctx.orgId, line.bankAccountId);
    const net = entry.lines
      .filter((l) => l.accountId === bank?.ledgerAccountId && l.currency === line.currency)
      .reduce((n, l) => n + l.debit - l.credit, 0n);
    if (net !== line.amountMinor) {
      throw new GatewayRefusal(
        ErrorType.AmountMismatch,
        `Bank line ${p.bankLineId} is ${line.amountMinor} ${line.currency}; entry ${p.entryId} moves ${net} on that bank account`,
        [{ path: 'payload.entryId', message: `moves ${net}, the bank line ${line.amountMinor}` }],
      );
    }
    return {
      entries: [],
      facts: {},
      async write(tx) {
        await matchBankLineOnce(tx, ctx, p.bankLineId, p.entryId);
        return [{ entityType: 'bank_line', entityId: p.bankLineId, action: 'matched' }];
      },
    };
  },
};
