import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../connection';
import { auditLog } from '../schema';

export interface AuditRow {
  orgId: string;
  subjectType: string;
  subjectId: string;
  event: string;
  idempotencyKey: string;
  actor: string;
  payload: unknown;
}

/** Appends a row once per idempotency key; a retry with the same key is a no-op. Returns true when written. */
export async function appendAudit(db: Db, row: AuditRow): Promise<boolean> {
  const inserted = await db
    .insert(auditLog)
    .values({ ...row, payload: row.payload ?? null })
    .onConflictDoNothing({ target: auditLog.idempotencyKey })
    .returning({ id: auditLog.id });
  return inserted.length > 0;
}

export async function auditTrail(db: Db, orgId: string, subjectType: string, subjectId: string) {
  return db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.orgId, orgId),
        eq(auditLog.subjectType, subjectType),
        eq(auditLog.subjectId, subjectId),
      ),
    )
    .orderBy(asc(auditLog.id));
}
