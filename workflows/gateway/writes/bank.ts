/**
 * Bank details (IBAN, BIC, account number) and the bank writes: bank_account.create and
 * bank_line.match.
 */
import { z } from 'zod';
import { CurrencySchema, IdSchema, NewIdSchema, Text } from './fields';

/** An IBAN as stored and compared: country, check digits, account, no spaces. */
export const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/;
/** A BIC / SWIFT code: bank, country, location, optional branch. */
export const BIC = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export const BankDetailsSchema = z
  .object({
    holderName: Text(200),
    iban: z.string().regex(IBAN, 'an IBAN without spaces').optional(),
    accountNumber: z
      .string()
      .regex(/^[0-9]{4,20}$/, '4 to 20 digits')
      .optional(),
    routingCode: z
      .string()
      .regex(/^[0-9A-Z-]{4,20}$/)
      .optional(),
    bic: z.string().regex(BIC, 'a BIC/SWIFT code').optional(),
    currency: CurrencySchema,
  })
  .strict()
  .refine((b) => b.iban !== undefined || b.accountNumber !== undefined, {
    message: 'an IBAN or an account number',
    path: ['iban'],
  });
export type BankDetails = z.infer<typeof BankDetailsSchema>;

export const BankAccountCreateSchema = z
  .object({
    bankAccountId: NewIdSchema.optional(),
    details: BankDetailsSchema,
    ledgerAccountId: IdSchema,
  })
  .strict();

export const BankLineMatchSchema = z.object({ bankLineId: IdSchema, entryId: IdSchema }).strict();
