/**
 * The keys of batch entries (journal.post_batch, bill.post_batch): an entry's own idempotency
 * key, and the key of the submission an entry is split out to.
 */
import { z } from 'zod';

/** An entry's own idempotency key: unique per org, whichever batch carries it. */
export const EntryKeySchema = z
  .string()
  .regex(/^[A-Za-z0-9._:-]{1,150}$/, 'letters, digits and . _ : - (at most 150)');
/** The idempotency key of the submission a high-risk entry is split out to. */
export const splitIdempotencyKey = (entryKey: string) => `split:${entryKey}`;
