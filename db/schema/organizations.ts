import { pgTable, text, timestamp, primaryKey, check } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Role } from '../../workflows/roles';

/** Every record in Countersign belongs to one organization (tenant). */
export const organizations = pgTable(
  'organizations',
  {
    /** workflows/org-id.ts's alphabet: never `:`, which separates a workflow id's parts. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('organizations_id_alphabet', sql`${t.id} ~ '^[a-z0-9][a-z0-9_-]{0,63}$'`)],
);

/** People and service identities. Authentication material is a hash, never the token. */
export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').notNull().unique(),
  displayName: text('display_name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The roles and what each may do: workflows/roles.ts (pure, shared with the API and workflows). */
export type { Role } from '../../workflows/roles';

/** Roles are held per organization: a reviewer of org A has no rights in org B. */
export const memberships = pgTable(
  'memberships',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').$type<Role>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.userId, t.role] }),
    check(
      'memberships_role_known',
      sql`${t.role} in ('owner','admin','reviewer','approver','analyst','viewer')`,
    ),
  ],
);
