/**
 * Master data writes: customer.create, tax_code.create, payment_terms.create, and the chart of
 * accounts (account.create, account.update). Vendors and bank accounts have their own files.
 */
import { z } from 'zod';
import { ContactFields, PlaceholderFieldsSchema, placeholdersHonest } from './contacts';
import { DateSchema, IdSchema, NewIdSchema, Text } from './fields';

export const CustomerCreateSchema = z
  .object({
    customerId: NewIdSchema.optional(),
    name: Text(200),
    ...ContactFields,
    placeholderFields: PlaceholderFieldsSchema.optional(),
  })
  .strict()
  .superRefine(placeholdersHonest);
export const TaxCodeCreateSchema = z
  .object({
    code: z.string().regex(/^[A-Z0-9_-]{1,30}$/),
    name: Text(200),
    kind: z.enum(['vat', 'sales_tax']),
    rateBasisPoints: z.number().int().min(0).max(10000),
    effectiveFrom: DateSchema,
    effectiveTo: DateSchema.optional(),
    accountId: IdSchema,
  })
  .strict()
  .refine((t) => t.effectiveTo === undefined || t.effectiveTo > t.effectiveFrom, {
    message: 'effectiveTo must be after effectiveFrom',
    path: ['effectiveTo'],
  });
export const PaymentTermsCreateSchema = z
  .object({
    paymentTermsId: NewIdSchema.optional(),
    code: z.string().regex(/^[A-Z0-9_-]{1,30}$/),
    name: Text(200),
    dueDays: z.number().int().min(0).max(365),
    discountDays: z.number().int().min(0).max(365).optional(),
    discountBasisPoints: z.number().int().min(0).max(10000).optional(),
  })
  .strict();

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'revenue', 'expense'] as const;
/** A system role names the account a write kind posts to (accounts_payable, input_tax, ...). */
const SystemRoleSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,49}$/, 'lower-case letters, digits and _ (e.g. accounts_payable)');

export const AccountCreateSchema = z
  .object({
    accountId: NewIdSchema.optional(),
    code: z.string().regex(/^[A-Za-z0-9._-]{1,20}$/, 'letters, digits, dot, dash, underscore'),
    name: Text(200),
    type: z.enum(ACCOUNT_TYPES),
    systemRole: SystemRoleSchema.optional(),
  })
  .strict();
export const AccountUpdateSchema = z
  .object({
    accountId: IdSchema,
    changes: z
      .object({
        name: Text(200).optional(),
        active: z.boolean().optional(),
        /** null removes the account's system role. */
        systemRole: SystemRoleSchema.nullable().optional(),
      })
      .strict()
      .refine((c) => Object.keys(c).length > 0, { message: 'at least one change' }),
  })
  .strict();
