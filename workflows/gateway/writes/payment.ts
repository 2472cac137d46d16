/** payment.send: a payment to a vendor from one of the org's bank accounts. */
import { z } from 'zod';
import { CurrencySchema, DateSchema, IdSchema, PositiveMinorUnitsSchema } from './fields';

export const PaymentSendSchema = z
  .object({
    vendorId: IdSchema,
    billId: IdSchema.optional(),
    fromBankAccountId: IdSchema,
    amountMinor: PositiveMinorUnitsSchema,
    currency: CurrencySchema,
    paymentDate: DateSchema,
    reference: z.string().max(140).optional(),
  })
  .strict();
