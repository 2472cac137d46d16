import { findReversal, getEntry } from '../../../db/repositories/ledger';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import { BOOKKEEPING, postsEntries, draft, requireActiveAccounts } from './plan-helpers';

/** Journal entries: one posted as submitted, and the reversal of a posted one. */
export const journalPostKind: KindDef<'journal.post'> = {
  submitRoles: BOOKKEEPING,
  refs: (p) =>
    p.lines.map((l, i) => ({
      path: `payload.lines.${i}.accountId`,
      entity: 'account',
      id: l.accountId,
    })),
  async plan(ctx, p) {
    await requireActiveAccounts(
      ctx.q,
      ctx.orgId,
      p.lines.map((l, i) => ({ id: l.accountId, path: `payload.lines.${i}.accountId` })),
    );
    const entry = draft(ctx, {
      entryDate: p.entryDate,
      memo: p.memo,
      lines: p.lines.map((l) => ({
        accountId: l.accountId,
        currency: l.currency,
        debit: BigInt(l.debit ?? '0'),
        credit: BigInt(l.credit ?? '0'),
        memo: l.memo ?? null,
      })),
    });
    return {
      entries: [entry],
      postingDate: { date: p.entryDate, path: 'payload.entryDate' },
      facts: {},
      write: postsEntries([entry]),
    };
  },
};

export const journalReverseKind: KindDef<'journal.reverse'> = {
  submitRoles: BOOKKEEPING,
  refs: (p) => [{ path: 'payload.entryId', entity: 'entry', id: p.entryId }],
  async plan(ctx, p) {
    const original = await getEntry(ctx.q, ctx.orgId, p.entryId);
    if (!original || original.status !== 'posted')
      throw new GatewayRefusal(
        ErrorType.UnknownEntity,
        `No posted entry ${p.entryId} in org ${ctx.orgId}`,
        [{ path: 'payload.entryId', message: 'not a posted entry' }],
      );
    const existing = await findReversal(ctx.q, p.entryId);
    if (existing)
      throw new GatewayRefusal(
        ErrorType.AlreadyReversed,
        `Entry ${p.entryId} is already reversed by ${existing}`,
        [{ path: 'payload.entryId', message: `already reversed by ${existing}` }],
      );
    const entry = draft(ctx, {
      entryDate: p.reversalDate,
      memo: `Reversal of ${p.entryId}: ${p.reason}`,
      reversalOf: p.entryId,
      lines: original.lines.map((l) => ({
        accountId: l.accountId,
        currency: l.currency,
        debit: l.credit,
        credit: l.debit,
        memo: l.memo,
      })),
    });
    return {
      entries: [entry],
      postingDate: { date: p.reversalDate, path: 'payload.reversalDate' },
      facts: { reversal: true },
      write: postsEntries([entry]),
    };
  },
};
