import { eq } from 'drizzle-orm';
import type { Db } from '../connection';
import { apiKeys } from '../schema';

/**
 * The org of the session's key while it is still a live user key of that user (not revoked,
 * not expired, bound to an org); null otherwise. A session works only where its key does.
 */
export async function sessionKeyOrg(
  db: Db,
  claims: { keyId: string; userId: string },
  now = new Date(),
): Promise<string | null> {
  const [row] = await db
    .select({
      userId: apiKeys.userId,
      orgId: apiKeys.orgId,
      kind: apiKeys.principalKind,
      revokedAt: apiKeys.revokedAt,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.id, claims.keyId));
  const live =
    !!row &&
    row.kind === 'user' &&
    row.userId === claims.userId &&
    !row.revokedAt &&
    row.expiresAt.getTime() > now.getTime();
  return live ? (row.orgId ?? null) : null;
}
