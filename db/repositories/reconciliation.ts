import { createHash } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import {
  bankAccounts,
  bankLineReconciliations,
  bankLines,
  billSettlements,
  bills,
  payments,
  vendors,
  type ReconciliationStatus,
} from '../schema';
import { STATEMENT_FEED_ID } from '../../workflows/agent-runs/tools';

/**
 * The reconciliation agent's reads and its memory: statement lines stored as bank lines (once
 * per account and externalId), the state of each line's reconciliation, and the candidates a
 * line may match — posted entries on the bank's ledger account and open bills.
 */
export interface StatementLineInput {
  externalId: string;
  bookedOn: string;
  amountMinor: string;
  currency: string;
  description: string;
  reference: string | null;
  counterpartyName: string | null;
  counterpartyAccount: string | null;
}
export interface StoredLine extends StatementLineInput {
  id: string;
  bankAccountId: string;
}

/** Account numbers compare without spaces and case ("DE89 3704…" is "de893704…"). */
export const accountKey = (n: string) => n.replace(/[\s-]/g, '').toUpperCase();

/** The bank line id of a statement line: stable, so a re-delivered line is the same row. */
export const bankLineIdFor = (bankAccountId: string, externalId: string) =>
  `bl-${createHash('sha256').update(`${bankAccountId}\n${externalId}`).digest('hex').slice(0, 24)}`;

/** The org's own active bank accounts whose IBAN or number is one of these (compared as keys). */
export async function orgBankAccountsByNumber(
  db: Db,
  orgId: string,
  numbers: string[],
): Promise<(typeof bankAccounts.$inferSelect)[]> {
  const keys = numbers.map(accountKey).filter((k) => k.length > 0);
  if (keys.length === 0) return [];
  const rows = await db
    .select()
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.orgId, orgId),
        eq(bankAccounts.ownerType, 'org'),
        isNull(bankAccounts.retiredAt),
      ),
    )
    .orderBy(asc(bankAccounts.id));
  return rows.filter(
    (r) =>
      (r.iban !== null && keys.includes(accountKey(r.iban))) ||
      (r.accountNumber !== null && keys.includes(accountKey(r.accountNumber))),
  );
}

/**
 * Stores lines of one bank account and opens their reconciliation (`pending`), in one
 * transaction; a line already stored (same account and externalId) is kept as it is. Returns
 * how many were new and, of these lines, the ones still pending.
 */
export async function storeStatementLines(
  db: Db,
  orgId: string,
  runId: string,
  bankAccountId: string,
  lines: StatementLineInput[],
): Promise<{ stored: number; pending: StoredLine[] }> {
  if (lines.length === 0) return { stored: 0, pending: [] };
  const rows = lines.map((l) => ({
    id: bankLineIdFor(bankAccountId, l.externalId),
    orgId,
    bankAccountId,
    bookedOn: l.bookedOn,
    amountMinor: BigInt(l.amountMinor),
    currency: l.currency,
    description: l.description,
    externalId: l.externalId,
    reference: l.reference,
    counterpartyName: l.counterpartyName,
    counterpartyAccount: l.counterpartyAccount,
  }));
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(bankLines)
      .values(rows)
      .onConflictDoNothing()
      .returning({ id: bankLines.id });
    await tx
      .insert(bankLineReconciliations)
      .values(rows.map((r) => ({ orgId, bankLineId: r.id, runId })))
      .onConflictDoNothing();
    const ids = rows.map((r) => r.id);
    const pending = await tx
      .select({ line: bankLines })
      .from(bankLines)
      .innerJoin(
        bankLineReconciliations,
        and(
          eq(bankLineReconciliations.orgId, bankLines.orgId),
          eq(bankLineReconciliations.bankLineId, bankLines.id),
        ),
      )
      .where(
        and(
          eq(bankLines.orgId, orgId),
          inArray(bankLines.id, ids),
          eq(bankLineReconciliations.status, 'pending'),
          isNull(bankLines.matchedEntryId),
        ),
      )
      .orderBy(asc(bankLines.bookedOn), asc(bankLines.id));
    return { stored: inserted.length, pending: pending.map((p) => storedLine(p.line)) };
  });
}

function storedLine(l: typeof bankLines.$inferSelect): StoredLine {
  return {
    id: l.id,
    bankAccountId: l.bankAccountId,
    externalId: l.externalId ?? l.id,
    bookedOn: l.bookedOn,
    amountMinor: l.amountMinor.toString(),
    currency: l.currency,
    description: l.description,
    reference: l.reference,
    counterpartyName: l.counterpartyName,
    counterpartyAccount: l.counterpartyAccount,
  };
}

/**
 * Entries the bank processor posted for a statement line handed on to it (journal.post_batch
 * keys each entry `batch-entry:<line key>`, the line key `statement:<bank line id>`): that
 * line's own. A LIKE prefix, its wildcards escaped.
 */
const handedOnKeyPrefix = `batch-entry:${STATEMENT_FEED_ID}:`.replace(/[%_\\]/g, '\\$&');

/**
 * Posted entries dated from..to that move money on the ledger account (net debit minus
 * credit, in the currency), that no bank line is matched to yet and that were not posted by
 * the bank transaction processor for a statement line handed on to it.
 */
export async function unmatchedEntriesOn(
  db: Db,
  orgId: string,
  ledgerAccountId: string,
  currency: string,
  from: string,
  to: string,
): Promise<{ entryId: string; entryDate: string; netMinor: string; memo: string }[]> {
  const r = await db.execute<{ entry_id: string; entry_date: string; net: string; memo: string }>(
    sql`select e.id as entry_id, e.entry_date::text as entry_date, e.memo,
               sum(l.debit - l.credit)::text as net
          from journal_entries e
          join journal_lines l on l.entry_id = e.id and l.org_id = e.org_id
         where e.org_id = ${orgId} and e.status = 'posted'
           and e.entry_date between ${from}::date and ${to}::date
           and l.account_id = ${ledgerAccountId} and l.currency = ${currency}
           and not exists (select 1 from bank_lines b
                            where b.org_id = e.org_id and b.matched_entry_id = e.id)
           and e.idempotency_key not like ${`${handedOnKeyPrefix}%`}
         group by e.id, e.entry_date, e.memo
        having sum(l.debit - l.credit) <> 0
         order by e.entry_date, e.id
         limit 5000`,
  );
  return r.rows.map((x) => ({
    entryId: x.entry_id,
    entryDate: x.entry_date,
    netMinor: x.net,
    memo: x.memo,
  }));
}

/**
 * The org's open bills in a currency issued by `to` and due from `from`: not settled and with
 * nothing paid (a bill partly paid by payment.send is matched through its payment's entry),
 * each with its vendor's name and bank details (every account it has had, retired included:
 * an old payment may still arrive from the old details).
 */
export async function openBillsBetween(
  db: Db,
  orgId: string,
  currency: string,
  from: string,
  to: string,
) {
  const rows = await db
    .select({
      id: bills.id,
      billNumber: bills.billNumber,
      billDate: bills.billDate,
      dueDate: bills.dueDate,
      currency: bills.currency,
      totalMinor: bills.totalMinor,
      vendorId: bills.vendorId,
      vendorName: vendors.name,
    })
    .from(bills)
    .innerJoin(vendors, and(eq(vendors.orgId, bills.orgId), eq(vendors.id, bills.vendorId)))
    .where(
      and(
        eq(bills.orgId, orgId),
        eq(bills.currency, currency),
        isNull(bills.settledAt),
        lte(bills.billDate, to),
        gte(bills.dueDate, from),
        sql`not exists (select 1 from ${payments} p where p.org_id = ${bills.orgId} and p.bill_id = ${bills.id})`,
        sql`not exists (select 1 from ${billSettlements} s where s.org_id = ${bills.orgId} and s.bill_id = ${bills.id})`,
      ),
    )
    .orderBy(asc(bills.dueDate), asc(bills.id))
    .limit(5000);
  const vendorIds = [...new Set(rows.map((r) => r.vendorId))];
  const accounts =
    vendorIds.length === 0
      ? []
      : await db
          .select({
            vendorId: bankAccounts.vendorId,
            iban: bankAccounts.iban,
            accountNumber: bankAccounts.accountNumber,
          })
          .from(bankAccounts)
          .where(and(eq(bankAccounts.orgId, orgId), inArray(bankAccounts.vendorId, vendorIds)));
  const byVendor = new Map<string, string[]>();
  for (const a of accounts)
    for (const n of [a.iban, a.accountNumber])
      if (a.vendorId && n) byVendor.set(a.vendorId, [...(byVendor.get(a.vendorId) ?? []), n]);
  return rows.map((r) => ({
    ...r,
    totalMinor: r.totalMinor.toString(),
    vendorAccounts: byVendor.get(r.vendorId) ?? [],
  }));
}

/**
 * Records decisions. A line moves forward only: from pending to any decision, or from asked
 * (its request answered) to matched, settled or handed_on. Returns the rows changed.
 */
export async function recordReconciliations(
  db: Db,
  orgId: string,
  runId: string,
  lines: {
    bankLineId: string;
    status: Exclude<ReconciliationStatus, 'pending'>;
    requestId?: string;
    submissionId?: string;
    candidates?: string[];
  }[],
): Promise<number> {
  let n = 0;
  await db.transaction(async (tx) => {
    for (const l of lines) {
      const from: ReconciliationStatus[] =
        l.status === 'asked' ? ['pending'] : ['pending', 'asked'];
      const done = await tx
        .update(bankLineReconciliations)
        .set({
          status: l.status,
          runId,
          ...(l.requestId !== undefined ? { requestId: l.requestId } : {}),
          ...(l.submissionId !== undefined ? { submissionId: l.submissionId } : {}),
          ...(l.candidates !== undefined ? { candidates: l.candidates } : {}),
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(bankLineReconciliations.orgId, orgId),
            eq(bankLineReconciliations.bankLineId, l.bankLineId),
            inArray(bankLineReconciliations.status, from),
          ),
        )
        .returning({ id: bankLineReconciliations.bankLineId });
      n += done.length;
    }
  });
  return n;
}

/** The lines still asked in a request, with the ids offered, and their bank accounts. */
export async function askedReconciliations(db: Db, orgId: string, requestId: string) {
  const rows = await db
    .select({ line: bankLines, candidates: bankLineReconciliations.candidates })
    .from(bankLineReconciliations)
    .innerJoin(
      bankLines,
      and(
        eq(bankLines.orgId, bankLineReconciliations.orgId),
        eq(bankLines.id, bankLineReconciliations.bankLineId),
      ),
    )
    .where(
      and(
        eq(bankLineReconciliations.orgId, orgId),
        eq(bankLineReconciliations.requestId, requestId),
        eq(bankLineReconciliations.status, 'asked'),
      ),
    )
    .orderBy(asc(bankLines.bookedOn), asc(bankLines.id));
  const accountIds = [...new Set(rows.map((r) => r.line.bankAccountId))];
  const accounts =
    accountIds.length === 0
      ? []
      : await db
          .select({ id: bankAccounts.id, ledgerAccountId: bankAccounts.ledgerAccountId })
          .from(bankAccounts)
          .where(and(eq(bankAccounts.orgId, orgId), inArray(bankAccounts.id, accountIds)));
  return {
    lines: rows.map((r) => ({ ...storedLine(r.line), candidates: r.candidates })),
    accounts: accounts.flatMap((a) =>
      a.ledgerAccountId ? [{ bankAccountId: a.id, ledgerAccountId: a.ledgerAccountId }] : [],
    ),
  };
}
