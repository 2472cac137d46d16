import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { apiKeys } from './credentials';
import { organizations, users } from './organizations';

/**
 * Server-side browser sessions (the inbox's cookie). The cookie is an opaque random token;
 * only a keyed hash of it is stored, so a reader of this table cannot sign in. A session is
 * live while `endedAt` is null, before `expiresAt`, while its key is live and while its user
 * holds a role in its org: logout, key revocation and role removal end it at once (the last
 * two by triggers, whatever path revokes — 0030).
 */
export const browserSessions = pgTable(
  'browser_sessions',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** logout, key_revoked, role_removed */
    endedReason: text('ended_reason'),
  },
  (t) => [
    index('browser_sessions_key').on(t.keyId),
    index('browser_sessions_org_user').on(t.orgId, t.userId),
    check('browser_sessions_ended', sql`(${t.endedAt} is null) = (${t.endedReason} is null)`),
  ],
);
