import { and, asc, eq, inArray, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import {
  accounts,
  bankAccounts,
  bankLines,
  billSettlements,
  bills,
  customers,
  journalEntries,
  paymentTerms,
  payments,
  taxCodes,
  vendorCredits,
  vendors,
} from '../schema';
import type { Q } from './ledger';

/** Entity types a write can reference; each maps to its org-scoped table. */
export const ENTITY_TABLES = {
  account: accounts,
  vendor: vendors,
  customer: customers,
  taxCode: taxCodes,
  paymentTerms: paymentTerms,
  bankAccount: bankAccounts,
  bankLine: bankLines,
  bill: bills,
  entry: journalEntries,
} as const;
export type EntityType = keyof typeof ENTITY_TABLES;

/** The ids among `ids` that exist in the org (an id of another org does not exist here). */
export async function existingIds(
  q: Q,
  entity: EntityType,
  orgId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const t = ENTITY_TABLES[entity];
  const rows = await q
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.orgId, orgId), inArray(t.id, [...new Set(ids)])));
  return new Set(rows.map((r) => r.id));
}

export async function getVendor(q: Q, orgId: string, id: string) {
  const [row] = await q
    .select()
    .from(vendors)
    .where(and(eq(vendors.orgId, orgId), eq(vendors.id, id)));
  return row;
}

export async function currentPayeeAccount(q: Q, orgId: string, vendorId: string) {
  const [row] = await q
    .select()
    .from(bankAccounts)
    .where(
      and(
        eq(bankAccounts.orgId, orgId),
        eq(bankAccounts.vendorId, vendorId),
        isNull(bankAccounts.retiredAt),
      ),
    );
  return row;
}

export async function getBankAccount(q: Q, orgId: string, id: string) {
  const [row] = await q
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.orgId, orgId), eq(bankAccounts.id, id)));
  return row;
}

export async function getTaxCodes(q: Q, orgId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return q
    .select()
    .from(taxCodes)
    .where(and(eq(taxCodes.orgId, orgId), inArray(taxCodes.id, ids)));
}

export async function getPaymentTerms(q: Q, orgId: string, id: string) {
  const [row] = await q
    .select()
    .from(paymentTerms)
    .where(and(eq(paymentTerms.orgId, orgId), eq(paymentTerms.id, id)));
  return row;
}

export async function getBill(q: Q, orgId: string, id: string) {
  const [row] = await q
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, orgId), eq(bills.id, id)));
  return row;
}

/**
 * The vendor's bill with this number, compared as the unique index `bills_org_vendor_number_norm`
 * compares (case, spaces and a leading '#' ignored): "inv 001" is the posted "INV001".
 */
export async function findBillByNumber(q: Q, orgId: string, vendorId: string, billNumber: string) {
  const [row] = await q
    .select()
    .from(bills)
    .where(
      and(
        eq(bills.orgId, orgId),
        eq(bills.vendorId, vendorId),
        sql`upper(regexp_replace(${bills.billNumber}, '^#|\\s', '', 'g')) = upper(regexp_replace(${billNumber}, '^#|\\s', '', 'g'))`,
      ),
    );
  return row;
}

/** The vendor's credit note with this number, compared as vendor_credits_org_vendor_number_norm compares. */
export async function findCreditByNumber(
  q: Q,
  orgId: string,
  vendorId: string,
  creditNumber: string,
) {
  const [row] = await q
    .select()
    .from(vendorCredits)
    .where(
      and(
        eq(vendorCredits.orgId, orgId),
        eq(vendorCredits.vendorId, vendorId),
        sql`upper(regexp_replace(${vendorCredits.creditNumber}, '^#|\\s', '', 'g')) = upper(regexp_replace(${creditNumber}, '^#|\\s', '', 'g'))`,
      ),
    );
  return row;
}

/**
 * What is paid on a bill — its payments (payment.send) and its settlement by a bank line
 * (bill.settle) — as an SQL expression over an org and a bill (values, or columns of an outer
 * query), so one definition serves one bill and a list of them.
 */
function paidSql(orgId: SQLWrapper | string, billId: SQLWrapper | string): SQL {
  return sql`(coalesce((select sum(${payments.amountMinor}) from ${payments} where ${payments.orgId} = ${orgId} and ${payments.billId} = ${billId}), 0) + coalesce((select sum(${billSettlements.amountMinor}) from ${billSettlements} where ${billSettlements.orgId} = ${orgId} and ${billSettlements.billId} = ${billId}), 0))`;
}

/** What vendor credits (bill.credit) took off a bill — it is owed that much less — likewise. */
function creditedSql(orgId: SQLWrapper | string, billId: SQLWrapper | string): SQL {
  return sql`coalesce((select sum(${vendorCredits.appliedMinor}) from ${vendorCredits} where ${vendorCredits.orgId} = ${orgId} and ${vendorCredits.appliedBillId} = ${billId}), 0)`;
}

async function scalarMinor(q: Q, expr: SQL): Promise<bigint> {
  const r = await q.execute<{ n: string }>(sql`select (${expr})::text as n`);
  return BigInt(r.rows[0]?.n ?? '0');
}

/** What vendor credits (bill.credit) took off a bill: it is owed that much less. */
export async function creditedOnBill(q: Q, orgId: string, billId: string): Promise<bigint> {
  return scalarMinor(q, creditedSql(orgId, billId));
}

/** What is paid on a bill: its payments (payment.send) and its settlement by a bank line (bill.settle). */
export async function paidOnBill(q: Q, orgId: string, billId: string): Promise<bigint> {
  return scalarMinor(q, paidSql(orgId, billId));
}

/**
 * A vendor's bills still owed — paid plus credited below its total — oldest due first, each
 * with what is paid on it. One query however many bills the vendor has (per bill it was three:
 * the AP context grew with every bill the vendor ever sent).
 */
export async function openBillsOfVendor(q: Q, orgId: string, vendorId: string) {
  const paid = paidSql(bills.orgId, bills.id);
  const credited = creditedSql(bills.orgId, bills.id);
  const rows = await q
    .select({
      id: bills.id,
      billNumber: bills.billNumber,
      dueDate: bills.dueDate,
      currency: bills.currency,
      totalMinor: bills.totalMinor,
      paidMinor: sql<string>`${paid}::text`,
    })
    .from(bills)
    .where(
      and(
        eq(bills.orgId, orgId),
        eq(bills.vendorId, vendorId),
        sql`${paid} + ${credited} < ${bills.totalMinor}`,
      ),
    )
    .orderBy(asc(bills.dueDate), asc(bills.id));
  return rows.map((r) => ({ ...r, paidMinor: BigInt(r.paidMinor) }));
}

export async function getBankLine(q: Q, orgId: string, id: string) {
  const [row] = await q
    .select()
    .from(bankLines)
    .where(and(eq(bankLines.orgId, orgId), eq(bankLines.id, id)));
  return row;
}

/** Bank statement lines arrive from a connector sync: source data, not books (no gateway). */
export async function insertBankLines(
  q: Q,
  lines: {
    id: string;
    orgId: string;
    bankAccountId: string;
    bookedOn: string;
    amountMinor: bigint;
    currency: string;
    description: string;
  }[],
): Promise<void> {
  if (lines.length === 0) return;
  await q.insert(bankLines).values(lines).onConflictDoNothing();
}
