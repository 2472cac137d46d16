import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  accounts,
  bankAccounts,
  bankLines,
  billSettlements,
  gatewayRiskSettings,
  memberships,
  users,
  bills,
  customers,
  payments,
  paymentTerms,
  taxCodes,
  vendors,
} from '../../db/schema';
import type { Role } from '../../db/schema';
import { getRiskSettings } from '../../db/repositories/gateway';
import {
  accountBySystemRole,
  findReversal,
  getAccounts,
  getEntry,
  periodStatus,
  postEntry,
  setPeriodStatus,
  type EntryDraft,
  type Q,
  type Tx,
} from '../../db/repositories/ledger';
import {
  currentPayeeAccount,
  findBillByNumber,
  getBankAccount,
  getBankLine,
  getBill,
  getPaymentTerms,
  getVendor,
  paidOnBill,
  creditedOnBill,
} from '../../db/repositories/master-data';
import { ErrorType } from '../../workflows/errors';
import { isPlaceholderEmail } from '../../workflows/gateway/placeholder-email';
import type { BankDetails, WriteKind } from '../../workflows/gateway/writes';
import type { Effect } from '../../workflows/gateway.contract';
import { GatewayRefusal } from './refusal';
import type { KindDef, PlanContext, Ref } from './kind-def';
import { journalPostBatchKind } from './journal-batch';
import { expenseLines } from './bill-lines';
import { billCreditKind } from './bill-credit';

const BOOKKEEPING: Role[] = ['owner', 'admin', 'analyst'];
const TREASURY: Role[] = ['owner', 'admin'];
const PAYEE_CHANGE_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

export function derivedId(prefix: string, key: string): string {
  return `${prefix}-${createHash('sha256').update(key).digest('hex').slice(0, 20)}`;
}
export const entryIdFor = (entryKey: string, n = 0) => derivedId('je', `${entryKey}#${n}`);

const postsEntries =
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

function draft(
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

async function requireActiveAccounts(
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

async function systemAccount(q: Q, orgId: string, role: string): Promise<string> {
  const a = await accountBySystemRole(q, orgId, role);
  if (!a)
    throw new GatewayRefusal(
      ErrorType.UnknownEntity,
      `Org ${orgId} has no account with system role ${role}`,
      [{ path: 'payload', message: `no ${role} account in the chart` }],
    );
  return a.id;
}

async function holdsRole(q: Q, orgId: string, userId: string, role: Role): Promise<boolean> {
  const rows = await q
    .select({ role: memberships.role })
    .from(memberships)
    .where(
      and(eq(memberships.orgId, orgId), eq(memberships.userId, userId), eq(memberships.role, role)),
    );
  return rows.length > 0;
}

function placeholders(...emails: (string | null | undefined)[]): string[] {
  return emails.filter((e): e is string => typeof e === 'string' && isPlaceholderEmail(e));
}

async function requireActiveVendor(q: Q, orgId: string, vendorId: string) {
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

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function bankRow(
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

const sameBank = (
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

/** period.close and period.reopen: the same state change in opposite directions. */
function periodStatusChange(target: 'open' | 'closed'): KindDef<'period.close' | 'period.reopen'> {
  const conflict = (period: string) =>
    new GatewayRefusal(
      ErrorType.PeriodStateConflict,
      `Period ${period} is ${target === 'closed' ? 'already closed' : 'not closed'}`,
      [{ path: 'payload.period', message: target === 'closed' ? 'already closed' : 'not closed' }],
    );
  return {
    submitRoles: TREASURY,
    refs: () => [],
    async plan(ctx, p) {
      const current = await periodStatus(ctx.q, ctx.orgId, p.period);
      if ((current === 'closed') === (target === 'closed')) throw conflict(p.period);
      return {
        entries: [],
        facts: { periodChange: target === 'closed' ? 'close' : 'reopen' },
        async write(tx) {
          // The state is checked again inside the apply transaction: the plan may be stale.
          if (!(await setPeriodStatus(tx, ctx.orgId, p.period, target, ctx.submissionId)))
            throw conflict(p.period);
          return [
            {
              entityType: 'period',
              entityId: `${ctx.orgId}:${p.period}`,
              action: target === 'closed' ? 'closed' : 'reopened',
            },
          ];
        },
      };
    },
  };
}

/**
 * Links a bank line to the entry it settles, once: checked again under the apply transaction
 * (the plan may be stale), so a line matched concurrently is refused, never matched twice.
 */
async function matchBankLineOnce(
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

/**
 * The registry of write kinds: who may submit each, which entity ids it references, and how
 * it plans (reads only: the entries it would post, the facts risk scoring needs) and applies
 * (writes, inside the one apply transaction). Planning runs at submit, in dry runs, and again
 * inside the apply transaction, so approval delays cannot apply a write against stale state.
 */
export const WRITE_KINDS_REGISTRY: { [K in WriteKind]: KindDef<K> } = {
  'journal.post': {
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
  },

  'journal.post_batch': journalPostBatchKind(BOOKKEEPING),

  'journal.reverse': {
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
  },

  'bill.post': {
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
      const dup = await findBillByNumber(ctx.q, ctx.orgId, p.vendorId, p.billNumber);
      if (dup)
        throw new GatewayRefusal(
          ErrorType.DuplicateEntity,
          `Bill ${p.billNumber} of vendor ${p.vendorId} is already posted (${dup.id})`,
          [{ path: 'payload.billNumber', message: `already posted as ${dup.id}` }],
        );
      const fallback =
        vendor.defaultExpenseAccountId ??
        (await systemAccount(ctx.q, ctx.orgId, 'default_expense'));
      const expense = await expenseLines(
        ctx.q,
        ctx.orgId,
        { date: p.billDate, lines: p.lines },
        fallback,
      );
      const total = expense.total;
      const lines: EntryDraft['lines'] = expense.lines.map((l) => ({
        accountId: l.accountId,
        currency: p.currency,
        debit: l.amount,
        credit: 0n,
        memo: l.memo,
      }));
      const ap = await systemAccount(ctx.q, ctx.orgId, 'accounts_payable');
      lines.push({
        accountId: ap,
        currency: p.currency,
        debit: 0n,
        credit: total,
        memo: `${vendor.name} ${p.billNumber}`,
      });
      await requireActiveAccounts(
        ctx.q,
        ctx.orgId,
        lines.map((l) => ({ id: l.accountId, path: 'payload.lines' })),
      );
      const terms = vendor.paymentTermsId
        ? await getPaymentTerms(ctx.q, ctx.orgId, vendor.paymentTermsId)
        : undefined;
      const dueDate = p.dueDate ?? addDays(p.billDate, terms?.dueDays ?? 30);
      const entry = draft(ctx, {
        entryDate: p.billDate,
        memo: `Bill ${p.billNumber} from ${vendor.name}`,
        lines,
      });
      const billId = derivedId('bill', ctx.entryKey);
      // A bill asking to be paid to another account than the vendor's stored one is the
      // payee-change fraud pattern: the same rule as a changed payee.
      const stored = p.payeeIban
        ? await currentPayeeAccount(ctx.q, ctx.orgId, p.vendorId)
        : undefined;
      const payeeChanged = !!stored?.iban && stored.iban !== p.payeeIban;
      return {
        entries: [entry],
        postingDate: { date: p.billDate, path: 'payload.billDate' },
        facts: {
          placeholderContacts: placeholders(vendor.email),
          ...(payeeChanged ? { payeeBankDetails: 'changed' as const } : {}),
        },
        write: postsEntries([entry], async (tx) => {
          await tx.insert(bills).values({
            id: billId,
            orgId: ctx.orgId,
            vendorId: p.vendorId,
            billNumber: p.billNumber,
            billDate: p.billDate,
            dueDate,
            currency: p.currency,
            totalMinor: total,
            entryId: entry.id,
            submissionId: ctx.submissionId,
          });
          return [{ entityType: 'bill', entityId: billId, action: 'created' }];
        }),
      };
    },
  },

  'bill.credit': billCreditKind(BOOKKEEPING, {
    draft,
    postsEntries,
    requireActiveVendor,
    requireActiveAccounts,
    systemAccount,
    placeholders,
    derivedId,
  }),

  'payment.send': {
    submitRoles: TREASURY,
    refs: (p) => [
      { path: 'payload.vendorId', entity: 'vendor', id: p.vendorId },
      { path: 'payload.fromBankAccountId', entity: 'bankAccount', id: p.fromBankAccountId },
      ...(p.billId ? [{ path: 'payload.billId', entity: 'bill' as const, id: p.billId }] : []),
    ],
    async plan(ctx, p) {
      const vendor = await requireActiveVendor(ctx.q, ctx.orgId, p.vendorId);
      const from = await getBankAccount(ctx.q, ctx.orgId, p.fromBankAccountId);
      if (!from || from.ownerType !== 'org' || !from.ledgerAccountId || from.retiredAt) {
        throw new GatewayRefusal(
          ErrorType.InvalidWrite,
          `${p.fromBankAccountId} is not an active bank account of org ${ctx.orgId}`,
          [{ path: 'payload.fromBankAccountId', message: 'not an active org bank account' }],
        );
      }
      const payee = await currentPayeeAccount(ctx.q, ctx.orgId, p.vendorId);
      if (!payee)
        throw new GatewayRefusal(
          ErrorType.InvalidWrite,
          `Vendor ${p.vendorId} has no bank details to pay to`,
          [{ path: 'payload.vendorId', message: 'vendor has no bank details' }],
        );
      if (from.currency !== p.currency)
        throw new GatewayRefusal(
          ErrorType.CurrencyMismatch,
          `Payment in ${p.currency} from a ${from.currency} account`,
          [{ path: 'payload.currency', message: `the paying account holds ${from.currency}` }],
        );
      if (payee.currency !== p.currency)
        throw new GatewayRefusal(
          ErrorType.CurrencyMismatch,
          `Payment in ${p.currency} to a ${payee.currency} payee account`,
          [{ path: 'payload.currency', message: `the payee account holds ${payee.currency}` }],
        );
      if (p.billId) {
        const bill = await getBill(ctx.q, ctx.orgId, p.billId);
        if (!bill || bill.vendorId !== p.vendorId)
          throw new GatewayRefusal(
            ErrorType.InvalidWrite,
            `Bill ${p.billId} is not a bill of vendor ${p.vendorId}`,
            [{ path: 'payload.billId', message: 'bill of another vendor' }],
          );
        if (bill.currency !== p.currency)
          throw new GatewayRefusal(
            ErrorType.CurrencyMismatch,
            `Bill ${p.billId} is in ${bill.currency}, payment in ${p.currency}`,
            [{ path: 'payload.currency', message: `the bill is in ${bill.currency}` }],
          );
        const open =
          bill.totalMinor -
          (await paidOnBill(ctx.q, ctx.orgId, p.billId)) -
          (await creditedOnBill(ctx.q, ctx.orgId, p.billId));
        if (BigInt(p.amountMinor) > open)
          throw new GatewayRefusal(
            ErrorType.AmountMismatch,
            `Payment ${p.amountMinor} exceeds the open amount ${open} of bill ${p.billId}`,
            [{ path: 'payload.amountMinor', message: `exceeds the open amount ${open}` }],
          );
      }
      const ap = await systemAccount(ctx.q, ctx.orgId, 'accounts_payable');
      const amount = BigInt(p.amountMinor);
      const entry = draft(ctx, {
        entryDate: p.paymentDate,
        memo: `Payment to ${vendor.name}${p.reference ? ` (${p.reference})` : ''}`,
        lines: [
          {
            accountId: ap,
            currency: p.currency,
            debit: amount,
            credit: 0n,
            memo: p.billId ?? null,
          },
          {
            accountId: from.ledgerAccountId,
            currency: p.currency,
            debit: 0n,
            credit: amount,
            memo: p.reference ?? null,
          },
        ],
      });
      const paymentId = derivedId('pay', ctx.entryKey);
      return {
        entries: [entry],
        payee: {
          bankAccountId: payee.id,
          holderName: payee.holderName,
          iban: payee.iban,
          accountNumber: payee.accountNumber,
          routingCode: payee.routingCode,
          bic: payee.bic,
          currency: payee.currency,
        },
        postingDate: { date: p.paymentDate, path: 'payload.paymentDate' },
        facts: {
          irreversible: true,
          placeholderContacts: placeholders(vendor.email),
          payeeBankDetailsRecentlyChanged:
            Date.now() - payee.createdAt.getTime() < PAYEE_CHANGE_WINDOW_MS,
        },
        write: postsEntries([entry], async (tx) => {
          await tx.insert(payments).values({
            id: paymentId,
            orgId: ctx.orgId,
            vendorId: p.vendorId,
            billId: p.billId ?? null,
            fromBankAccountId: from.id,
            payeeBankAccountId: payee.id,
            amountMinor: amount,
            currency: p.currency,
            paymentDate: p.paymentDate,
            entryId: entry.id,
            submissionId: ctx.submissionId,
          });
          return [{ entityType: 'payment', entityId: paymentId, action: 'released' }];
        }),
      };
    },
  },

  'vendor.create': {
    submitRoles: BOOKKEEPING,
    refs: (p) => [
      ...(p.paymentTermsId
        ? [
            {
              path: 'payload.paymentTermsId',
              entity: 'paymentTerms' as const,
              id: p.paymentTermsId,
            },
          ]
        : []),
      ...(p.defaultExpenseAccountId
        ? [
            {
              path: 'payload.defaultExpenseAccountId',
              entity: 'account' as const,
              id: p.defaultExpenseAccountId,
            },
          ]
        : []),
    ],
    async plan(ctx, p) {
      const vendorId = p.vendorId ?? derivedId('ven', ctx.entryKey);
      if (await getVendor(ctx.q, ctx.orgId, vendorId))
        throw new GatewayRefusal(ErrorType.DuplicateEntity, `Vendor ${vendorId} already exists`, [
          { path: 'payload.vendorId', message: 'already exists' },
        ]);
      const bankId = derivedId('bank', ctx.entryKey);
      return {
        entries: [],
        facts: {
          newMasterData: true,
          payeeBankDetails: p.bankAccount ? 'new' : null,
          placeholderContacts: placeholders(p.email),
        },
        async write(tx) {
          await tx.insert(vendors).values({
            id: vendorId,
            orgId: ctx.orgId,
            name: p.name,
            email: p.email ?? null,
            phone: p.phone ?? null,
            taxId: p.taxId ?? null,
            paymentTermsId: p.paymentTermsId ?? null,
            defaultExpenseAccountId: p.defaultExpenseAccountId ?? null,
            placeholderFields: p.placeholderFields ?? [],
            createdBySubmission: ctx.submissionId,
            updatedBySubmission: ctx.submissionId,
          });
          const effects: Effect[] = [
            { entityType: 'vendor', entityId: vendorId, action: 'created' },
          ];
          if (p.bankAccount) {
            await tx.insert(bankAccounts).values(bankRow(ctx, bankId, { vendorId }, p.bankAccount));
            effects.push({ entityType: 'bank_account', entityId: bankId, action: 'created' });
          }
          return effects;
        },
      };
    },
  },

  'vendor.update': {
    submitRoles: BOOKKEEPING,
    refs: (p) => [
      { path: 'payload.vendorId', entity: 'vendor', id: p.vendorId },
      ...(p.changes.paymentTermsId
        ? [
            {
              path: 'payload.changes.paymentTermsId',
              entity: 'paymentTerms' as const,
              id: p.changes.paymentTermsId,
            },
          ]
        : []),
      ...(p.changes.defaultExpenseAccountId
        ? [
            {
              path: 'payload.changes.defaultExpenseAccountId',
              entity: 'account' as const,
              id: p.changes.defaultExpenseAccountId,
            },
          ]
        : []),
    ],
    async plan(ctx, p) {
      const vendor = await getVendor(ctx.q, ctx.orgId, p.vendorId);
      if (!vendor)
        throw new GatewayRefusal(
          ErrorType.UnknownEntity,
          `Unknown vendor id in org ${ctx.orgId}: ${p.vendorId}`,
          [{ path: 'payload.vendorId', message: `vendor ${p.vendorId} does not exist` }],
        );
      if (p.expectedVersion !== undefined && p.expectedVersion !== vendor.version) {
        throw new GatewayRefusal(
          ErrorType.StaleVersion,
          `Vendor ${p.vendorId} is at version ${vendor.version}, not ${p.expectedVersion}`,
          [{ path: 'payload.expectedVersion', message: `current version is ${vendor.version}` }],
        );
      }
      const { bankAccount, ...fields } = p.changes;
      const current = await currentPayeeAccount(ctx.q, ctx.orgId, p.vendorId);
      const bankChange =
        bankAccount && !(current && sameBank(current, bankAccount))
          ? current
            ? 'changed'
            : 'new'
          : null;
      const bankId = derivedId('bank', ctx.entryKey);
      return {
        entries: [],
        facts: { payeeBankDetails: bankChange, placeholderContacts: placeholders(fields.email) },
        async write(tx) {
          const updated = await tx
            .update(vendors)
            .set({
              ...fields,
              version: sql`${vendors.version} + 1`,
              updatedBySubmission: ctx.submissionId,
              updatedAt: sql`now()`,
            })
            .where(
              and(
                eq(vendors.orgId, ctx.orgId),
                eq(vendors.id, p.vendorId),
                eq(vendors.version, vendor.version),
              ),
            )
            .returning({ id: vendors.id });
          if (updated.length === 0)
            throw new GatewayRefusal(
              ErrorType.StaleVersion,
              `Vendor ${p.vendorId} changed while this update was applied`,
              [{ path: 'payload.vendorId', message: 'concurrent change' }],
            );
          const effects: Effect[] = [
            { entityType: 'vendor', entityId: p.vendorId, action: 'updated' },
          ];
          if (bankAccount && bankChange) {
            if (current) {
              await tx
                .update(bankAccounts)
                .set({ retiredAt: sql`now()` })
                .where(and(eq(bankAccounts.orgId, ctx.orgId), eq(bankAccounts.id, current.id)));
              effects.push({ entityType: 'bank_account', entityId: current.id, action: 'retired' });
            }
            await tx
              .insert(bankAccounts)
              .values(bankRow(ctx, bankId, { vendorId: p.vendorId }, bankAccount));
            effects.push({ entityType: 'bank_account', entityId: bankId, action: 'created' });
          }
          return effects;
        },
      };
    },
  },

  'bank_line.match': {
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
  },

  'bill.settle': {
    submitRoles: BOOKKEEPING,
    refs: (p) => [
      { path: 'payload.billId', entity: 'bill', id: p.billId },
      { path: 'payload.bankLineId', entity: 'bankLine', id: p.bankLineId },
    ],
    async plan(ctx, p) {
      const refuse = (type: ErrorType, message: string, path: string, issue: string) =>
        new GatewayRefusal(type, message, [{ path, message: issue }]);
      const bill = await getBill(ctx.q, ctx.orgId, p.billId);
      const line = await getBankLine(ctx.q, ctx.orgId, p.bankLineId);
      if (!bill || !line)
        throw refuse(
          ErrorType.UnknownEntity,
          'Unknown bill or bank line',
          'payload',
          'unknown bill or bank line',
        );
      if (line.matchedEntryId)
        throw refuse(
          ErrorType.AlreadyMatched,
          `Bank line ${p.bankLineId} is already matched to ${line.matchedEntryId}`,
          'payload.bankLineId',
          `already matched to ${line.matchedEntryId}`,
        );
      const [settled] = await ctx.q
        .select({ id: billSettlements.id, bankLineId: billSettlements.bankLineId })
        .from(billSettlements)
        .where(and(eq(billSettlements.orgId, ctx.orgId), eq(billSettlements.billId, p.billId)));
      if (bill.settledAt || settled)
        throw refuse(
          ErrorType.DuplicateEntity,
          `Bill ${p.billId} is already settled${settled ? ` by bank line ${settled.bankLineId}` : ''}`,
          'payload.billId',
          'already settled',
        );
      const paid = await paidOnBill(ctx.q, ctx.orgId, p.billId);
      if (paid > 0n)
        throw refuse(
          ErrorType.InvalidWrite,
          `Bill ${p.billId} already has payments of ${paid} (payment.send): its bank line matches the payment's entry`,
          'payload.billId',
          `paid ${paid} by payment.send`,
        );
      if (line.currency !== bill.currency)
        throw refuse(
          ErrorType.CurrencyMismatch,
          `Bank line ${p.bankLineId} is in ${line.currency}, bill ${p.billId} in ${bill.currency}`,
          'payload.bankLineId',
          `the bill is in ${bill.currency}`,
        );
      // Money out of the bank is negative on the line; it must pay exactly what the bill still
      // asks: its total less the vendor credits applied to it (bill.credit).
      const creditedMinor = await creditedOnBill(ctx.q, ctx.orgId, p.billId);
      const due = bill.totalMinor - creditedMinor;
      if (line.amountMinor !== -due)
        throw refuse(
          ErrorType.AmountMismatch,
          `Bank line ${p.bankLineId} moves ${line.amountMinor} ${line.currency}; bill ${p.billId} totals ${bill.totalMinor}${creditedMinor > 0n ? `, less ${creditedMinor} credited` : ''} (a settlement pays it out in full: -${due})`,
          'payload.bankLineId',
          `moves ${line.amountMinor}, the bill needs -${due}`,
        );
      const bank = await getBankAccount(ctx.q, ctx.orgId, line.bankAccountId);
      if (!bank || bank.ownerType !== 'org' || !bank.ledgerAccountId)
        throw refuse(
          ErrorType.InvalidWrite,
          `Bank line ${p.bankLineId} is not on an org bank account with a ledger account`,
          'payload.bankLineId',
          'no ledger account for its bank account',
        );
      // The AP account the bill credited (its entry's credit side), not today's system role.
      const billEntry = await getEntry(ctx.q, ctx.orgId, bill.entryId);
      const credited = [
        ...new Set((billEntry?.lines ?? []).filter((l) => l.credit > 0n).map((l) => l.accountId)),
      ];
      if (credited.length !== 1)
        throw refuse(
          ErrorType.InvalidWrite,
          `Bill ${p.billId}'s entry credits ${credited.length} accounts: the AP account is not clear`,
          'payload.billId',
          'no single AP account credited by the bill',
        );
      const ap = credited[0]!;
      await requireActiveAccounts(ctx.q, ctx.orgId, [
        { id: ap, path: 'payload.billId' },
        { id: bank.ledgerAccountId, path: 'payload.bankLineId' },
      ]);
      const vendor = await getVendor(ctx.q, ctx.orgId, bill.vendorId);
      const entry = draft(ctx, {
        entryDate: line.bookedOn,
        memo: `Settlement of bill ${bill.billNumber}${vendor ? ` from ${vendor.name}` : ''} by bank line ${line.id}`,
        lines: [
          {
            accountId: ap,
            currency: bill.currency,
            debit: due,
            credit: 0n,
            memo: bill.id,
          },
          {
            accountId: bank.ledgerAccountId,
            currency: bill.currency,
            debit: 0n,
            credit: due,
            memo: line.description.slice(0, 500) || null,
          },
        ],
      });
      const settlementId = derivedId('set', ctx.entryKey);
      return {
        entries: [entry],
        postingDate: { date: line.bookedOn, path: 'payload.bankLineId' },
        facts: {},
        write: postsEntries([entry], async (tx) => {
          // Checked again under the apply transaction: the plan may be stale.
          await matchBankLineOnce(tx, ctx, p.bankLineId, entry.id);
          const marked = await tx
            .update(bills)
            .set({ settledAt: sql`now()` })
            .where(
              and(
                eq(bills.orgId, ctx.orgId),
                eq(bills.id, p.billId),
                sql`${bills.settledAt} is null`,
              ),
            )
            .returning({ id: bills.id });
          if (marked.length === 0)
            throw refuse(
              ErrorType.DuplicateEntity,
              `Bill ${p.billId} was settled concurrently`,
              'payload.billId',
              'already settled',
            );
          await tx.insert(billSettlements).values({
            id: settlementId,
            orgId: ctx.orgId,
            billId: p.billId,
            bankLineId: p.bankLineId,
            entryId: entry.id,
            amountMinor: due,
            currency: bill.currency,
            submissionId: ctx.submissionId,
          });
          return [
            { entityType: 'bill', entityId: p.billId, action: 'settled' },
            { entityType: 'bank_line', entityId: p.bankLineId, action: 'matched' },
            { entityType: 'bill_settlement', entityId: settlementId, action: 'created' },
          ];
        }),
      };
    },
  },

  'period.close': periodStatusChange('closed'),
  'period.reopen': periodStatusChange('open'),

  'customer.create': {
    submitRoles: BOOKKEEPING,
    refs: (p) =>
      p.paymentTermsId
        ? [{ path: 'payload.paymentTermsId', entity: 'paymentTerms', id: p.paymentTermsId }]
        : [],
    async plan(ctx, p) {
      const customerId = p.customerId ?? derivedId('cus', ctx.entryKey);
      return {
        entries: [],
        facts: { newMasterData: true, placeholderContacts: placeholders(p.email) },
        async write(tx) {
          await tx.insert(customers).values({
            id: customerId,
            orgId: ctx.orgId,
            name: p.name,
            email: p.email ?? null,
            phone: p.phone ?? null,
            taxId: p.taxId ?? null,
            paymentTermsId: p.paymentTermsId ?? null,
            placeholderFields: p.placeholderFields ?? [],
            createdBySubmission: ctx.submissionId,
          });
          return [{ entityType: 'customer', entityId: customerId, action: 'created' }];
        },
      };
    },
  },

  'tax_code.create': {
    submitRoles: TREASURY,
    refs: (p) => [{ path: 'payload.accountId', entity: 'account', id: p.accountId }],
    async plan(ctx, p) {
      const id = derivedId('tax', ctx.entryKey);
      return {
        entries: [],
        facts: { newMasterData: true },
        async write(tx) {
          await tx.insert(taxCodes).values({
            id,
            orgId: ctx.orgId,
            code: p.code,
            name: p.name,
            kind: p.kind,
            rateBasisPoints: p.rateBasisPoints,
            effectiveFrom: p.effectiveFrom,
            effectiveTo: p.effectiveTo ?? null,
            accountId: p.accountId,
            createdBySubmission: ctx.submissionId,
          });
          return [{ entityType: 'tax_code', entityId: id, action: 'created' }];
        },
      };
    },
  },

  'payment_terms.create': {
    submitRoles: BOOKKEEPING,
    refs: () => [],
    async plan(ctx, p) {
      const id = p.paymentTermsId ?? derivedId('terms', ctx.entryKey);
      return {
        entries: [],
        facts: {},
        async write(tx) {
          await tx.insert(paymentTerms).values({
            id,
            orgId: ctx.orgId,
            code: p.code,
            name: p.name,
            dueDays: p.dueDays,
            discountDays: p.discountDays ?? null,
            discountBasisPoints: p.discountBasisPoints ?? null,
            createdBySubmission: ctx.submissionId,
          });
          return [{ entityType: 'payment_terms', entityId: id, action: 'created' }];
        },
      };
    },
  },

  'bank_account.create': {
    submitRoles: TREASURY,
    refs: (p) => [{ path: 'payload.ledgerAccountId', entity: 'account', id: p.ledgerAccountId }],
    async plan(ctx, p) {
      const id = p.bankAccountId ?? derivedId('bank', ctx.entryKey);
      return {
        entries: [],
        facts: { newMasterData: true },
        async write(tx) {
          await tx
            .insert(bankAccounts)
            .values(bankRow(ctx, id, { ledgerAccountId: p.ledgerAccountId }, p.details));
          return [{ entityType: 'bank_account', entityId: id, action: 'created' }];
        },
      };
    },
  },

  'account.create': {
    submitRoles: TREASURY,
    refs: () => [],
    async plan(ctx, p) {
      const id = p.accountId ?? derivedId('acc', ctx.entryKey);
      const clash = await ctx.q
        .select({ id: accounts.id, code: accounts.code, systemRole: accounts.systemRole })
        .from(accounts)
        .where(
          and(
            eq(accounts.orgId, ctx.orgId),
            sql`(${accounts.id} = ${id} or ${accounts.code} = ${p.code}${p.systemRole ? sql` or ${accounts.systemRole} = ${p.systemRole}` : sql``})`,
          ),
        );
      const first = clash[0];
      if (first) {
        const field = first.id === id ? 'accountId' : first.code === p.code ? 'code' : 'systemRole';
        throw new GatewayRefusal(
          ErrorType.DuplicateEntity,
          `Org ${ctx.orgId} already has an account with this ${field} (${first.id})`,
          [{ path: `payload.${field}`, message: `already used by account ${first.id}` }],
        );
      }
      return {
        entries: [],
        facts: { chartChange: 'create' },
        async write(tx) {
          await tx.insert(accounts).values({
            id,
            orgId: ctx.orgId,
            code: p.code,
            name: p.name,
            type: p.type,
            systemRole: p.systemRole ?? null,
          });
          return [{ entityType: 'account', entityId: id, action: 'created' }];
        },
      };
    },
  },

  'account.update': {
    submitRoles: TREASURY,
    refs: (p) => [{ path: 'payload.accountId', entity: 'account', id: p.accountId }],
    async plan(ctx, p) {
      const [current] = await getAccounts(ctx.q, ctx.orgId, [p.accountId]);
      if (!current)
        throw new GatewayRefusal(ErrorType.UnknownEntity, `Unknown account ${p.accountId}`, [
          { path: 'payload.accountId', message: 'unknown account' },
        ]);
      const remap =
        p.changes.systemRole !== undefined && p.changes.systemRole !== current.systemRole;
      if (remap && p.changes.systemRole) {
        const holder = await accountBySystemRole(ctx.q, ctx.orgId, p.changes.systemRole);
        if (holder)
          throw new GatewayRefusal(
            ErrorType.DuplicateEntity,
            `System role ${p.changes.systemRole} belongs to account ${holder.id}`,
            [{ path: 'payload.changes.systemRole', message: `held by ${holder.id}` }],
          );
      }
      return {
        entries: [],
        // Moving a system role, or retiring the account that holds one, redirects other writes.
        facts: {
          chartChange:
            remap || (p.changes.active === false && current.systemRole !== null)
              ? 'remap'
              : 'update',
        },
        async write(tx) {
          await tx
            .update(accounts)
            .set(p.changes)
            .where(and(eq(accounts.orgId, ctx.orgId), eq(accounts.id, p.accountId)));
          return [{ entityType: 'account', entityId: p.accountId, action: 'updated' }];
        },
      };
    },
  },

  'membership.grant': {
    submitRoles: TREASURY,
    refs: () => [],
    async plan(ctx, p) {
      const [user] = await ctx.q.select({ id: users.id }).from(users).where(eq(users.id, p.userId));
      if (!user)
        throw new GatewayRefusal(ErrorType.UnknownEntity, `Unknown user ${p.userId}`, [
          { path: 'payload.userId', message: 'unknown user' },
        ]);
      if (await holdsRole(ctx.q, ctx.orgId, p.userId, p.role))
        throw new GatewayRefusal(
          ErrorType.DuplicateEntity,
          `User ${p.userId} already holds ${p.role} in org ${ctx.orgId}`,
          [{ path: 'payload.role', message: 'already granted' }],
        );
      return {
        entries: [],
        facts: { roleChange: { action: 'grant', role: p.role } },
        async write(tx) {
          await tx.insert(memberships).values({ orgId: ctx.orgId, userId: p.userId, role: p.role });
          return [
            { entityType: 'membership', entityId: `${p.userId}:${p.role}`, action: 'granted' },
          ];
        },
      };
    },
  },

  'membership.revoke': {
    submitRoles: TREASURY,
    refs: () => [],
    async plan(ctx, p) {
      if (!(await holdsRole(ctx.q, ctx.orgId, p.userId, p.role)))
        throw new GatewayRefusal(
          ErrorType.UnknownEntity,
          `User ${p.userId} does not hold ${p.role} in org ${ctx.orgId}`,
          [{ path: 'payload.role', message: 'not granted' }],
        );
      const lastOwner = async (q: Q) =>
        p.role === 'owner' &&
        (
          await q
            .select({ n: sql<number>`count(*)::int` })
            .from(memberships)
            .where(and(eq(memberships.orgId, ctx.orgId), eq(memberships.role, 'owner')))
        )[0]?.n === 1;
      const refuseLastOwner = () =>
        new GatewayRefusal(ErrorType.InvalidWrite, `Org ${ctx.orgId} would have no owner left`, [
          { path: 'payload.role', message: 'the last owner cannot be revoked' },
        ]);
      if (await lastOwner(ctx.q)) throw refuseLastOwner();
      return {
        entries: [],
        facts: { roleChange: { action: 'revoke', role: p.role } },
        async write(tx) {
          if (await lastOwner(tx)) throw refuseLastOwner();
          await tx
            .delete(memberships)
            .where(
              and(
                eq(memberships.orgId, ctx.orgId),
                eq(memberships.userId, p.userId),
                eq(memberships.role, p.role),
              ),
            );
          return [
            { entityType: 'membership', entityId: `${p.userId}:${p.role}`, action: 'revoked' },
          ];
        },
      };
    },
  },

  'risk_settings.update': {
    submitRoles: TREASURY,
    refs: () => [],
    async plan(ctx, p) {
      const current = await getRiskSettings(ctx.q, ctx.orgId);
      const loosens =
        BigInt(p.moderateAmountMinor) > BigInt(current.moderateAmountMinor) ||
        BigInt(p.highAmountMinor) > BigInt(current.highAmountMinor) ||
        p.highLaneApprovals < current.highLaneApprovals;
      return {
        entries: [],
        facts: { settingsChange: loosens ? 'loosen' : 'tighten' },
        async write(tx) {
          const values = {
            orgId: ctx.orgId,
            moderateAmountMinor: BigInt(p.moderateAmountMinor),
            highAmountMinor: BigInt(p.highAmountMinor),
            highLaneApprovals: p.highLaneApprovals,
          };
          await tx
            .insert(gatewayRiskSettings)
            .values(values)
            .onConflictDoUpdate({
              target: gatewayRiskSettings.orgId,
              set: { ...values, updatedAt: sql`now()` },
            });
          return [{ entityType: 'risk_settings', entityId: ctx.orgId, action: 'updated' }];
        },
      };
    },
  },
};
