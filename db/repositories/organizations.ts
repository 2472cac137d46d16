import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../connection';
import { memberships, organizations, type Role } from '../schema';
import { z } from 'zod';
import { OrgIdSchema } from '../../workflows/org-id';

export async function ensureOrganization(db: Db, org: { id: string; name: string }): Promise<void> {
  // Refused before the database's CHECK, with the zod issue (path `id`) the caller can show.
  await db
    .insert(organizations)
    .values({ ...org, ...z.object({ id: OrgIdSchema }).parse({ id: org.id }) })
    .onConflictDoNothing();
}

/** Every organization's id (schedules without named orgs fire for each). */
export async function listOrganizationIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: organizations.id }).from(organizations);
  return rows.map((r) => r.id).sort();
}

export async function organizationExists(db: Db, orgId: string): Promise<boolean> {
  const rows = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, orgId));
  return rows.length > 0;
}

export async function rolesInOrg(db: Db, orgId: string, userId: string): Promise<Role[]> {
  const rows = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  return rows.map((r) => r.role);
}

export async function hasAnyRole(
  db: Db,
  orgId: string,
  userId: string,
  roles: Role[],
): Promise<boolean> {
  const rows = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(
      and(
        eq(memberships.orgId, orgId),
        eq(memberships.userId, userId),
        inArray(memberships.role, roles),
      ),
    );
  return rows.length > 0;
}
