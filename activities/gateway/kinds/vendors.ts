import { and, eq, sql } from 'drizzle-orm';
import { bankAccounts, vendors } from '../../../db/schema';
import { currentPayeeAccount, getVendor } from '../../../db/repositories/master-data';
import { ErrorType } from '../../../workflows/errors';
import type { Effect } from '../../../workflows/gateway.contract';
import { GatewayRefusal } from '../refusal';
import type { KindDef } from '../kind-def';
import { BOOKKEEPING, derivedId, placeholders, bankRow, sameBank } from './plan-helpers';

/** Vendors created and updated, with their bank details (a payee change is risk-scored). */
export const vendorCreateKind: KindDef<'vendor.create'> = {
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
        const effects: Effect[] = [{ entityType: 'vendor', entityId: vendorId, action: 'created' }];
        if (p.bankAccount) {
          await tx.insert(bankAccounts).values(bankRow(ctx, bankId, { vendorId }, p.bankAccount));
          effects.push({ entityType: 'bank_account', entityId: bankId, action: 'created' });
        }
        return effects;
      },
    };
  },
};

export const vendorUpdateKind: KindDef<'vendor.update'> = {
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
};
