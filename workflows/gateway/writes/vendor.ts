/** Vendor writes: vendor.create and vendor.update, with contact and bank details. */
import { z } from 'zod';
import { BankDetailsSchema } from './bank';
import { ContactFields, PlaceholderFieldsSchema, placeholdersHonest } from './contacts';
import { IdSchema, NewIdSchema, Text } from './fields';

export const VendorCreateSchema = z
  .object({
    vendorId: NewIdSchema.optional(),
    name: Text(200),
    ...ContactFields,
    defaultExpenseAccountId: IdSchema.optional(),
    bankAccount: BankDetailsSchema.optional(),
    placeholderFields: PlaceholderFieldsSchema.optional(),
  })
  .strict()
  .superRefine(placeholdersHonest);

export const VendorUpdateSchema = z
  .object({
    vendorId: IdSchema,
    expectedVersion: z.number().int().positive().optional(),
    changes: z
      .object({
        name: Text(200).optional(),
        ...ContactFields,
        defaultExpenseAccountId: IdSchema.optional(),
        status: z.enum(['active', 'inactive']).optional(),
        bankAccount: BankDetailsSchema.optional(),
      })
      .strict()
      .refine((c) => Object.keys(c).length > 0, { message: 'at least one change' }),
  })
  .strict();
