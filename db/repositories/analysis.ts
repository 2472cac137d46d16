import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import { analysisRequests, analysisResults, reviewDecisions } from '../schema';

export async function recordRequest(
  db: Db,
  r: { requestId: string; orgId: string; workflowId: string; queryType: string; request: unknown },
): Promise<void> {
  await db.insert(analysisRequests).values(r).onConflictDoNothing();
}

/**
 * Upsert keyed by (org, request id): the awaiting-review row becomes the final one, and another
 * org's request with the same id is another row.
 */
export async function storeResult(
  db: Db,
  r: {
    requestId: string;
    orgId: string;
    outcome: string;
    confidence: number;
    result: unknown;
    validation: unknown;
    decision: unknown;
  },
): Promise<void> {
  await db
    .insert(analysisResults)
    .values(r)
    .onConflictDoUpdate({
      target: [analysisResults.orgId, analysisResults.requestId],
      set: {
        outcome: r.outcome,
        confidence: r.confidence,
        result: r.result,
        validation: r.validation,
        decision: r.decision,
        updatedAt: sql`now()`,
      },
    });
}

export async function getResult(db: Db, orgId: string, requestId: string) {
  const rows = await db
    .select()
    .from(analysisResults)
    .where(and(eq(analysisResults.orgId, orgId), eq(analysisResults.requestId, requestId)));
  return rows[0];
}

/**
 * At most one decision per (org, request) (primary key); a retried write is a no-op. The
 * database writes its audit row in the same statement (migration 0006).
 */
export async function recordDecision(
  db: Db,
  d: {
    requestId: string;
    orgId: string;
    decision: string;
    reviewerId: string;
    note: string | null;
    corrections: unknown;
    decidedAt: Date;
  },
): Promise<void> {
  await db.insert(reviewDecisions).values(d).onConflictDoNothing();
}
