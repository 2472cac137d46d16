import { log } from '@temporalio/activity';
import { heartbeating } from '../heartbeating';
import { gatewayDbFor, type Db } from '../../db/connection';
import { appendAudit } from '../../db/repositories/audit';
import { hasAnyRole } from '../../db/repositories/organizations';
import {
  findSubmissionByKey,
  registerSubmission,
  setSubmissionStatus,
} from '../../db/repositories/gateway';
import {
  currentPlanRevision,
  recordPlanVote,
  recordSuspension,
} from '../../db/repositories/gateway-plans';
import { ErrorType, permanentFailure } from '../../workflows/errors';
import {
  parseWrite,
  formatIssues,
  type GatewayWrite,
  type BillBatchEntry,
  type JournalBatchEntry,
} from '../../workflows/gateway/writes';
import type { RiskAssessment } from '../../workflows/gateway/risk';
import {
  DEFAULT_DB_RETRY,
  DEFAULT_HISTORY_EVENTS_PER_RUN,
  type DbRetrySettings,
  type GatewayRunSettings,
  type Effect,
  type EntryPreview,
  type SuspensionRecord,
  type Vote,
} from '../../workflows/gateway.contract';
import {
  applySubmission,
  evaluateWrite,
  registerFirstRevision,
  type ReplannedRevision,
} from './evaluate';
import type { PayeeAccount } from './kind-def';
import { sameEntry } from './journal-batch';
import { sameBill } from './bill-batch';
import { canonicalJson } from '../../workflows/canonical-json';
import { GatewayRefusal, refusalFromDb } from './refusal';

export interface EvaluateInput {
  write: GatewayWrite;
  submissionId: string;
  workflowId: string;
  runId: string;
  dueAt: string;
  expiresAt: string;
}
export interface EvaluateOutput {
  risk: RiskAssessment;
  preview: EntryPreview[];
  /** The payee bank account a payment goes to: what approvers see is what is applied. */
  payee?: PayeeAccount | null;
  /** The plan revision approvers sign, and its hash. */
  revision?: number;
  planHash?: string;
  /** Set when this key was already applied (by an earlier run): nothing more to do. */
  alreadyApplied: { effects: Effect[]; entryIds: string[] } | null;
  /** The batch kinds: entries or bills the workflow submits on their own. */
  splitOut?: { entryKey: string; index: number; entry: JournalBatchEntry | BillBatchEntry }[];
}

/** How long a split-out submission that was already running is waited for to register. */
const SPLIT_OUT_REGISTRATION_WAIT_MS = 30_000;

const splitOf = (ev: { plan: { splitOut?: EvaluateOutput['splitOut'] } }) =>
  ev.plan.splitOut && ev.plan.splitOut.length > 0
    ? {
        splitOut: ev.plan.splitOut.map((s) => ({
          entryKey: s.entryKey,
          index: s.index,
          entry: s.entry,
        })),
      }
    : {};

function actorOf(w: GatewayWrite): string {
  return w.submitter.kind === 'user'
    ? `user:${w.submitter.userId}`
    : `agent:${w.submitter.agentType}:${w.submitter.instanceId}`;
}

/**
 * The write gateway's activities over the database. Each is idempotent: the submission row
 * is keyed by (org, idempotency key), votes by (submission, revision, approver), the apply
 * by the submission row lock and the journal entries' unique key. Each heartbeats while it
 * waits on the database. They run as the gateway's own role (gatewayDbFor, migration 0034):
 * the runtime role `db` was opened as cannot register, vote or apply.
 */
export function createGatewayActivities({
  db: opened,
  retry = DEFAULT_DB_RETRY,
  historyEventsPerRun = DEFAULT_HISTORY_EVENTS_PER_RUN,
}: {
  /** Any handle openDatabase returned for the database: its gateway connection is used. */
  db: Db;
  retry?: DbRetrySettings;
  /** A submission waiting for approval continues as a new run past this many events. */
  historyEventsPerRun?: number;
}) {
  const db = gatewayDbFor(opened);
  async function evaluate(input: EvaluateInput): Promise<EvaluateOutput> {
    const parsed = parseWrite(input.write);
    if (!parsed.ok)
      throw permanentFailure(
        ErrorType.InvalidWrite,
        `Invalid write: ${formatIssues(parsed.issues)}`,
        { issues: parsed.issues },
      );
    const w = parsed.write;
    let ev;
    try {
      ev = await evaluateWrite(db, w, input.submissionId);
    } catch (err) {
      const refusal = err instanceof GatewayRefusal ? err : refusalFromDb(err);
      if (!refusal) throw err;
      // A refusal is evidence too ("the agent tried to pay an unknown vendor"): audit it.
      await appendAudit(db, {
        orgId: w.orgId,
        subjectType: 'gateway_submission',
        subjectId: input.submissionId,
        event: 'refused',
        idempotencyKey: `${input.workflowId}:${input.runId}:refused`,
        actor: actorOf(w),
        payload: {
          kind: w.kind,
          type: refusal.type,
          message: refusal.message,
          issues: refusal.issues,
          submitter: w.submitter,
        },
      }).catch((auditErr: unknown) => {
        // Not best-effort: an unreachable database retries the activity. Only a row the
        // database cannot store (the refusal quotes a value it refuses) is logged instead.
        if (!refusalFromDb(auditErr)) throw auditErr;
        log.warn('could not audit a refusal', { error: String(auditErr) });
      });
      throw refusal.toFailure();
    }
    const s = w.submitter;
    const { row, created } = await registerSubmission(db, {
      id: input.submissionId,
      orgId: w.orgId,
      idempotencyKey: w.idempotencyKey,
      workflowId: input.workflowId,
      runId: input.runId,
      kind: w.kind,
      payload: w.payload,
      submitter: s,
      submitterKind: s.kind,
      submitterUserId: s.kind === 'user' ? s.userId : null,
      agentType: s.kind === 'agent' ? s.agentType : null,
      agentInstanceId: s.kind === 'agent' ? s.instanceId : null,
      operatorUserId: s.kind === 'agent' ? s.operatorUserId : null,
      sourceRef: w.source ? `${w.source.type}:${w.source.id}` : null,
      riskScore: ev.risk.score,
      lane: ev.risk.lane,
      rulesFired: ev.risk.rules,
      requiredApprovals: ev.risk.requiredApprovals,
      status: ev.risk.lane === 'low' ? 'approved' : 'awaiting_approval',
      dueAt: ev.risk.lane === 'low' ? null : new Date(input.dueAt),
      expiresAt: ev.risk.lane === 'low' ? null : new Date(input.expiresAt),
    });
    if (!created) {
      // The key's submission must be this write: a child run started again under a reused
      // key (a split-out entry) is refused, not reported as the earlier write's result.
      if (row.kind !== w.kind || canonicalJson(row.payload) !== canonicalJson(w.payload))
        throw permanentFailure(
          ErrorType.IdempotencyConflict,
          `Idempotency key ${w.idempotencyKey} already names a different ${row.kind} write (submission ${row.id}, ${row.status}); submit under a new key`,
        );
      if (row.status === 'applied')
        return {
          risk: ev.risk,
          preview: ev.preview,
          payee: ev.payee,
          alreadyApplied: row.result as { effects: Effect[]; entryIds: string[] },
        };
      if (row.runId !== input.runId) {
        throw permanentFailure(
          ErrorType.IdempotencyConflict,
          `Idempotency key ${w.idempotencyKey} already belongs to submission ${row.id} (${row.status}); submit under a new key`,
        );
      }
      // Same run, activity retried after it registered: carry on with the stored scoring
      // and the stored plan revision (registered below, possibly by the earlier attempt).
      const risk: RiskAssessment = {
        score: row.riskScore,
        lane: row.lane,
        requiredApprovals: row.requiredApprovals,
        rules: row.rulesFired as RiskAssessment['rules'],
      };
      const stored = await currentPlanRevision(db, input.submissionId);
      const planHash =
        stored?.planHash ?? (await registerFirstRevision(db, input.submissionId, ev, risk));
      return {
        risk,
        preview: ev.preview,
        payee: ev.payee,
        revision: 0,
        planHash,
        alreadyApplied: null,
        ...splitOf(ev),
      };
    }
    // The database wrote the "submitted" audit row with the registration (migration 0006).
    const planHash = await registerFirstRevision(db, input.submissionId, ev, ev.risk);
    return {
      risk: ev.risk,
      preview: ev.preview,
      payee: ev.payee,
      revision: 0,
      planHash,
      alreadyApplied: null,
      ...splitOf(ev),
    };
  }

  return {
    /** The worker's retry budget for database activities, recorded once in each run's history. */
    async gatewayRetrySettings(): Promise<DbRetrySettings> {
      return retry;
    },

    /** How long a waiting run's history may grow, recorded once in each run's history. */
    async gatewayRunSettings(): Promise<GatewayRunSettings> {
      return { historyEventsPerRun };
    },

    /** Validates and risk-scores a submission, then registers it (or refuses it, on the audit log). */
    async gatewayEvaluate(input: EvaluateInput): Promise<EvaluateOutput> {
      return heartbeating(() => evaluate(input));
    },

    /** Approvals are scoped to the org: approver, admin or owner there. */
    async gatewayAuthorizeApprover({
      orgId,
      userId,
    }: {
      orgId: string;
      userId: string;
    }): Promise<void> {
      if (!(await hasAnyRole(db, orgId, userId, ['approver', 'admin', 'owner']))) {
        throw permanentFailure(
          ErrorType.ApproverNotAuthorized,
          `User ${userId} may not approve writes in org ${orgId}`,
        );
      }
    },

    /** One vote on one plan revision (older histories send no revision: revision 0). */
    async gatewayRecordVote({
      submissionId,
      vote,
      revision = 0,
      planHash,
    }: {
      submissionId: string;
      vote: Vote;
      revision?: number;
      planHash?: string;
    }): Promise<void> {
      await heartbeating(async () => {
        const hash = planHash ?? (await currentPlanRevision(db, submissionId))?.planHash ?? '';
        await recordPlanVote(db, {
          submissionId,
          revision,
          planHash: hash,
          approverUserId: vote.userId,
          decision: vote.decision,
          note: vote.note,
          decidedAt: new Date(vote.decidedAt),
        });
      });
    },

    /**
     * Applies the write in one transaction; a retry or a replay finds it applied and posts
     * nothing. A plan that changed since it was approved comes back as a new revision.
     */
    async gatewayApply({
      submissionId,
    }: {
      submissionId: string;
    }): Promise<
      | { status: 'applied'; effects: Effect[]; entryIds: string[] }
      | ({ status: 'replanned' } & ReplannedRevision)
    > {
      try {
        const r = await heartbeating(() => applySubmission(db, submissionId));
        if (r.status === 'replanned') return r;
        return { status: 'applied', effects: r.effects, entryIds: r.entryIds };
      } catch (err) {
        if (err instanceof GatewayRefusal) throw err.toFailure();
        throw err;
      }
    },

    /**
     * A split-out entry whose submission was already running when this batch started it (two
     * batches carrying one entry key at once): waits, heartbeating, until that submission is
     * registered, then refuses this batch — recorded on its submission — unless it carries
     * this very entry. Never joins another entry as if it were this one.
     */
    async gatewayConfirmSplitOut(input: {
      submissionId: string;
      orgId: string;
      idempotencyKey: string;
      entry: JournalBatchEntry | BillBatchEntry;
    }): Promise<void> {
      const refuse = async (message: string) => {
        const refusal = new GatewayRefusal(ErrorType.IdempotencyConflict, message, [
          { path: 'payload.entries', message: `entry ${input.entry.key}: ${message}` },
        ]);
        await setSubmissionStatus(db, input.submissionId, 'failed', {
          error: { type: refusal.type, message: refusal.message, issues: refusal.issues },
        });
        throw refusal.toFailure();
      };
      const deadline = Date.now() + SPLIT_OUT_REGISTRATION_WAIT_MS;
      for (;;) {
        const row = await heartbeating(() =>
          findSubmissionByKey(db, input.orgId, input.idempotencyKey),
        );
        if (row) {
          const theirs = (row.payload as { entries?: unknown[] }).entries?.[0];
          const same =
            theirs !== undefined &&
            (row.kind === 'journal.post_batch'
              ? sameEntry(theirs as JournalBatchEntry, input.entry as JournalBatchEntry)
              : row.kind === 'bill.post_batch' &&
                sameBill(theirs as BillBatchEntry, input.entry as BillBatchEntry));
          if (same) return;
          return refuse(
            `Entry key ${input.entry.key} already names a different entry (submission ${row.id}); submit the changed entry under a new key`,
          );
        }
        if (Date.now() >= deadline)
          return refuse(
            `The split-out submission for entry ${input.entry.key} was already running and did not register within ${SPLIT_OUT_REGISTRATION_WAIT_MS / 1000} s: it cannot be confirmed to carry this entry`,
          );
        await new Promise((r) => setTimeout(r, 250));
      }
    },

    /** Records a rejection or expiry on the submission; the database audits it in the same statement. */
    async gatewayFinish({
      submissionId,
      status,
    }: {
      // orgId and actor are still sent by the workflow (its history records them); the
      // database takes the org from the row and the actor from the rejecting vote.
      submissionId: string;
      orgId: string;
      status: 'rejected' | 'expired';
      actor: string;
    }): Promise<void> {
      await heartbeating(() => setSubmissionStatus(db, submissionId, status));
    },

    /** A suspension and its resume: one row, which the database audits (suspended:N, resumed:N). */
    async gatewayRecordSuspension(s: SuspensionRecord): Promise<void> {
      await heartbeating(() => recordSuspension(db, s));
    },

    /** Approval is due: remind the org's approvers (recorded once per reminder number). */
    async gatewayRemind({
      submissionId,
      orgId,
      reminderNumber,
      dueAt,
    }: {
      submissionId: string;
      orgId: string;
      reminderNumber: number;
      dueAt: string;
    }): Promise<void> {
      const written = await appendAudit(db, {
        orgId,
        subjectType: 'gateway_submission',
        subjectId: submissionId,
        event: `reminder:${reminderNumber}`,
        idempotencyKey: `${submissionId}:reminder:${reminderNumber}`,
        actor: 'workflow',
        payload: { dueAt },
      });
      if (written) log.info('approval reminder', { submissionId, reminderNumber });
    },
  };
}
export type GatewayActivities = ReturnType<typeof createGatewayActivities>;
