import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { bankLines, memberships } from '../../../db/schema';
import type { Role } from '../../../db/schema';
import {
  accountBySystemRole,
  getAccounts,
  postEntry,
  type EntryDraft,
  type Q,
  type Tx,
} from '../../../db/repositories/ledger';
import { getVendor } from '../../../db/repositories/master-data';
import { ErrorType } from '../../../workflows/errors';
import { isPlaceholderEmail } from '../../../workflows/gateway/placeholder-email';
import type { BankDetails } from '../../../workflows/gateway/writes';
import type { Effect } from '../../../workflows/gateway.contract';
import { GatewayRefusal } from '../refusal';
import type { PlanContext } from '../kind-def';

/**
 * What the write kinds share when they plan: derived ids, entry drafts, the checks that
 * refuse an inactive or unknown account or vendor, and bank detail rows.
 */
export const BOOKKEEPING: Role[] = ['owner', 'admin', 'analyst'];
export const TREASURY: Role[] = ['owner', 'admin'];
export const PAYEE_CHANGE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export function derivedId(prefix: string, key: string): string {
  return `${prefix}-${createHash('sha256').update(key).digest('hex').slice(0, 20)}`;
}
export const entryIdFor = (entryKey: string, n = 0) => derivedId('je', `${entryKey}#${n}`);

export const postsEntries =
  (entries: EntryDraft[], write: (tx: Tx) => Promise<Effect[]> = async () => []) =>
  async (tx: Tx): Promise<Effect[]> => {
    for (const e of entries) await postEntry(tx, e);
    const rest = await write(tx);
    return [
      ...entries.map((e) => ({
        entityType: 'journal_entry',
        entityId: e.id,
        action: e.reversalOf ? 'reversal_posted' : 'posted',
      })),
      ...rest,
    ];
  };

export function draft(
  ctx: PlanContext,
  over: Pick<EntryDraft, 'entryDate' | 'memo' | 'lines'> & { reversalOf?: string | null },
): EntryDraft {
  return {
    id: entryIdFor(ctx.entryKey),
    orgId: ctx.orgId,
    idempotencyKey: ctx.entryKey,
    submissionId: ctx.submissionId,
    sourceRef: ctx.sourceRef,
    reversalOf: over.reversalOf ?? null,
    entryDate: over.entryDate,
    memo: over.memo,
    lines: over.lines,
  };
}

export async function requireActiveAccounts(
  q: Q,
  orgId: string,
  refs: { id: string; path: string }[],
): Promise<void> {
  const rows = await getAccounts(
    q,
    orgId,
    refs.map((r) => r.id),
  );
  const inactive = refs.filter((r) => rows.find((a) => a.id === r.id)?.active === false);
  if (inactive.length > 0) {
    throw new GatewayRefusal(
      ErrorType.InactiveEntity,
      `Inactive account(s): ${inactive.map((r) => r.id).join(', ')}`,
      inactive.map((r) => ({ path: r.path, message: `account ${r.id} is inactive` })),
    );
  }
}

export async function systemAccount(q: Q, orgId: string, role: string): Promise<string> {
  const a = await accountBySystemRole(q, orgId, role);
  if (!a)
    throw new GatewayRefusal(
      ErrorType.UnknownEntity,
      `Org ${orgId} has no account with system role ${role}`,
      [{ path: 'payload', message: `no ${role} account in the chart` }],
    );
  return a.id;
}

export async function holdsRole(q: Q, orgId: string, userId: string, role: Role): Promise<boolean> {
  const rows = await q
    .select({ role: memberships.role })
    .from(memberships)
    .where(
      and(eq(memberships.orgId, orgId), eq(memberships.userId, userId), eq(memberships.role, role)),
    );
  return rows.length > 0;
}

export function placeholders(...emails: (string | null | undefined)[]): string[] {
  return emails.filter((e): e is string => typeof e === 'string' && isPlaceholderEmail(e));
}

export async function requireActiveVendor(q: Q, orgId: string, vendorId: string) {
  const v = await getVendor(q, orgId, vendorId);
  if (!v)
    throw new GatewayRefusal(
      ErrorType.UnknownEntity,
      `Unknown vendor id in org ${orgId}: ${vendorId}`,
      [{ path: 'payload.vendorId', message: `vendor ${vendorId} does not exist` }],
    );
  if (v.status !== 'active')
    throw new GatewayRefusal(ErrorType.InactiveEntity, `Vendor ${vendorId} is inactive`, [
      { path: 'payload.vendorId', message: 'vendor is inactive' },
    ]);
  return v;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function bankRow(
  ctx: PlanContext,
  id: string,
  owner: { vendorId: string } | { ledgerAccountId: string },
  b: BankDetails,
) {
  return {
    id,
    orgId: ctx.orgId,
    ownerType: 'vendorId' in owner ? ('vendor' as const) : ('org' as const),
    vendorId: 'vendorId' in owner ? owner.vendorId : null,
    ledgerAccountId: 'ledgerAccountId' in owner ? owner.ledgerAccountId : null,
    holderName: b.holderName,
    iban: b.iban ?? null,
    accountNumber: b.accountNumber ?? null,
    routingCode: b.routingCode ?? null,
    bic: b.bic ?? null,
    currency: b.currency,
    createdBySubmission: ctx.submissionId,
  };
}

export const sameBank = (
  row: {
    iban: string | null;
    accountNumber: string | null;
    routingCode: string | null;
    bic: string | null;
    currency: string;
    holderName: string;
  },
  b: BankDetails,
) =>
  row.iban === (b.iban ?? null) &&
  row.accountNumber === (b.accountNumber ?? null) &&
  row.routingCode === (b.routingCode ?? null) &&
  row.bic === (b.bic ?? null) &&
  row.currency === b.currency &&
  row.holderName === b.holderName;

/**
 * Links a bank line to the entry it settles, once: checked again under the apply transaction
 * (the plan may be stale), so a line matched concurrently is refused, never matched twice.
 */
export async function matchBankLineOnce(
  tx: Tx,
  ctx: { orgId: string; submissionId: string },
  bankLineId: string,
  entryId: string,
): Promise<void> {
  const done = await tx
    .update(bankLines)
    .set({ matchedEntryId: entryId, matchedBySubmission: ctx.submissionId, matchedAt: sql`now()` })
    .where(
      and(
        eq(bankLines.orgId, ctx.orgId),
        eq(bankLines.id, bankLineId),
        sql`${bankLines.matchedEntryId} is null`,
      ),
    )
    .returning({ id: bankLines.id });
  if (done.length === 0)
    throw new GatewayRefusal(
      ErrorType.AlreadyMatched,
      `Bank line ${bankLineId} was matched concurrently`,
      [{ path: 'payload.bankLineId', message: 'already matched' }],
    );
}
