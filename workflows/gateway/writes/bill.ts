/** Vendor bill writes: bill.post, bill.post_batch, bill.credit and bill.settle. */
import { z } from 'zod';
import { IBAN } from './bank';
import { EntryKeySchema } from './batch-keys';
import { CurrencySchema, DateSchema, IdSchema, PositiveMinorUnitsSchema, Text } from './fields';

export const BillPostSchema = z
  .object({
    vendorId: IdSchema,
    billNumber: Text(100),
    billDate: DateSchema,
    dueDate: DateSchema.optional(),
    currency: CurrencySchema,
    /**
     * The IBAN the bill asks to be paid to (a structured e-invoice's BT-84). Compared with the
     * vendor's stored bank details: a different one fires the payee-change risk rule.
     */
    payeeIban: z.string().regex(IBAN, 'an IBAN without spaces').optional(),
    lines: z
      .array(
        z
          .object({
            description: Text(500),
            amountMinor: PositiveMinorUnitsSchema,
            accountId: IdSchema.optional(),
            taxCodeId: IdSchema.optional(),
          })
          .strict(),
      )
      .min(1)
      .max(200),
  })
  .strict();

/** Bills a bill.post_batch carries at most (its payload stays well under 2 MB). */
export const BILL_BATCH_MAX_ENTRIES = 200;
/** One bill of a batch: a bill.post payload under its own key, with the document it comes from. */
export const BillBatchEntrySchema = z
  .object({
    key: EntryKeySchema,
    sourceDocumentId: IdSchema.optional(),
    ...BillPostSchema.shape,
  })
  .strict();
export type BillBatchEntry = z.infer<typeof BillBatchEntrySchema>;

/**
 * Many vendor bills in one submission (a bill processor's batch of documents): each bill
 * planned exactly as bill.post plans it and idempotent by its own key (a bill already posted
 * under its key is skipped), each risk-scored on its own. Bills in the low lane post together
 * in one apply transaction; a bill that needs a person is split out to its own submission and
 * its own approval instead of holding the batch.
 */
export const BillPostBatchSchema = z
  .object({ entries: z.array(BillBatchEntrySchema).min(1).max(BILL_BATCH_MAX_ENTRIES) })
  .strict()
  .superRefine((b, ctx) => {
    if (!Array.isArray(b.entries)) return;
    const keys = new Map<string, number>();
    const numbers = new Map<string, number>();
    b.entries.forEach((e, i) => {
      const { key, vendorId, billNumber } = e as Partial<BillBatchEntry>;
      if (typeof key === 'string') {
        const first = keys.get(key);
        if (first !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['entries', i, 'key'],
            message: `duplicate entry key (also entries.${first}.key)`,
          });
        else keys.set(key, i);
      }
      if (typeof vendorId === 'string' && typeof billNumber === 'string') {
        const bill = `${vendorId}\u0000${billNumber}`;
        const first = numbers.get(bill);
        if (first !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['entries', i, 'billNumber'],
            message: `bill ${billNumber} of vendor ${vendorId} is also entries.${first}`,
          });
        else numbers.set(bill, i);
      }
    });
  });

/**
 * A vendor credit: a supplier's credit note (or an invoice correcting one with a negative
 * total) reverses a bill's accounts — Dr AP for its gross, Cr the expense per net line and the
 * input tax per line. Amounts are the credit's own, positive. When it names the invoice it
 * corrects (BT-25) and that bill of the vendor is still open, the credit is applied against it;
 * otherwise it stays an open credit on the vendor.
 */
export const BillCreditSchema = z
  .object({
    vendorId: IdSchema,
    creditNumber: Text(100),
    creditDate: DateSchema,
    currency: CurrencySchema,
    /** The vendor's invoice number this credit corrects (BT-25), when the document names one. */
    precedingBillNumber: Text(100).optional(),
    lines: z
      .array(
        z
          .object({
            description: Text(500),
            amountMinor: PositiveMinorUnitsSchema,
            accountId: IdSchema.optional(),
            taxCodeId: IdSchema.optional(),
          })
          .strict(),
      )
      .min(1)
      .max(200),
  })
  .strict();

/**
 * A bank line pays an open bill in full: Dr the AP account the bill credited, Cr the bank's
 * ledger account, on the line's booking date; the line is matched and the bill settled.
 */
export const BillSettleSchema = z.object({ billId: IdSchema, bankLineId: IdSchema }).strict();
