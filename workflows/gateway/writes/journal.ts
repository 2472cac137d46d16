/** Journal writes: journal.post, journal.post_batch and journal.reverse, with their lines. */
import { z } from 'zod';
import { EntryKeySchema } from './batch-keys';
import {
  CurrencySchema,
  DateSchema,
  DIGITS,
  IdSchema,
  ISO_CURRENCIES,
  MinorUnitsSchema,
  Text,
} from './fields';

const wellFormed = (l: { debit?: unknown; credit?: unknown; currency?: unknown }) =>
  (l.debit === undefined || (typeof l.debit === 'string' && DIGITS.test(l.debit))) &&
  (l.credit === undefined || (typeof l.credit === 'string' && DIGITS.test(l.credit))) &&
  typeof l.currency === 'string' &&
  ISO_CURRENCIES.has(l.currency);

export const JournalLineSchema = z
  .object({
    accountId: IdSchema,
    currency: CurrencySchema,
    debit: MinorUnitsSchema.optional(),
    credit: MinorUnitsSchema.optional(),
    memo: z.string().max(500).optional(),
  })
  .strict()
  .superRefine((l, ctx) => {
    // zod reports field issues and still runs refinements: judge only well-formed amounts.
    if (!wellFormed(l)) return;
    const d = BigInt(l.debit ?? '0');
    const c = BigInt(l.credit ?? '0');
    if (d > 0n === c > 0n)
      ctx.addIssue({
        code: 'custom',
        path: ['debit'],
        message: 'a line has exactly one of debit or credit, and it is positive',
      });
  });
export type JournalLineInput = z.infer<typeof JournalLineSchema>;

/** Debits equal credits per currency (judged only when every line is well formed). */
function refineBalanced(e: { lines: JournalLineInput[] }, ctx: z.RefinementCtx): void {
  if (!Array.isArray(e.lines) || !e.lines.every(wellFormed)) return;
  const net = new Map<string, bigint>();
  for (const l of e.lines)
    net.set(
      l.currency,
      (net.get(l.currency) ?? 0n) + BigInt(l.debit ?? '0') - BigInt(l.credit ?? '0'),
    );
  for (const [currency, diff] of net) {
    if (diff !== 0n)
      ctx.addIssue({
        code: 'custom',
        path: ['lines'],
        message: `the entry does not balance in ${currency}: debits minus credits = ${diff}`,
      });
  }
}

export const JournalPostSchema = z
  .object({
    entryDate: DateSchema,
    memo: Text(500),
    lines: z.array(JournalLineSchema).min(2).max(200),
  })
  .strict()
  .superRefine(refineBalanced);

/** Entries a journal.post_batch carries at most (its payload stays well under 2 MB). */
export const BATCH_MAX_ENTRIES = 1000;
export const JournalBatchEntrySchema = z
  .object({
    key: EntryKeySchema,
    entryDate: DateSchema,
    memo: Text(500),
    lines: z.array(JournalLineSchema).min(2).max(50),
  })
  .strict()
  .superRefine(refineBalanced);
export type JournalBatchEntry = z.infer<typeof JournalBatchEntrySchema>;

/**
 * Many journal entries in one submission: applied all or none in one transaction, each entry
 * idempotent by its own key (an entry posted before — by this or another batch — is skipped),
 * each risk-scored on its own; the batch's lane is the highest of its entries, and an entry in
 * the high lane is split out to its own submission instead of holding the batch.
 */
export const JournalPostBatchSchema = z
  .object({ entries: z.array(JournalBatchEntrySchema).min(1).max(BATCH_MAX_ENTRIES) })
  .strict()
  .superRefine((b, ctx) => {
    if (!Array.isArray(b.entries)) return;
    const seen = new Map<string, number>();
    b.entries.forEach((e, i) => {
      const key = (e as { key?: unknown }).key;
      if (typeof key !== 'string') return;
      const first = seen.get(key);
      if (first !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['entries', i, 'key'],
          message: `duplicate entry key (also entries.${first}.key)`,
        });
      else seen.set(key, i);
    });
  });

export const JournalReverseSchema = z
  .object({ entryId: IdSchema, reversalDate: DateSchema, reason: Text(500) })
  .strict();
