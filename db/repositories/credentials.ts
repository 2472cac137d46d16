import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import type { Q } from './ledger';
import { agentIdentities, apiKeys, memberships, organizations, users } from '../schema';
import { generateApiKey, hashKeySecret, parseApiKey, sameDigest } from '../api-keys';

/** Keys live one year unless issued shorter; never longer than five. */
export const DEFAULT_KEY_TTL_DAYS = 365;
export const MAX_KEY_TTL_DAYS = 5 * 365;

export type Principal =
  /** A person's key works only in the org it was issued for (orgId). */
  | { kind: 'user'; userId: string; orgId: string; keyId: string }
  | {
      kind: 'agent';
      orgId: string;
      agentId: string;
      operatorUserId: string;
      allowedWorkflows: string[];
      keyId: string;
    };

export type IssueTarget =
  { kind: 'user'; userId: string } | { kind: 'agent'; orgId: string; agentId: string };

/**
 * Issues a key; the returned `key` is the only copy of its secret. A person's key is bound to
 * `opts.orgId` and works only there (authenticateApiKey); who may issue it (an owner or admin
 * of that org) is checked by the caller (the CLI's `keys issue`).
 */
export async function issueApiKey(
  db: Db,
  target: IssueTarget,
  opts: {
    issuedBy: string;
    /**
     * The org whose admin issues the key: its audit chain records the issuance (and the
     * revocation). An agent key is its agent's org's.
     */
    orgId: string;
    label?: string;
    ttlDays?: number;
    now?: Date;
  },
): Promise<{ key: string; keyId: string; expiresAt: string }> {
  if (target.kind === 'agent' && target.orgId !== opts.orgId)
    throw new RangeError(
      `An agent key of org ${target.orgId} is issued there, not in ${opts.orgId}`,
    );
  // A person's key works only in opts.orgId, so it is issued only to a member of that org.
  if (
    target.kind === 'user' &&
    (
      await db
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.orgId, opts.orgId), eq(memberships.userId, target.userId)))
    ).length === 0
  )
    throw new RangeError(`User ${target.userId} has no role in org ${opts.orgId}`);
  const ttl = opts.ttlDays ?? DEFAULT_KEY_TTL_DAYS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_KEY_TTL_DAYS)
    throw new RangeError(`A key lives 1 to ${MAX_KEY_TTL_DAYS} days, not ${ttl}`);
  const now = opts.now ?? new Date();
  const expiresAt = new Date(now.getTime() + ttl * 86_400_000);
  const k = generateApiKey();
  await db.insert(apiKeys).values({
    id: k.id,
    principalKind: target.kind,
    userId: target.kind === 'user' ? target.userId : null,
    agentOrgId: target.kind === 'agent' ? target.orgId : null,
    agentId: target.kind === 'agent' ? target.agentId : null,
    salt: k.salt,
    secretHash: k.secretHash,
    label:
      opts.label ?? (target.kind === 'user' ? target.userId : `${target.orgId}/${target.agentId}`),
    issuedBy: opts.issuedBy,
    orgId: opts.orgId,
    createdAt: now,
    expiresAt,
  });
  return { key: k.key, keyId: k.id, expiresAt: expiresAt.toISOString() };
}

/** Revokes a key at once; returns false when there was no such live key. */
export async function revokeApiKey(db: Db, keyId: string, revokedBy: string): Promise<boolean> {
  const r = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()`, revokedBy })
    .where(and(eq(apiKeys.id, keyId), sql`${apiKeys.revokedAt} is null`))
    .returning({ id: apiKeys.id });
  return r.length > 0;
}

export async function apiKeyOwner(
  db: Db,
  keyId: string,
): Promise<{ userId: string | null; agentOrgId: string | null } | undefined> {
  const [row] = await db
    .select({ userId: apiKeys.userId, agentOrgId: apiKeys.agentOrgId })
    .from(apiKeys)
    .where(eq(apiKeys.id, keyId));
  return row;
}

export type AuthFailure = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'disabled' | 'unbound';

/**
 * Who holds this key: the user, or the agent with its stored permissions and operator. The
 * hash comparison is constant-time; an unknown id costs the same hash as a wrong secret.
 */
export async function authenticateApiKey(
  db: Db,
  presented: string,
  now = new Date(),
): Promise<{ ok: true; principal: Principal } | { ok: false; reason: AuthFailure }> {
  const parts = parseApiKey(presented);
  if (!parts) return { ok: false, reason: 'malformed' };
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, parts.id));
  const computed = hashKeySecret(row?.salt ?? '00', parts.secret);
  if (!row || !sameDigest(computed, row.secretHash)) return { ok: false, reason: 'unknown' };
  if (row.revokedAt) return { ok: false, reason: 'revoked' };
  if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  if (row.principalKind === 'user') {
    // A person's key is bound to the org it was issued for; one bound to none (issued before
    // org binding, for a user without a role anywhere) works nowhere.
    if (row.orgId === null) return { ok: false, reason: 'unbound' };
    return {
      ok: true,
      principal: { kind: 'user', userId: row.userId as string, orgId: row.orgId, keyId: row.id },
    };
  }
  const agent = await getAgentIdentity(db, row.agentOrgId as string, row.agentId as string);
  if (!agent || !agent.enabled) return { ok: false, reason: 'disabled' };
  return {
    ok: true,
    principal: {
      kind: 'agent',
      orgId: agent.orgId,
      agentId: agent.agentId,
      operatorUserId: agent.operatorUserId,
      allowedWorkflows: agent.allowedWorkflows,
      keyId: row.id,
    },
  };
}

export type AgentIdentity = typeof agentIdentities.$inferSelect;

export async function getAgentIdentity(
  q: Q,
  orgId: string,
  agentId: string,
): Promise<AgentIdentity | undefined> {
  const [row] = await q
    .select()
    .from(agentIdentities)
    .where(and(eq(agentIdentities.orgId, orgId), eq(agentIdentities.agentId, agentId)));
  return row;
}

/**
 * Registers an agent (or updates its permissions and operator); the enabled flag is kept. The
 * database audits the registration or change under `by` (the admin), on the org's chain.
 */
export async function upsertAgentIdentity(
  db: Db,
  a: {
    orgId: string;
    agentId: string;
    operatorUserId: string;
    allowedWorkflows: string[];
    by: string;
  },
): Promise<void> {
  const { by, ...row } = a;
  await db
    .insert(agentIdentities)
    .values({ ...row, updatedBy: by })
    .onConflictDoUpdate({
      target: [agentIdentities.orgId, agentIdentities.agentId],
      set: {
        operatorUserId: a.operatorUserId,
        allowedWorkflows: a.allowedWorkflows,
        updatedAt: sql`now()`,
        updatedBy: by,
      },
    });
}

export async function setAgentEnabled(
  db: Db,
  orgId: string,
  agentId: string,
  enabled: boolean,
  by: string,
) {
  await db
    .update(agentIdentities)
    .set({ enabled, updatedAt: sql`now()`, updatedBy: by })
    .where(and(eq(agentIdentities.orgId, orgId), eq(agentIdentities.agentId, agentId)));
}

/** Is this a known user (key issuance refuses unknown principals with a clear message)? */
export async function userExists(db: Db, userId: string): Promise<boolean> {
  return (await db.select({ id: users.id }).from(users).where(eq(users.id, userId))).length > 0;
}

export async function orgExists(db: Db, orgId: string): Promise<boolean> {
  return (
    (
      await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, orgId))
    ).length > 0
  );
}
