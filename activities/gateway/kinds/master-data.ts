import { and, eq, sql } from 'drizzle-orm';
import { accounts, bankAccounts, customers, paymentTerms, taxCodes } from '../../../db/schema';
import { accountBySystemRole, getAccounts } from '../../../db/repositories/ledger';
import { ErrorType } from '../../../workflows/errors';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import { BOOKKEEPING, TREASURY, derivedId, placeholders, bankRow } from './plan-helpers';

/** Master data: customers, tax codes, payment terms, bank accounts and the chart of accounts. */
export const customerCreateKind: KindDef<'customer.create'> = {
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
};

export const taxCodeCreateKind: KindDef<'tax_code.create'> = {
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
};

export const paymentTermsCreateKind: KindDef<'payment_terms.create'> = {
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
};

export const bankAccountCreateKind: KindDef<'bank_account.create'> = {
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
};

export const accountCreateKind: KindDef<'account.create'> = {
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
};

export const accountUpdateKind: KindDef<'account.update'> = {
  submitRoles: TREASURY,
  refs: (p) => [{ path: 'payload.accountId', entity: 'account', id: p.accountId }],
  async plan(ctx, p) {
    const [current] = await getAccounts(ctx.q, ctx.orgId, [p.accountId]);
    if (!current)
      throw new GatewayRefusal(ErrorType.UnknownEntity, `Unknown account ${p.accountId}`, [
        { path: 'payload.accountId', message: 'unknown account' },
      ]);
    const remap = p.changes.systemRole !== undefined && p.changes.systemRole !== current.systemRole;
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
          remap || (p.changes.active === false && current.systemRole !== null) ? 'remap' : 'update',
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
};
