import { createHash } from 'node:crypto';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { fiscalPeriods, gatewaySubmissions, journalEntries, journalLines } from '../../db/schema';
import { getRiskSettings } from '../../db/repositories/gateway';
import {
  accountsWithoutPostings,
  getAccounts,
  postEntries,
  type EntryDraft,
} from '../../db/repositories/ledger';
import { ErrorType } from '../../workflows/errors';
import { scoreRisk } from '../../workflows/gateway/risk';
import {
  splitIdempotencyKey,
  type JournalBatchEntry,
  type WritePayload,
} from '../../workflows/gateway/writes';
import type { Effect } from '../../workflows/gateway.contract';
import type { KindDef, Plan, PlanContext, SplitEntry } from './kind-def';
import { canonicalJson } from '../../workflows/canonical-json';
import { GatewayRefusal } from './refusal';
import { aggregateRisk, partsNotApplied } from './batch-parts';

/**
 * journal.post_batch: many entries, one submission, one apply transaction. Each entry is keyed
 * by its own key (unique per org across batches: `batch-entry:<key>`), so a batch resubmitted
 * under another submission, or an entry split out earlier, never posts twice — an entry
 * already on the books is skipped and reported. Each entry is risk-scored on its own
 * (amount thresholds, first posting to an account): the batch's lane is the highest of its
 * entries; an entry in the high lane is split out to its own single-entry submission (started
 * by the gateway workflow) so that it does not hold the batch.
 */
export const batchEntryIdempotencyKey = (key: string) => `batch-entry:${key}`;
export const batchEntryId = (orgId: string, key: string) =>
  `je-${createHash('sha256')
    .update(`${orgId}\u0000${batchEntryIdempotencyKey(key)}`)
    .digest('hex')
    .slice(0, 20)}`;

function draftOf(ctx: PlanContext, e: JournalBatchEntry): EntryDraft {
  return {
    id: batchEntryId(ctx.orgId, e.key),
    orgId: ctx.orgId,
    idempotencyKey: batchEntryIdempotencyKey(e.key),
    submissionId: ctx.submissionId,
    sourceRef: ctx.sourceRef,
    reversalOf: null,
    entryDate: e.entryDate,
    memo: e.memo,
    lines: e.lines.map((l) => ({
      accountId: l.accountId,
      currency: l.currency,
      debit: BigInt(l.debit ?? '0'),
      credit: BigInt(l.credit ?? '0'),
      memo: l.memo ?? null,
    })),
  };
}

/** What an entry key names: its date, memo and lines (amounts as integer strings). */
function entryContent(e: {
  entryDate: string;
  memo: string;
  lines: {
    accountId: string;
    currency: string;
    debit?: string | bigint | null;
    credit?: string | bigint | null;
    memo?: string | null;
  }[];
}): string {
  return canonicalJson({
    entryDate: e.entryDate,
    memo: e.memo,
    lines: e.lines.map((l) => ({
      accountId: l.accountId,
      currency: l.currency,
      debit: BigInt(l.debit ?? 0).toString(),
      credit: BigInt(l.credit ?? 0).toString(),
      memo: l.memo ?? null,
    })),
  });
}

/**
 * An entry key names one entry, ever: an entry already posted under the key, or already split
 * out to its own submission under it, must be the entry this batch carries. Otherwise the
 * batch is refused (IdempotencyConflict, each such entry named) — never skipped or joined as
 * if it were the same entry.
 */
/** Whether two entries under one key are the same entry (date, memo, lines, amounts). */
export const sameEntry = (a: JournalBatchEntry, b: JournalBatchEntry): boolean =>
  entryContent(a) === entryContent(b);

async function refuseReusedEntryKeys(
  ctx: PlanContext,
  p: WritePayload<'journal.post_batch'>,
  postedKeys: Set<string>,
): Promise<void> {
  const { q, orgId } = ctx;
  const byKey = new Map(p.entries.map((e, index) => [e.key, { e, index }]));
  const seen = new Map<string, string>();
  if (postedKeys.size > 0) {
    const lines = await q
      .select({
        key: journalEntries.idempotencyKey,
        entryDate: journalEntries.entryDate,
        memo: journalEntries.memo,
        accountId: journalLines.accountId,
        currency: journalLines.currency,
        debit: journalLines.debit,
        credit: journalLines.credit,
        lineMemo: journalLines.memo,
      })
      .from(journalEntries)
      .innerJoin(journalLines, eq(journalLines.entryId, journalEntries.id))
      .where(
        and(
          eq(journalEntries.orgId, orgId),
          inArray(journalEntries.idempotencyKey, [...postedKeys]),
        ),
      )
      .orderBy(asc(journalEntries.idempotencyKey), asc(journalLines.lineNo));
    const stored = new Map<string, Parameters<typeof entryContent>[0]>();
    for (const l of lines) {
      const e = stored.get(l.key) ?? { entryDate: l.entryDate, memo: l.memo, lines: [] };
      e.lines.push({ ...l, memo: l.lineMemo });
      stored.set(l.key, e);
    }
    for (const [k, e] of stored) seen.set(k, entryContent(e));
  }
  const conflicts: { index: number; key: string; where: string }[] = [];
  for (const { e, index } of byKey.values()) {
    const posted = seen.get(batchEntryIdempotencyKey(e.key));
    if (posted !== undefined && posted !== entryContent(e))
      conflicts.push({ index, key: e.key, where: 'an entry already posted' });
  }
  const splitKeys = p.entries.map((e) => splitIdempotencyKey(e.key));
  const splits = await q
    .select({ key: gatewaySubmissions.idempotencyKey, payload: gatewaySubmissions.payload })
    .from(gatewaySubmissions)
    .where(
      and(
        eq(gatewaySubmissions.orgId, orgId),
        inArray(gatewaySubmissions.idempotencyKey, splitKeys),
      ),
    );
  for (const s of splits) {
    const key = s.key.slice(splitIdempotencyKey('').length);
    const mine = byKey.get(key);
    const theirs = (s.payload as { entries?: JournalBatchEntry[] }).entries?.[0];
    if (mine && (!theirs || entryContent(theirs) !== entryContent(mine.e)))
      conflicts.push({ index: mine.index, key, where: `split-out submission ${s.key}` });
  }
  if (conflicts.length > 0)
    throw new GatewayRefusal(
      ErrorType.IdempotencyConflict,
      `Entry key(s) ${conflicts.map((c) => c.key).join(', ')} already name a different entry; submit the changed entries under new keys`,
      conflicts.map((c) => ({
        path: `payload.entries.${c.index}.key`,
        message: `${c.where} under key ${c.key} differs from this entry`,
      })),
    );
}

async function planBatch(ctx: PlanContext, p: WritePayload<'journal.post_batch'>): Promise<Plan> {
  const { q, orgId } = ctx;
  // Entries already on the books (posted by an earlier batch or split submission): skipped,
  // once they are known to be the same entries.
  const keys = p.entries.map((e) => batchEntryIdempotencyKey(e.key));
  const posted = new Set(
    (
      await q
        .select({ key: journalEntries.idempotencyKey })
        .from(journalEntries)
        .where(and(eq(journalEntries.orgId, orgId), inArray(journalEntries.idempotencyKey, keys)))
    ).map((r) => r.key),
  );
  await refuseReusedEntryKeys(ctx, p, posted);
  const todo = p.entries
    .map((e, index) => ({ e, index }))
    .filter(({ e }) => !posted.has(batchEntryIdempotencyKey(e.key)));

  const accountIds = [...new Set(todo.flatMap(({ e }) => e.lines.map((l) => l.accountId)))];
  const rows = await getAccounts(q, orgId, accountIds);
  const inactive = new Set(rows.filter((a) => !a.active).map((a) => a.id));
  if (inactive.size > 0) {
    const issues = todo.flatMap(({ e, index }) =>
      e.lines.flatMap((l, i) =>
        inactive.has(l.accountId)
          ? [
              {
                path: `payload.entries.${index}.lines.${i}.accountId`,
                message: `account ${l.accountId} is inactive`,
              },
            ]
          : [],
      ),
    );
    throw new GatewayRefusal(
      ErrorType.InactiveEntity,
      `Inactive account(s): ${[...inactive].join(', ')}`,
      issues,
    );
  }

  // Every entry's period must be open (one query for all the batch's periods).
  const periods = [...new Set(todo.map(({ e }) => e.entryDate.slice(0, 7)))];
  if (periods.length > 0) {
    const closed = new Set(
      (
        await q
          .select({ period: fiscalPeriods.period })
          .from(fiscalPeriods)
          .where(
            and(
              eq(fiscalPeriods.orgId, orgId),
              inArray(fiscalPeriods.period, periods),
              eq(fiscalPeriods.status, 'closed'),
            ),
          )
      ).map((r) => r.period),
    );
    const hit = todo.filter(({ e }) => closed.has(e.entryDate.slice(0, 7)));
    if (hit.length > 0)
      throw new GatewayRefusal(
        ErrorType.PeriodClosed,
        `Period(s) ${[...closed].join(', ')} closed for org ${orgId}`,
        hit.map(({ e, index }) => ({
          path: `payload.entries.${index}.entryDate`,
          message: `period ${e.entryDate.slice(0, 7)} is closed`,
        })),
      );
  }

  // Each entry scored on its own facts.
  const settings = await getRiskSettings(q, orgId);
  const unposted = new Set(await accountsWithoutPostings(q, orgId, accountIds));
  const scored = todo.map(({ e, index }) => {
    const gross = new Map<string, bigint>();
    for (const l of e.lines)
      gross.set(l.currency, (gross.get(l.currency) ?? 0n) + BigInt(l.debit ?? '0'));
    const risk = scoreRisk(
      {
        kind: 'journal.post_batch',
        amounts: [...gross].map(([currency, n]) => ({ currency, amountMinor: n.toString() })),
        irreversible: false,
        payeeBankDetails: null,
        payeeBankDetailsRecentlyChanged: false,
        placeholderContacts: [],
        firstPostingAccounts: [...new Set(e.lines.map((l) => l.accountId))].filter((a) =>
          unposted.has(a),
        ),
        reversal: false,
        periodChange: null,
        newMasterData: false,
      },
      settings,
    );
    return { e, index, key: e.key, risk };
  });
  // A high-risk entry goes to its own approval — unless it is all this submission carries.
  const split = p.entries.length > 1 ? scored.filter((s) => s.risk.lane === 'high') : [];
  const splitKeys = new Set(split.map((s) => s.key));
  const kept = scored.filter((s) => !splitKeys.has(s.key));
  const entries = kept.map((s) => draftOf(ctx, s.e));
  const splitOut: SplitEntry[] = split.map((s) => ({
    entryKey: s.key,
    index: s.index,
    lane: s.risk.lane,
    entry: s.e,
  }));
  const skipped = p.entries.filter((e) => posted.has(batchEntryIdempotencyKey(e.key)));
  return {
    entries,
    facts: {},
    risk: aggregateRisk(kept, settings.highLaneApprovals),
    splitOut,
    async write(tx): Promise<Effect[]> {
      await postEntries(tx, entries);
      return [
        ...entries.map((d) => ({ entityType: 'journal_entry', entityId: d.id, action: 'posted' })),
        ...partsNotApplied(
          'journal_entry',
          (key) => batchEntryId(orgId, key),
          skipped.map((e) => e.key),
          splitOut,
        ),
      ];
    },
  };
}

export const journalPostBatchKind = (
  submitRoles: KindDef<'journal.post_batch'>['submitRoles'],
): KindDef<'journal.post_batch'> => ({
  submitRoles,
  refs: (p) => {
    // Each account once (a batch names the same few accounts many times).
    const seen = new Map<string, string>();
    p.entries.forEach((e, i) =>
      e.lines.forEach((l, j) => {
        if (!seen.has(l.accountId))
          seen.set(l.accountId, `payload.entries.${i}.lines.${j}.accountId`);
      }),
    );
    return [...seen].map(([id, path]) => ({ path, entity: 'account' as const, id }));
  },
  plan: planBatch,
});
