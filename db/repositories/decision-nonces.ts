import { eq, lt } from 'drizzle-orm';
import type { Db } from '../connection';
import { decisionNonces } from '../schema';

export interface NonceClaim {
  nonce: string;
  orgId: string;
  subjectId: string;
  userId: string;
  /** Who claims it: the checking activity's workflow run and activity id. */
  consumedBy: string;
  expiresAt: Date;
}

/**
 * Claims a decision proof's nonce: `claimed` the first time, and again for the same consumer
 * (a retried activity whose first completion was lost); `replayed` when anyone else already
 * used it. One statement, so two workers racing on one nonce cannot both win.
 */
export async function claimDecisionNonce(db: Db, c: NonceClaim): Promise<'claimed' | 'replayed'> {
  const inserted = await db
    .insert(decisionNonces)
    .values(c)
    .onConflictDoNothing({ target: decisionNonces.nonce })
    .returning({ nonce: decisionNonces.nonce });
  if (inserted.length > 0) return 'claimed';
  const [row] = await db
    .select({ consumedBy: decisionNonces.consumedBy })
    .from(decisionNonces)
    .where(eq(decisionNonces.nonce, c.nonce));
  return row?.consumedBy === c.consumedBy ? 'claimed' : 'replayed';
}

/**
 * Forgets nonces whose proofs expired a while ago (they are refused as expired anyway). The
 * grace covers clocks that differ between workers: one worker's clock running ahead must not
 * forget a nonce another still accepts.
 */
export const NONCE_PRUNE_GRACE_MS = 10 * 60_000;

export async function pruneDecisionNonces(db: Db, now = new Date()): Promise<number> {
  const rows = await db
    .delete(decisionNonces)
    .where(lt(decisionNonces.expiresAt, new Date(now.getTime() - NONCE_PRUNE_GRACE_MS)))
    .returning({ nonce: decisionNonces.nonce });
  return rows.length;
}
