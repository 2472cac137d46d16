import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import { accounts, fiscalPeriods, journalEntries, journalLines } from '../schema';

/** A transaction or the pool: repository functions run inside the gateway's apply transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Q = Db | Tx;

export interface EntryLineDraft {
  accountId: string;
  currency: string;
  debit: bigint;
  credit: bigint;
  memo: string | null;
}
export interface EntryDraft {
  id: string;
  orgId: string;
  idempotencyKey: string;
  entryDate: string;
  memo: string;
  reversalOf: string | null;
  submissionId: string;
  sourceRef: string | null;
  lines: EntryLineDraft[];
}

/**
 * Posts one entry through ledger_post_entry (migration 0006), the only way into the ledger:
 * it runs only inside the apply transaction of the entry's own submission. It writes the draft
 * row, its lines, then flips it to posted (which the period trigger checks, and which makes
 * the entry immutable). Balance and the applied submission are checked by deferred triggers
 * when the surrounding transaction commits, so call this inside one.
 */
export async function postEntry(tx: Tx, e: EntryDraft): Promise<void> {
  const entry = {
    id: e.id,
    org_id: e.orgId,
    idempotency_key: e.idempotencyKey,
    entry_date: e.entryDate,
    memo: e.memo,
    reversal_of: e.reversalOf,
    submission_id: e.submissionId,
    source_ref: e.sourceRef,
  };
  // bigint amounts travel as digit strings: JSON has no bigint, and a float would round.
  const lines = e.lines.map((l, i) => ({
    line_no: i + 1,
    account_id: l.accountId,
    currency: l.currency,
    debit: l.debit.toString(),
    credit: l.credit.toString(),
    memo: l.memo,
  }));
  await tx.execute(
    sql`select ledger_post_entry(${JSON.stringify(entry)}::jsonb, ${JSON.stringify(lines)}::jsonb)`,
  );
}

/**
 * Posts many entries in one call through ledger_post_entries (the set-based form of
 * ledger_post_entry, same checks): journal.post_batch's apply. No reversals.
 */
export async function postEntries(tx: Tx, drafts: EntryDraft[]): Promise<void> {
  if (drafts.length === 0) return;
  const entries = drafts.map((e) => {
    if (e.reversalOf) throw new Error(`postEntries posts no reversal (${e.id})`);
    return {
      id: e.id,
      org_id: e.orgId,
      idempotency_key: e.idempotencyKey,
      entry_date: e.entryDate,
      memo: e.memo,
      submission_id: e.submissionId,
      source_ref: e.sourceRef,
    };
  });
  const lines = drafts.flatMap((e) =>
    e.lines.map((l, i) => ({
      entry_id: e.id,
      org_id: e.orgId,
      line_no: i + 1,
      account_id: l.accountId,
      currency: l.currency,
      debit: l.debit.toString(),
      credit: l.credit.toString(),
      memo: l.memo,
    })),
  );
  const rows = await tx.execute<{ posted: number }>(
    sql`select ledger_post_entries(${JSON.stringify(entries)}::jsonb, ${JSON.stringify(lines)}::jsonb) as posted`,
  );
  const posted = Number(rows.rows[0]?.posted ?? 0);
  if (posted !== drafts.length)
    throw new Error(`ledger_post_entries posted ${posted} of ${drafts.length} entries`);
}

export async function getEntry(q: Q, orgId: string, entryId: string) {
  const [entry] = await q
    .select()
    .from(journalEntries)
    .where(and(eq(journalEntries.orgId, orgId), eq(journalEntries.id, entryId)));
  if (!entry) return undefined;
  const lines = await q
    .select()
    .from(journalLines)
    .where(eq(journalLines.entryId, entryId))
    .orderBy(asc(journalLines.lineNo));
  return { ...entry, lines };
}

export async function findReversal(q: Q, entryId: string): Promise<string | undefined> {
  const rows = await q
    .select({ id: journalEntries.id })
    .from(journalEntries)
    .where(eq(journalEntries.reversalOf, entryId));
  return rows[0]?.id;
}

/** Accounts among ids that have never had a posted line (the "first posting" risk rule). */
export async function accountsWithoutPostings(
  q: Q,
  orgId: string,
  ids: string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const used = await q
    .selectDistinct({ id: journalLines.accountId })
    .from(journalLines)
    .innerJoin(journalEntries, eq(journalEntries.id, journalLines.entryId))
    .where(
      and(
        eq(journalLines.orgId, orgId),
        inArray(journalLines.accountId, ids),
        eq(journalEntries.status, 'posted'),
      ),
    );
  const set = new Set(used.map((u) => u.id));
  return [...new Set(ids)].filter((id) => !set.has(id));
}

export async function accountBySystemRole(q: Q, orgId: string, role: string) {
  const rows = await q
    .select()
    .from(accounts)
    .where(and(eq(accounts.orgId, orgId), eq(accounts.systemRole, role)));
  return rows[0];
}

export async function getAccounts(q: Q, orgId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return q
    .select()
    .from(accounts)
    .where(and(eq(accounts.orgId, orgId), inArray(accounts.id, ids)));
}

/** Code and name of each of these accounts (what people read instead of the id). */
export async function accountNames(
  q: Q,
  orgId: string,
  ids: string[],
): Promise<Map<string, { code: string; name: string }>> {
  const rows = await getAccounts(q, orgId, [...new Set(ids)]);
  return new Map(rows.map((a) => [a.id, { code: a.code, name: a.name }]));
}

export async function listAccounts(q: Q, orgId: string) {
  return q.select().from(accounts).where(eq(accounts.orgId, orgId)).orderBy(asc(accounts.code));
}

export async function periodStatus(
  q: Q,
  orgId: string,
  period: string,
): Promise<'open' | 'closed'> {
  const rows = await q
    .select({ status: fiscalPeriods.status })
    .from(fiscalPeriods)
    .where(and(eq(fiscalPeriods.orgId, orgId), eq(fiscalPeriods.period, period)));
  return rows[0]?.status ?? 'open';
}

/**
 * Sets a period's status through ledger_set_period_status (only inside the submission's apply
 * transaction); the row lock serializes it against concurrent postings (see the 0003 trigger).
 */
export async function setPeriodStatus(
  tx: Tx,
  orgId: string,
  period: string,
  status: 'open' | 'closed',
  submissionId: string,
): Promise<boolean> {
  const r = await tx.execute<{ changed: boolean }>(
    sql`select ledger_set_period_status(${orgId}, ${period}, ${status}, ${submissionId}) as changed`,
  );
  return r.rows[0]?.changed === true;
}

export interface TrialBalanceRow {
  accountId: string;
  code: string;
  name: string;
  type: string;
  currency: string;
  debits: string;
  credits: string;
  /** debits - credits (positive = debit balance). */
  balance: string;
}
export interface TrialBalance {
  orgId: string;
  asOf: string | null;
  rows: TrialBalanceRow[];
  totals: { currency: string; debits: string; credits: string; net: string }[];
}

/** Trial balance over posted entries (optionally up to a date): per account and currency. */
export async function trialBalance(q: Q, orgId: string, asOf?: string): Promise<TrialBalance> {
  const result = await q.execute<{
    account_id: string;
    code: string;
    name: string;
    type: string;
    currency: string;
    debits: string;
    credits: string;
  }>(sql`
    select a.id as account_id, a.code, a.name, a.type, l.currency, sum(l.debit)::text as debits, sum(l.credit)::text as credits
    from ${journalLines} l
    join ${journalEntries} e on e.id = l.entry_id and e.status = 'posted'
    join ${accounts} a on a.org_id = l.org_id and a.id = l.account_id
    where l.org_id = ${orgId} ${asOf ? sql`and e.entry_date <= ${asOf}` : sql``}
    group by a.id, a.code, a.name, a.type, l.currency
    order by l.currency, a.code`);
  const rows = result.rows.map((r) => ({
    accountId: r.account_id,
    code: r.code,
    name: r.name,
    type: r.type,
    currency: r.currency,
    debits: r.debits,
    credits: r.credits,
    balance: (BigInt(r.debits) - BigInt(r.credits)).toString(),
  }));
  const byCurrency = new Map<string, { debits: bigint; credits: bigint }>();
  for (const r of rows) {
    const t = byCurrency.get(r.currency) ?? { debits: 0n, credits: 0n };
    t.debits += BigInt(r.debits);
    t.credits += BigInt(r.credits);
    byCurrency.set(r.currency, t);
  }
  const totals = [...byCurrency].map(([currency, t]) => ({
    currency,
    debits: t.debits.toString(),
    credits: t.credits.toString(),
    net: (t.debits - t.credits).toString(),
  }));
  return { orgId, asOf: asOf ?? null, rows, totals };
}

/** One account's balance per currency over posted entries. */
export async function accountBalance(
  q: Q,
  orgId: string,
  accountIdValue: string,
): Promise<{ currency: string; debits: string; credits: string; balance: string }[]> {
  const result = await q.execute<{ currency: string; debits: string; credits: string }>(sql`
    select l.currency, sum(l.debit)::text as debits, sum(l.credit)::text as credits
    from ${journalLines} l join ${journalEntries} e on e.id = l.entry_id and e.status = 'posted'
    where l.org_id = ${orgId} and l.account_id = ${accountIdValue}
    group by l.currency order by l.currency`);
  return result.rows.map((r) => ({
    ...r,
    balance: (BigInt(r.debits) - BigInt(r.credits)).toString(),
  }));
}

export async function countEntries(q: Q, orgId: string): Promise<number> {
  const r = await q
    .select({ n: sql<number>`count(*)::int` })
    .from(journalEntries)
    .where(eq(journalEntries.orgId, orgId));
  return r[0]?.n ?? 0;
}
