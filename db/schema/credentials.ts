import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { organizations, users } from './organizations';

/**
 * API keys the platform issues to people and agents. The secret is shown once; only a
 * salted SHA-256 of it is stored (the secret is 256 random bits, so a slow hash adds
 * nothing), compared in constant time. A key expires, and can be revoked.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    /** Public part of the key (`csk_<id>_<secret>`): finds the row without scanning hashes. */
    id: text('id').primaryKey(),
    principalKind: text('principal_kind').$type<'user' | 'agent'>().notNull(),
    userId: text('user_id').references(() => users.id),
    /** For an agent key: the org and agent id of its agent_identities row. */
    agentOrgId: text('agent_org_id'),
    agentId: text('agent_id'),
    salt: text('salt').notNull(),
    secretHash: text('secret_hash').notNull(),
    label: text('label').notNull(),
    issuedBy: text('issued_by').notNull(),
    /**
     * The org in whose audit chain the issuance and revocation are recorded: the issuing
     * admin's org (an agent key: its agent's org). Null only for keys issued before 0011.
     */
    orgId: text('org_id').references(() => organizations.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
  },
  (t) => [
    index('api_keys_user').on(t.userId),
    check(
      'api_keys_principal',
      sql`(${t.principalKind} = 'user' and ${t.userId} is not null and ${t.agentId} is null) or (${t.principalKind} = 'agent' and ${t.agentOrgId} is not null and ${t.agentId} is not null and ${t.userId} is null)`,
    ),
  ],
);

/**
 * Agents the platform knows, per org: their write permissions and the person accountable
 * for them. A submission's claims about an agent are checked against this row, never
 * trusted. (The agent-runtime sync from agents/<type>/config.yaml fills it.)
 */
export const agentIdentities = pgTable(
  'agent_identities',
  {
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    /** The agent's id in the org; gateway submissions name it as `submitter.agentType`. */
    agentId: text('agent_id').notNull(),
    operatorUserId: text('operator_user_id')
      .notNull()
      .references(() => users.id),
    allowedWorkflows: jsonb('allowed_workflows').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** Who registered or last changed the record (its audit row names them). */
    updatedBy: text('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.agentId] })],
);
