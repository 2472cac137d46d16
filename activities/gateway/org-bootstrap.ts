import { eq } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { accounts, paymentTerms, users, type Role } from '../../db/schema';
import { rolesInOrg } from '../../db/repositories/organizations';
import {
  DEFAULT_CHART,
  DEFAULT_PAYMENT_TERMS,
  accountId,
  paymentTermsId,
} from '../../db/ledger/default-chart';
import { applySystemWrites, type SystemWrite } from './system';

/**
 * Bootstrapping an org through the write gateway as the system identity: its first members'
 * roles and its default chart and payment terms, each a system write (planned, risk-scored,
 * audited), so seeding twice applies nothing twice.
 */

/**
 * Creates the user (idempotent) and grants the roles in the org through the write gateway as
 * the system identity (membership.grant, audited; a role already held is left alone).
 */
export async function ensureUser(
  db: Db,
  u: {
    id: string;
    email: string;
    displayName: string;
    orgId: string;
    roles: Role[];
  },
): Promise<void> {
  await db
    .insert(users)
    .values({ id: u.id, email: u.email, displayName: u.displayName })
    .onConflictDoNothing();
  const held = new Set(await rolesInOrg(db, u.orgId, u.id));
  const grants: SystemWrite[] = u.roles
    .filter((role) => !held.has(role))
    .map((role) => ({
      orgId: u.orgId,
      idempotencyKey: `system:grant:${u.id}:${role}`,
      kind: 'membership.grant',
      payload: { userId: u.id, role },
    }));
  if (grants.length > 0) await applySystemWrites(db, grants);
}

/**
 * Seeds the default chart and payment terms for a new org through the write gateway, as the
 * system identity (one account.create / payment_terms.create submission per line, audited).
 * Idempotent: a code the org already has is left as it is, and a seeding step already applied
 * is not applied again.
 */
export async function seedDefaultChart(db: Db, orgId: string): Promise<void> {
  const haveAccounts = new Set(
    (await db.select({ code: accounts.code }).from(accounts).where(eq(accounts.orgId, orgId))).map(
      (a) => a.code,
    ),
  );
  const haveTerms = new Set(
    (
      await db
        .select({ code: paymentTerms.code })
        .from(paymentTerms)
        .where(eq(paymentTerms.orgId, orgId))
    ).map((t) => t.code),
  );
  const writes: SystemWrite[] = [
    ...DEFAULT_CHART.filter((a) => !haveAccounts.has(a.code)).map((a): SystemWrite => ({
      orgId,
      idempotencyKey: `system:chart:${a.code}`,
      kind: 'account.create',
      payload: {
        accountId: accountId(orgId, a.code),
        code: a.code,
        name: a.name,
        type: a.type,
        ...(a.systemRole ? { systemRole: a.systemRole } : {}),
      },
    })),
    ...DEFAULT_PAYMENT_TERMS.filter((t) => !haveTerms.has(t.code)).map((t): SystemWrite => ({
      orgId,
      idempotencyKey: `system:terms:${t.code}`,
      kind: 'payment_terms.create',
      payload: { paymentTermsId: paymentTermsId(orgId, t.code), ...t },
    })),
  ];
  if (writes.length > 0) await applySystemWrites(db, writes);
}
