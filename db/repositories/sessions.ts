import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import { apiKeys, browserSessions, memberships } from '../schema';

export type SessionEndReason = 'logout' | 'key_revoked' | 'role_removed';

/** Records a new browser session for a live user key; only the token's keyed hash is kept. */
export async function createBrowserSession(
  db: Db,
  s: {
    id: string;
    tokenHash: string;
    keyId: string;
    userId: string;
    orgId: string;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(browserSessions).values(s);
}

/**
 * The session behind a token hash while it is live: not ended (logout, key revocation, role
 * removal), not expired, its key still a live user key of that user, and its user still holding
 * a role in its org. Null otherwise. A session works only where its key does.
 */
export async function liveSession(
  db: Db,
  tokenHash: string,
  now = new Date(),
): Promise<{ sessionId: string; keyId: string; userId: string; orgId: string } | null> {
  const [row] = await db
    .select({
      sessionId: browserSessions.id,
      keyId: browserSessions.keyId,
      userId: browserSessions.userId,
      orgId: browserSessions.orgId,
    })
    .from(browserSessions)
    .innerJoin(apiKeys, eq(apiKeys.id, browserSessions.keyId))
    .where(
      and(
        eq(browserSessions.tokenHash, tokenHash),
        isNull(browserSessions.endedAt),
        gt(browserSessions.expiresAt, now),
        eq(apiKeys.principalKind, 'user'),
        eq(apiKeys.userId, browserSessions.userId),
        eq(apiKeys.orgId, browserSessions.orgId),
        isNull(apiKeys.revokedAt),
        gt(apiKeys.expiresAt, now),
        sql`exists (select 1 from ${memberships} m where m.org_id = ${browserSessions.orgId} and m.user_id = ${browserSessions.userId})`,
      ),
    );
  return row ?? null;
}

/**
 * Deletes sessions that ended or expired more than `keepDays` ago (at least one): a live one is
 * never touched. Through prune_browser_sessions (migration 0033), since the runtime role may
 * not delete sessions itself. Returns how many rows went.
 */
export async function pruneBrowserSessions(db: Db, keepDays = 30): Promise<number> {
  const days = Math.max(1, Math.floor(keepDays));
  const rows = await db.execute<{ pruned: number }>(
    sql`select prune_browser_sessions(make_interval(days => ${days})) as pruned`,
  );
  return Number(rows.rows[0]?.pruned ?? 0);
}

/** Ends the session behind a token hash (logout); false when there was no live one. */
export async function endBrowserSession(
  db: Db,
  tokenHash: string,
  reason: SessionEndReason,
): Promise<boolean> {
  const rows = await db
    .update(browserSessions)
    .set({ endedAt: sql`now()`, endedReason: reason })
    .where(and(eq(browserSessions.tokenHash, tokenHash), isNull(browserSessions.endedAt)))
    .returning({ id: browserSessions.id });
  return rows.length > 0;
}
