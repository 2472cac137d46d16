import { and, eq, inArray } from 'drizzle-orm';
import { bills, gatewaySubmissions, journalEntries } from '../../db/schema';
import { getRiskSettings } from '../../db/repositories/gateway';
import { accountsWithoutPostings, periodStatus } from '../../db/repositories/ledger';
import { ErrorType } from '../../workflows/errors';
import { scoreRisk, type RiskAssessment } from '../../workflows/gateway/risk';
import {
  splitIdempotencyKey,
  type BillBatchEntry,
  type WriteIssue,
  type WritePayload,
} from '../../workflows/gateway/writes';
import type { Effect } from '../../workflows/gateway.contract';
import { canonicalJson } from '../../workflows/canonical-json';
import type { KindDef, Plan, PlanContext, Ref, SplitEntry } from './kind-def';
import { billPostKind } from './kinds/bill-post';
import { derivedId } from './kinds/plan-helpers';
import { aggregateRisk, partsNotApplied } from './batch-parts';
import { GatewayRefusal } from './refusal';

/**
 * bill.post_batch: a bill processor's batch of bills in one submission. Each bill is planned by
 * bill.post's own plan (vendor active, not a duplicate, expense and input-tax lines, terms,
 * payee check) under a key of its own, so its journal entry and bill row are the same whichever
 * submission carries it: a bill already posted under its key is skipped and reported, and a key
 * that already names another bill refuses the batch. Each bill is risk-scored on its own, as a
 * bill.post would be. The bills in the low lane are applied together in one transaction; every
 * other bill is split out to its own submission (a batch of one, started by the gateway
 * workflow) and waits for its own approval instead of holding the batch. A bill that fails its
 * plan refuses the batch with the bill's index in every issue path, so the submitter can drop
 * or fix exactly that bill.
 */
export const billEntryKey = (orgId: string, key: string) => `bill-batch:${orgId}:${key}`;
export const billBatchBillId = (orgId: string, key: string) =>
  derivedId('bill', billEntryKey(orgId, key));

/** Whether two bills under one key are the same bill (every field of the entry). */
export const sameBill = (a: BillBatchEntry, b: BillBatchEntry): boolean =>
  canonicalJson(a) === canonicalJson(b);

const entryPath = (index: number, path: string) =>
  `payload.entries.${index}.${path.replace(/^payload\.?/, '')}`.replace(/\.$/, '');

const billPayload = (e: BillBatchEntry): WritePayload<'bill.post'> => {
  const { key: _key, sourceDocumentId: _doc, ...bill } = e;
  return bill;
};

/** Keys already on the books, after refusing any that name a different bill. */
async function postedKeys(ctx: PlanContext, p: WritePayload<'bill.post_batch'>) {
  const { q, orgId } = ctx;
  const byEntryKey = new Map(
    p.entries.map((e, index) => [billEntryKey(orgId, e.key), { e, index }]),
  );
  const posted = new Set(
    (
      await q
        .select({ key: journalEntries.idempotencyKey })
        .from(journalEntries)
        .where(
          and(
            eq(journalEntries.orgId, orgId),
            inArray(journalEntries.idempotencyKey, [...byEntryKey.keys()]),
          ),
        )
    ).map((r) => r.key),
  );
  const conflicts: WriteIssue[] = [];
  if (posted.size > 0) {
    const ids = new Map([...posted].map((k) => [derivedId('bill', k), byEntryKey.get(k)!]));
    const rows = await q
      .select()
      .from(bills)
      .where(and(eq(bills.orgId, orgId), inArray(bills.id, [...ids.keys()])));
    for (const r of rows) {
      const { e, index } = ids.get(r.id)!;
      if (
        r.vendorId !== e.vendorId ||
        r.billNumber !== e.billNumber ||
        r.billDate !== e.billDate ||
        r.currency !== e.currency
      )
        conflicts.push({
          path: `payload.entries.${index}.key`,
          message: `key ${e.key} already posted bill ${r.billNumber} of vendor ${r.vendorId} (${r.id})`,
        });
    }
  }
  const splits = await q
    .select({ key: gatewaySubmissions.idempotencyKey, payload: gatewaySubmissions.payload })
    .from(gatewaySubmissions)
    .where(
      and(
        eq(gatewaySubmissions.orgId, orgId),
        inArray(
          gatewaySubmissions.idempotencyKey,
          p.entries.map((e) => splitIdempotencyKey(e.key)),
        ),
      ),
    );
  const byKey = new Map(p.entries.map((e, index) => [e.key, { e, index }]));
  for (const s of splits) {
    const mine = byKey.get(s.key.slice(splitIdempotencyKey('').length));
    const theirs = (s.payload as { entries?: BillBatchEntry[] }).entries?.[0];
    if (mine && (!theirs || !sameBill(theirs, mine.e)))
      conflicts.push({
        path: `payload.entries.${mine.index}.key`,
        message: `split-out submission ${s.key} carries another bill under key ${mine.e.key}`,
      });
  }
  if (conflicts.length > 0)
    throw new GatewayRefusal(
      ErrorType.IdempotencyConflict,
      `Bill key(s) already name a different bill; submit the changed bills under new keys: ${conflicts.map((c) => c.message).join('; ')}`,
      conflicts,
    );
  return posted;
}

async function planBillBatch(ctx: PlanContext, p: WritePayload<'bill.post_batch'>): Promise<Plan> {
  const { q, orgId } = ctx;
  const posted = await postedKeys(ctx, p);
  const todo = p.entries
    .map((e, index) => ({ e, index, entryKey: billEntryKey(orgId, e.key) }))
    .filter((t) => !posted.has(t.entryKey));

  // Each bill planned as bill.post plans it; every refusal is collected, with its bill's index.
  const refusals: { index: number; key: string; refusal: GatewayRefusal }[] = [];
  const planned: { e: BillBatchEntry; index: number; plan: Plan }[] = [];
  const periods = new Map<string, 'open' | 'closed'>();
  for (const t of todo) {
    try {
      const plan = await billPostKind.plan(
        {
          ...ctx,
          entryKey: t.entryKey,
          sourceRef: t.e.sourceDocumentId ? `document:${t.e.sourceDocumentId}` : ctx.sourceRef,
        },
        billPayload(t.e),
      );
      const period = t.e.billDate.slice(0, 7);
      if (!periods.has(period)) periods.set(period, await periodStatus(q, orgId, period));
      if (periods.get(period) === 'closed')
        throw new GatewayRefusal(
          ErrorType.PeriodClosed,
          `Period ${period} is closed for org ${orgId}`,
          [{ path: 'payload.billDate', message: `period ${period} is closed` }],
        );
      planned.push({ e: t.e, index: t.index, plan });
    } catch (err) {
      if (!(err instanceof GatewayRefusal)) throw err;
      refusals.push({ index: t.index, key: t.e.key, refusal: err });
    }
  }
  if (refusals.length > 0) {
    const types = new Set(refusals.map((r) => r.refusal.type));
    throw new GatewayRefusal(
      types.size === 1 ? refusals[0]!.refusal.type : ErrorType.InvalidWrite,
      `${refusals.length} of ${p.entries.length} bill(s) refused: ${refusals
        .map((r) => `entries.${r.index} (${r.key}): ${r.refusal.message}`)
        .join('; ')}`,
      refusals.flatMap((r) =>
        (r.refusal.issues.length > 0
          ? r.refusal.issues
          : [{ path: 'payload', message: r.refusal.message }]
        ).map((i) => ({
          path: entryPath(r.index, i.path),
          message: `${r.refusal.type}: ${i.message}`,
        })),
      ),
    );
  }

  // Each bill scored on its own facts, as bill.post would be.
  const settings = await getRiskSettings(q, orgId);
  const accountIds = [
    ...new Set(
      planned.flatMap((b) => b.plan.entries.flatMap((e) => e.lines.map((l) => l.accountId))),
    ),
  ];
  const unposted = new Set(await accountsWithoutPostings(q, orgId, accountIds));
  const scored = planned.map((b) => {
    const gross = new Map<string, bigint>();
    for (const e of b.plan.entries)
      for (const l of e.lines) gross.set(l.currency, (gross.get(l.currency) ?? 0n) + l.debit);
    const risk: RiskAssessment = scoreRisk(
      {
        kind: 'bill.post',
        amounts: [...gross].map(([currency, n]) => ({ currency, amountMinor: n.toString() })),
        irreversible: false,
        payeeBankDetails: null,
        payeeBankDetailsRecentlyChanged: false,
        placeholderContacts: [],
        firstPostingAccounts: [
          ...new Set(b.plan.entries.flatMap((e) => e.lines.map((l) => l.accountId))),
        ].filter((a) => unposted.has(a)),
        reversal: false,
        periodChange: null,
        newMasterData: false,
        ...b.plan.facts,
      },
      settings,
    );
    return { ...b, key: b.e.key, risk };
  });
  // A bill that needs a person goes to its own approval — unless it is all the batch carries.
  const split = p.entries.length > 1 ? scored.filter((s) => s.risk.lane !== 'low') : [];
  const splitKeys = new Set(split.map((s) => s.key));
  const kept = scored.filter((s) => !splitKeys.has(s.key));
  const splitOut: SplitEntry[] = split.map((s) => ({
    entryKey: s.key,
    index: s.index,
    lane: s.risk.lane,
    entry: s.e,
  }));
  const skipped = p.entries.filter((e) => posted.has(billEntryKey(orgId, e.key)));
  return {
    entries: kept.flatMap((b) => b.plan.entries),
    facts: {},
    risk: aggregateRisk(kept, settings.highLaneApprovals),
    splitOut,
    async write(tx): Promise<Effect[]> {
      const effects: Effect[] = [];
      for (const b of kept) effects.push(...(await b.plan.write(tx)));
      return [
        ...effects,
        ...partsNotApplied(
          'bill',
          (key) => billBatchBillId(orgId, key),
          skipped.map((e) => e.key),
          splitOut,
        ),
      ];
    },
  };
}

export const billPostBatchKind = (
  submitRoles: KindDef<'bill.post_batch'>['submitRoles'],
): KindDef<'bill.post_batch'> => ({
  submitRoles,
  refs: (p) => {
    // Each id once (a batch names the same vendor and accounts many times).
    const seen = new Map<string, Ref>();
    p.entries.forEach((e, i) => {
      const refs = billPostKind.refs(billPayload(e));
      for (const r of refs) {
        const id = `${r.entity}\u0000${r.id}`;
        if (!seen.has(id)) seen.set(id, { ...r, path: entryPath(i, r.path) });
      }
    });
    return [...seen.values()];
  },
  plan: planBillBatch,
});
