import { eq } from 'drizzle-orm';
import type { Db } from '../connection';
import { apiKeys } from '../schema';

/** The session's key is still a live user key of that user (not revoked, not expired). */
export async function sessionKeyLive(
  db: Db,
  claims: { keyId: string; userId: string },
  now = new Date(),
): Promise<boolean> {
  const [row] = await db
    .select({
      userId: apiKeys.userId,
      kind: apiKeys.principalKind,
      revokedAt: apiKeys.revokedAt,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.id, claims.keyId));
  return (
    !!row &&
    row.kind === 'user' &&
    row.userId === claims.userId &&
    !row.revokedAt &&
    row.expiresAt.getTime() > now.getTime()
  );
}
