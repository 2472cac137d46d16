import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';

/**
 * The invariants every fault scenario ends with, read straight from the database: books
 * balance per org and currency, nothing posted twice, and every applied write carries its
 * audit trail exactly once.
 */
export interface LedgerInvariants {
  /** (org, currency) pairs whose posted debits differ from posted credits. */
  unbalancedOrgs: number;
  /** Submissions with more than one journal entry, plus journal entries no submission owns twice over. */
  doublePostings: number;
  /** Applied submissions without exactly one `submitted` audit row. */
  auditGaps: number;
  /** (subject, event) audit pairs written more than once. */
  duplicateAuditRows: number;
}

const count = async (db: Db, query: ReturnType<typeof sql>): Promise<number> =>
  Number(((await db.execute<{ n: string }>(query)).rows[0] ?? { n: '0' }).n);

export async function checkLedgerInvariants(db: Db): Promise<LedgerInvariants> {
  const unbalancedOrgs = await count(
    db,
    sql`select count(*)::text as n from (
          select l.org_id, l.currency from journal_lines l
          join journal_entries e on e.id = l.entry_id and e.status = 'posted'
          group by l.org_id, l.currency having sum(l.debit) <> sum(l.credit)) x`,
  );
  const doublePostings = await count(
    db,
    sql`select count(*)::text as n from (
          select submission_id from journal_entries where submission_id is not null
          group by submission_id having count(*) > 1) x`,
  );
  const auditGaps = await count(
    db,
    sql`select count(*)::text as n from gateway_submissions s
        where s.status = 'applied' and (
          select count(*) from audit_log a
          where a.subject_type = 'gateway_submission' and a.subject_id = s.id
            and a.event = 'submitted') <> 1`,
  );
  const duplicateAuditRows = await count(
    db,
    sql`select count(*)::text as n from (
          select subject_type, subject_id, event from audit_log
          where event in ('submitted', 'applied')
          group by 1, 2, 3 having count(*) > 1) x`,
  );
  return { unbalancedOrgs, doublePostings, auditGaps, duplicateAuditRows };
}
