import { createHash } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../connection';
import { auditLog } from '../schema';
import type { Q } from './ledger';

export interface AuditRow {
  orgId: string;
  subjectType: string;
  subjectId: string;
  event: string;
  idempotencyKey: string;
  actor: string;
  payload: unknown;
}

const AppendedSchema = z.object({ written: z.boolean() });

/**
 * Appends a row once per (org, idempotency key); a retry with the very same row is a no-op.
 * Returns true when written. A key that already holds a different row in the org is an error
 * (PostgreSQL 23505 on `audit_log_org_idempotency_key`) that aborts the transaction, never a
 * silent skip: the database's audit_append (migration 0020) decides, the same function every
 * audit trigger uses. The database numbers and chains the row (migration 0006); pass the
 * transaction that makes the change it records, so the two commit together.
 */
export async function appendAudit(q: Q, row: AuditRow): Promise<boolean> {
  const result = await q.execute(sql`
    select audit_append(${row.orgId}, ${row.subjectType}, ${row.subjectId}, ${row.event},
                        ${row.idempotencyKey}, ${row.actor},
                        ${JSON.stringify(row.payload ?? null)}::jsonb) as written`);
  return AppendedSchema.parse(result.rows[0]).written;
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
    .orderBy(asc(auditLog.orgSeq));
}

/** The hash a chain starts from (the "previous hash" of an org's first row). */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields a row hash covers, as text, in order (payload as PostgreSQL prints its jsonb). */
export interface ChainedFields {
  orgId: string;
  orgSeq: string;
  subjectType: string;
  subjectId: string;
  event: string;
  idempotencyKey: string;
  actor: string;
  payloadText: string;
  createdAt: string;
  prevHash: string;
}

/**
 * SHA-256 over a length-prefixed (UTF-8 octets) encoding of the fields: the same encoding the
 * chaining trigger uses, recomputed here so that verifying does not trust database code.
 */
export function auditRowHash(f: ChainedFields): string {
  const parts = [
    f.orgId,
    f.orgSeq,
    f.subjectType,
    f.subjectId,
    f.event,
    f.idempotencyKey,
    f.actor,
    f.payloadText,
    f.createdAt,
    f.prevHash,
  ];
  const encoded =
    'countersign-audit-v1' + parts.map((p) => `${Buffer.byteLength(p, 'utf8')}:${p}`).join('');
  return createHash('sha256').update(encoded, 'utf8').digest('hex');
}

const ChainRowSchema = z.object({
  id: z.coerce.number(),
  org_id: z.string(),
  org_seq: z.coerce.string(),
  subject_type: z.string(),
  subject_id: z.string(),
  event: z.string(),
  idempotency_key: z.string(),
  actor: z.string(),
  payload_text: z.string(),
  created_at_text: z.string(),
  prev_hash: z.string(),
  row_hash: z.string(),
});

export const AuditBreakSchema = z.object({
  /** edited: the row's content no longer matches its hash (or it was re-hashed, so the next
   *  row's link no longer matches it); deleted: rows are missing before it; reordered: an
   *  intact row stands at another place than the one it was chained at. */
  kind: z.enum(['edited', 'deleted', 'reordered']),
  id: z.number(),
  orgSeq: z.string(),
  detail: z.string(),
});
export const AuditVerificationSchema = z.object({
  orgId: z.string(),
  ok: z.boolean(),
  rows: z.number(),
  head: z.string(),
  firstBreak: AuditBreakSchema.nullable(),
});
export type AuditVerification = z.infer<typeof AuditVerificationSchema>;

/**
 * Recomputes an org's chain in chain order (org_seq) and names the first row that breaks it:
 * edited (its content no longer matches its hash), deleted (a gap before an intact row), or
 * reordered (an intact row moved: its hash is right for the place its link points to, not for
 * where it stands now).
 */
export async function verifyAuditChain(q: Q, orgId: string): Promise<AuditVerification> {
  const result = await q.execute(sql`
    select id, org_id, org_seq, subject_type, subject_id, event, idempotency_key, actor,
           payload::text as payload_text, audit_canonical_time(created_at) as created_at_text,
           coalesce(prev_hash, '') as prev_hash, coalesce(row_hash, '') as row_hash
    from audit_log where org_id = ${orgId} order by org_seq, id`);
  const rows = result.rows.map((r) => ChainRowSchema.parse(r));
  const hashAt = (r: (typeof rows)[number], orgSeq: string) =>
    auditRowHash({
      orgId: r.org_id,
      orgSeq,
      subjectType: r.subject_type,
      subjectId: r.subject_id,
      event: r.event,
      idempotencyKey: r.idempotency_key,
      actor: r.actor,
      payloadText: r.payload_text,
      createdAt: r.created_at_text,
      prevHash: r.prev_hash,
    });
  let prev = GENESIS_HASH;
  let prevRow: (typeof rows)[number] | undefined;
  let expectedSeq = 1n;
  const done = (firstBreak: AuditVerification['firstBreak']): AuditVerification => ({
    orgId,
    ok: firstBreak === null,
    rows: rows.length,
    head: prev,
    firstBreak,
  });
  for (const r of rows) {
    const at = { id: r.id, orgSeq: r.org_seq };
    const what = `row ${r.id} (#${r.org_seq}, ${r.event} on ${r.subject_type} ${r.subject_id})`;
    if (hashAt(r, r.org_seq) !== r.row_hash) {
      // An intact row that was moved hashes right at the place it was chained at.
      let home: string | undefined;
      for (let seq = 1; seq <= rows.length + 1 && home === undefined; seq++)
        if (String(seq) !== r.org_seq && hashAt(r, String(seq)) === r.row_hash) home = String(seq);
      return done(
        home !== undefined
          ? { kind: 'reordered', ...at, detail: `${what} was chained as #${home}` }
          : { kind: 'edited', ...at, detail: `${what} does not match its hash` },
      );
    }
    if (r.prev_hash !== prev) {
      const seq = BigInt(r.org_seq);
      if (seq > expectedSeq || !prevRow)
        return done({
          kind: 'deleted',
          ...at,
          detail: `row(s) #${expectedSeq}${seq - 1n > expectedSeq ? `–#${seq - 1n}` : ''} missing before ${what}`,
        });
      // The row before it hashes correctly but is not the row this one was chained to: it was
      // rewritten and re-hashed.
      return done({
        kind: 'edited',
        id: prevRow.id,
        orgSeq: prevRow.org_seq,
        detail: `row ${prevRow.id} (#${prevRow.org_seq}) is not the row #${r.org_seq} was chained to: rewritten and re-hashed`,
      });
    }
    prevRow = r;
    prev = r.row_hash;
    expectedSeq = BigInt(r.org_seq) + 1n;
  }
  return done(null);
}

export const AuditHeadSchema = z.object({
  orgId: z.string(),
  rows: z.number(),
  orgSeq: z.string().nullable(),
  hash: z.string(),
  createdAt: z.string().nullable(),
  exportedAt: z.string(),
});
export type AuditHead = z.infer<typeof AuditHeadSchema>;

/** The chain head to anchor outside the database (a ticket, an email, a notary service). */
export async function auditHead(q: Q, orgId: string): Promise<AuditHead> {
  const result = await q.execute(sql`
    select (select count(*) from audit_log where org_id = ${orgId})::int as rows,
           h.org_seq::text as org_seq, h.row_hash, audit_canonical_time(h.created_at) as created_at
    from (select 1) one
    left join lateral (select org_seq, row_hash, created_at from audit_log where org_id = ${orgId}
                       order by org_seq desc limit 1) h on true`);
  const r = z
    .object({
      rows: z.coerce.number(),
      org_seq: z.string().nullable(),
      row_hash: z.string().nullable(),
      created_at: z.string().nullable(),
    })
    .parse(result.rows[0]);
  return {
    orgId,
    rows: r.rows,
    orgSeq: r.org_seq,
    hash: r.row_hash ?? GENESIS_HASH,
    createdAt: r.created_at,
    exportedAt: new Date().toISOString(),
  };
}

/** Orgs that have audit rows (for verifying every chain). */
export async function auditedOrgs(q: Q): Promise<string[]> {
  const result = await q.execute(sql`select distinct org_id from audit_log order by org_id`);
  return result.rows.map((r) => z.object({ org_id: z.string() }).parse(r).org_id);
}
