import { log } from '@temporalio/activity';
import type { Db } from '../../db/connection';
import { appendAudit } from '../../db/repositories/audit';
import { hasAnyRole } from '../../db/repositories/organizations';
import { recordVote, registerSubmission, setSubmissionStatus } from '../../db/repositories/gateway';
import { ErrorType, permanentFailure } from '../../workflows/errors';
import { parseWrite, formatIssues, type GatewayWrite } from '../../workflows/gateway/writes';
import type { RiskAssessment } from '../../workflows/gateway/risk';
import type { Effect, EntryPreview, Vote } from '../../workflows/gateway.contract';
import { applySubmission, evaluateWrite } from './evaluate';
import { GatewayRefusal } from './refusal';

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
  /** Set when this key was already applied (by an earlier run): nothing more to do. */
  alreadyApplied: { effects: Effect[]; entryIds: string[] } | null;
}

function actorOf(w: GatewayWrite): string {
  return w.submitter.kind === 'user'
    ? `user:${w.submitter.userId}`
    : `agent:${w.submitter.agentType}:${w.submitter.instanceId}`;
}

/**
 * The write gateway's activities over the database. Each is idempotent: the submission row
 * is keyed by (org, idempotency key), votes by (submission, approver), the apply by the
 * submission row lock and the journal entries' unique key.
 */
export function createGatewayActivities({ db }: { db: Db }) {
  return {
    /** Validates and risk-scores a submission, then registers it (or refuses it, on the audit log). */
    async gatewayEvaluate(input: EvaluateInput): Promise<EvaluateOutput> {
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
        if (!(err instanceof GatewayRefusal)) throw err;
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
            type: err.type,
            message: err.message,
            issues: err.issues,
            submitter: w.submitter,
          },
        }); // not best-effort: if the row cannot be written, the activity retries

        throw err.toFailure();
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
        if (row.status === 'applied')
          return {
            risk: ev.risk,
            preview: ev.preview,
            alreadyApplied: row.result as { effects: Effect[]; entryIds: string[] },
          };
        if (row.runId !== input.runId) {
          throw permanentFailure(
            ErrorType.IdempotencyConflict,
            `Idempotency key ${w.idempotencyKey} already belongs to submission ${row.id} (${row.status}); submit under a new key`,
          );
        }
        // Same run, activity retried after it registered: carry on with the stored scoring.
        return {
          risk: {
            score: row.riskScore,
            lane: row.lane,
            requiredApprovals: row.requiredApprovals,
            rules: row.rulesFired as RiskAssessment['rules'],
          },
          preview: ev.preview,
          alreadyApplied: null,
        };
      }
      await appendAudit(db, {
        orgId: w.orgId,
        subjectType: 'gateway_submission',
        subjectId: input.submissionId,
        event: 'submitted',
        idempotencyKey: `${input.submissionId}:submitted`,
        actor: actorOf(w),
        payload: { kind: w.kind, risk: ev.risk, source: w.source ?? null },
      });
      return { risk: ev.risk, preview: ev.preview, alreadyApplied: null };
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

    async gatewayRecordVote({
      submissionId,
      vote,
    }: {
      submissionId: string;
      vote: Vote;
    }): Promise<void> {
      await recordVote(db, {
        submissionId,
        approverUserId: vote.userId,
        decision: vote.decision,
        note: vote.note,
        decidedAt: new Date(vote.decidedAt),
      });
    },

    /** Applies the write in one transaction; a retry or a replay finds it applied and posts nothing. */
    async gatewayApply({
      submissionId,
    }: {
      submissionId: string;
    }): Promise<{ effects: Effect[]; entryIds: string[] }> {
      try {
        const r = await applySubmission(db, submissionId);
        return { effects: r.effects, entryIds: r.entryIds };
      } catch (err) {
        if (err instanceof GatewayRefusal) throw err.toFailure();
        throw err;
      }
    },

    /** Records a rejection or expiry on the submission and the audit log. */
    async gatewayFinish({
      submissionId,
      orgId,
      status,
      actor,
    }: {
      submissionId: string;
      orgId: string;
      status: 'rejected' | 'expired';
      actor: string;
    }): Promise<void> {
      await setSubmissionStatus(db, submissionId, status);
      await appendAudit(db, {
        orgId,
        subjectType: 'gateway_submission',
        subjectId: submissionId,
        event: status,
        idempotencyKey: `${submissionId}:${status}`,
        actor,
        payload: { status },
      });
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
