import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * The payload codec's data keys (client/codec): one generation per scope (`org:<id>` or
 * `platform`) at a time, each stored only wrapped (AES-256-GCM) by a master key that lives in
 * configuration, never here. A rotation adds the next generation; older rows stay so history
 * written under them still decrypts. The runtime role may read and add keys, never change or
 * delete one (that would make history unreadable).
 */
export const codecDataKeys = pgTable(
  'codec_data_keys',
  {
    /** The id written into every payload it encrypts (`dk_<hex>`): reveals neither org nor key. */
    id: text('id').primaryKey(),
    scope: text('scope').notNull(),
    generation: integer('generation').notNull(),
    masterKeyId: text('master_key_id').notNull(),
    /** base64 of iv ‖ tag ‖ ciphertext of the 32-byte key, bound to id and scope. */
    wrapped: text('wrapped').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('codec_data_keys_scope_generation').on(t.scope, t.generation),
    check('codec_data_keys_scope_known', sql`${t.scope} = 'platform' or ${t.scope} like 'org:_%'`),
    check('codec_data_keys_generation_positive', sql`${t.generation} >= 1`),
  ],
);
