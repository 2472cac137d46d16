import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { verifyAuditChain } from '../../db/repositories/audit';

/**
 * The invariants every fault scenario ends with, read straight from the database: books
 * balance per org and currency, nothing posted twice, every applied write carries its audit
 * trail exactly once, every org's audit chain verifies, every vote in the log matches a
 * decision the scenario really made (signed by its client), idempotency keys are unique, and
 * every event is terminal or legitimately waiting (for a person).
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

export interface ScenarioInvariants extends LedgerInvariants {
  /** Orgs whose hash-chained audit log does not verify (edited, deleted, reordered rows). */
  auditChainsBroken: { orgId: string; detail: string }[];
  /** Orgs whose chain was verified. */
  auditChainsVerified: number;
  /**
   * Votes that do not line up: a `vote` audit row without its stored vote (or the reverse), a
   * vote on an applied write by its own submitter, or — when the scenario passes the decisions
   * it signed — a vote nobody made, or a decision made that never reached the log.
   */
  unmatchedApprovals: { subject: string; detail: string }[];
  /** Votes checked against the scenario's signed decisions. */
  approvalsChecked: number;
  /** (org, idempotency key) pairs held by more than one gateway submission. */
  duplicateIdempotencyKeys: number;
  /** Events neither terminal nor waiting on a person (pending or processing with no such run). */
  eventsUnsettled: number;
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

/** A decision the scenario made through the gateway client (which signs its proof). */
export interface SignedDecision {
  submissionId: string;
  approverUserId: string;
  decision: 'approve' | 'reject';
}

/**
 * Every vote the log records against what is stored and, when given, against the decisions
 * the scenario itself signed. The proof is checked by the worker before a vote is stored
 * (and is not kept); so a stored vote that no signed decision accounts for is a forgery or
 * a replay, and a signed decision missing from the log was lost.
 */
async function checkApprovals(
  db: Db,
  decisions: SignedDecision[] | undefined,
  orgs: string[] | undefined,
): Promise<{ unmatched: ScenarioInvariants['unmatchedApprovals']; checked: number }> {
  const inOrgs = orgs ? sql`and s.org_id in ${orgs}` : sql``;
  const votes = (
    await db.execute<{
      submission_id: string;
      approver: string;
      decision: string;
      logged: string;
      stored: string;
      submitter: string | null;
      status: string;
    }>(sql`
      with logged as (
        select a.subject_id as submission_id, substr(a.actor, 6) as approver,
               a.payload->>'decision' as decision, count(*) as logged
        from audit_log a join gateway_submissions s on s.id = a.subject_id
        where a.subject_type = 'gateway_submission' and a.event = 'vote' ${inOrgs}
        group by 1, 2, 3)
      select l.submission_id, l.approver, l.decision, l.logged::text as logged,
             (select count(*) from gateway_plan_votes v
               where v.submission_id = l.submission_id and v.approver_user_id = l.approver
                 and v.decision = l.decision)::text as stored,
             s.submitter_user_id as submitter, s.status
      from logged l join gateway_submissions s on s.id = l.submission_id`)
  ).rows;
  const unmatched: ScenarioInvariants['unmatchedApprovals'] = [];
  for (const v of votes) {
    const subject = `${v.submission_id} by ${v.approver}`;
    if (v.stored === '0') unmatched.push({ subject, detail: 'vote in the log, none stored' });
    if (v.status === 'applied' && v.decision === 'approve' && v.approver === v.submitter)
      unmatched.push({ subject, detail: 'a submitter approved their own write' });
  }
  // Stored votes the log does not carry.
  const unlogged = (
    await db.execute<{ submission_id: string; approver_user_id: string }>(sql`
      select v.submission_id, v.approver_user_id from gateway_plan_votes v
      join gateway_submissions s on s.id = v.submission_id
      where not exists (select 1 from audit_log a
        where a.subject_type = 'gateway_submission' and a.subject_id = v.submission_id
          and a.event = 'vote' and a.actor = 'user:' || v.approver_user_id) ${inOrgs}`)
  ).rows;
  for (const v of unlogged)
    unmatched.push({
      subject: `${v.submission_id} by ${v.approver_user_id}`,
      detail: 'vote stored without its audit row',
    });
  if (decisions) {
    const signed = new Set(
      decisions.map((d) => `${d.submissionId}|${d.approverUserId}|${d.decision}`),
    );
    const logged = new Set(votes.map((v) => `${v.submission_id}|${v.approver}|${v.decision}`));
    for (const v of votes)
      if (!signed.has(`${v.submission_id}|${v.approver}|${v.decision}`))
        unmatched.push({
          subject: `${v.submission_id} by ${v.approver}`,
          detail: `a ${v.decision} vote no signed decision accounts for`,
        });
    for (const d of decisions)
      if (!logged.has(`${d.submissionId}|${d.approverUserId}|${d.decision}`))
        unmatched.push({
          subject: `${d.submissionId} by ${d.approverUserId}`,
          detail: `a signed ${d.decision} that never reached the log`,
        });
  }
  return { unmatched, checked: votes.length };
}

/** How long events may take to settle after a scenario: the outbox dispatcher's grace + period, and processing. */
const EVENTS_SETTLE_MS = 90_000;

/**
 * All of the above for the given orgs (every org when omitted), after a scenario. `decisions`
 * are the votes the scenario cast; pass them only when `orgs` is given and the scenario was
 * the only voter there. `eventsSettleMs`: how long unsettled events are waited for (0 where
 * no worker runs, so none can settle).
 */
export async function checkScenarioInvariants(
  db: Db,
  opts: { orgs?: string[]; decisions?: SignedDecision[]; eventsSettleMs?: number } = {},
): Promise<ScenarioInvariants> {
  const ledger = await checkLedgerInvariants(db);
  const orgs =
    opts.orgs ??
    (await db.execute<{ org_id: string }>(sql`select distinct org_id from audit_log`)).rows.map(
      (r) => r.org_id,
    );
  const auditChainsBroken: ScenarioInvariants['auditChainsBroken'] = [];
  for (const orgId of orgs) {
    const v = await verifyAuditChain(db, orgId);
    if (!v.ok) auditChainsBroken.push({ orgId, detail: v.firstBreak?.detail ?? 'broken' });
  }
  const approvals = await checkApprovals(db, opts.decisions, opts.orgs);
  const duplicateIdempotencyKeys = await count(
    db,
    sql`select count(*)::text as n from (select org_id, idempotency_key from gateway_submissions
          group by 1, 2 having count(*) > 1) x`,
  );
  // Events settle eventually, not at the instant the last write returned: an applied write's
  // event that a fault kept from being handed over in line is started from the outbox by the
  // dispatcher (its 20 s grace, then its 30 s schedule). The invariant is that each one
  // settles within that window — none lost, none stuck.
  const unsettled = () =>
    count(
      db,
      sql`select count(*)::text as n from events e
          where e.state in ('pending', 'processing')
            and not exists (select 1 from agent_runs r where r.org_id = e.org_id
              and r.event_id = e.id and r.state in ('waiting_human', 'waiting_approval'))`,
    );
  let eventsUnsettled = await unsettled();
  for (
    const until = Date.now() + (opts.eventsSettleMs ?? EVENTS_SETTLE_MS);
    eventsUnsettled > 0 && Date.now() < until;
  ) {
    await new Promise((r) => setTimeout(r, 1000));
    eventsUnsettled = await unsettled();
  }
  return {
    ...ledger,
    auditChainsBroken,
    auditChainsVerified: orgs.length,
    unmatchedApprovals: approvals.unmatched,
    approvalsChecked: approvals.checked,
    duplicateIdempotencyKeys,
    eventsUnsettled,
  };
}

/** What broke, one line each; empty when every invariant holds. */
export function invariantViolations(i: ScenarioInvariants): string[] {
  const why: string[] = [];
  if (i.unbalancedOrgs > 0) why.push(`${i.unbalancedOrgs} unbalanced org/currency pairs`);
  if (i.doublePostings > 0) why.push(`${i.doublePostings} double postings`);
  if (i.auditGaps > 0) why.push(`${i.auditGaps} applied writes without their audit row`);
  if (i.duplicateAuditRows > 0) why.push(`${i.duplicateAuditRows} duplicated audit rows`);
  for (const b of i.auditChainsBroken) why.push(`audit chain of ${b.orgId}: ${b.detail}`);
  for (const u of i.unmatchedApprovals) why.push(`approval ${u.subject}: ${u.detail}`);
  if (i.duplicateIdempotencyKeys > 0)
    why.push(`${i.duplicateIdempotencyKeys} idempotency keys held twice`);
  if (i.eventsUnsettled > 0) why.push(`${i.eventsUnsettled} events neither terminal nor waiting`);
  return why;
}

/** `write.applied` events against the applied writes of the given orgs. */
export interface WriteAppliedEventInvariants {
  /** Applied gateway submissions in the orgs. */
  appliedWrites: number;
  /** Applied writes with no `write.applied` event row. */
  missingEvents: number;
  /** Applied writes with more than one `write.applied` event row. */
  duplicateEvents: number;
  /** Event rows not finished as completed (or ignored: completed with no subscriber). */
  eventsNotCompleted: { eventId: string; state: string }[];
  /** Outbox rows of the orgs still not handed over to their workflow. */
  outboxNotHandedOver: number;
}

/** One event per applied write, every one completed: nothing lost, nothing twice. */
export async function checkWriteAppliedEvents(
  db: Db,
  orgs: string[],
): Promise<WriteAppliedEventInvariants> {
  const per = (
    await db.execute<{ id: string; n: string }>(sql`
      select s.id, (select count(*) from events e
        where e.org_id = s.org_id and e.type = 'write.applied'
          and e.payload->>'submissionId' = s.id)::text as n
      from gateway_submissions s
      where s.org_id in ${orgs} and s.status = 'applied' and s.submitter_kind <> 'system'`)
  ).rows;
  const notCompleted = (
    await db.execute<{ id: string; state: string }>(sql`
      select id, state from events
      where org_id in ${orgs} and type = 'write.applied'
        and state not in ('completed', 'ignored')`)
  ).rows;
  const outboxNotHandedOver = await count(
    db,
    sql`select count(*)::text as n from event_outbox
        where org_id in ${orgs} and handed_over_at is null`,
  );
  return {
    appliedWrites: per.length,
    missingEvents: per.filter((r) => r.n === '0').length,
    duplicateEvents: per.filter((r) => Number(r.n) > 1).length,
    eventsNotCompleted: notCompleted.map((r) => ({ eventId: r.id, state: r.state })),
    outboxNotHandedOver,
  };
}

/** What broke in the write.applied invariants, one line each. */
export function writeAppliedViolations(i: WriteAppliedEventInvariants): string[] {
  const why: string[] = [];
  if (i.missingEvents > 0) why.push(`${i.missingEvents} applied writes without their event`);
  if (i.duplicateEvents > 0) why.push(`${i.duplicateEvents} applied writes with events twice`);
  if (i.eventsNotCompleted.length > 0)
    why.push(`${i.eventsNotCompleted.length} write.applied events not completed`);
  if (i.outboxNotHandedOver > 0) why.push(`${i.outboxNotHandedOver} outbox rows not handed over`);
  return why;
}
