import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { GatewayActivities } from '../activities/gateway';
import {
  type ApprovalAck,
  type EntryPreview,
  type GatewayOutcome,
  type GatewayResult,
  type GatewayStateView,
  type RiskAssessmentView,
  type Vote,
  CsWriteKind,
  approvalUpdate,
  gatewayStateQuery,
} from './gateway.contract';
import { CsOrg, CsOutcome, CsState } from './analysis.contract';
import {
  ApprovalDecisionSchema,
  DEFAULT_APPROVAL_DUE_MS,
  DEFAULT_APPROVAL_EXPIRE_MS,
  formatIssues,
  parseWrite,
} from './gateway/writes';
import { ErrorType, NON_RETRYABLE_ERROR_TYPES, permanentFailure } from './errors';

// Database bookkeeping and the apply: quick, idempotent, retried long enough to ride out a
// database restart; typed refusals are non-retryable.
const db = proxyActivities<GatewayActivities>({
  startToCloseTimeout: '60s',
  retry: {
    initialInterval: '500ms',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Reminders a person sees: few attempts.
const notify = proxyActivities<GatewayActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

const refusal = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true });

/** Re-throws an activity's typed failure as the update's own failure, so the caller sees its type. */
function asUpdateFailure(err: unknown): unknown {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure)
    return refusal(err.cause.type ?? 'ApprovalRefused', err.cause.message);
  return err;
}

/**
 * One write through the gateway: validate, risk-score, wait for the approvals its lane needs
 * (none, one, or N distinct), then apply it exactly once. Rejection and expiry are results.
 */
export async function gatewayWorkflow(raw: unknown): Promise<GatewayResult> {
  const parsed = parseWrite(raw);
  if (!parsed.ok)
    throw permanentFailure(
      ErrorType.InvalidWrite,
      `Invalid write: ${formatIssues(parsed.issues)}`,
      { issues: parsed.issues },
    );
  const write = parsed.write;
  const { workflowId, runId } = workflowInfo();
  const submissionId = workflowId;
  const submitter = write.submitter;
  // Neither the submitting user nor an agent's operator may sign their own write.
  const selfIds = new Set(
    submitter.kind === 'user' ? [submitter.userId] : [submitter.operatorUserId],
  );

  let status: GatewayStateView['status'] = 'evaluating';
  let risk: RiskAssessmentView | null = null;
  let preview: EntryPreview[] = [];
  const votes: Vote[] = [];
  const inFlight = new Set<string>();
  let result: GatewayResult | null = null;
  let remindersSent = 0;
  const startedAt = Date.now();
  const dueAt = startedAt + (write.approval?.dueAfterMs ?? DEFAULT_APPROVAL_DUE_MS);
  const expiresAt = startedAt + (write.approval?.expireAfterMs ?? DEFAULT_APPROVAL_EXPIRE_MS);

  const setStatus = (s: GatewayStateView['status'], detail: string) => {
    status = s;
    upsertSearchAttributes([{ key: CsState, value: s }]);
    setCurrentDetails(`**${s}** — ${write.kind}: ${detail}`);
  };

  setHandler(gatewayStateQuery, (): GatewayStateView => ({
    submissionId,
    orgId: write.orgId,
    kind: write.kind,
    status,
    risk,
    preview,
    votes: [...votes],
    dueAt: risk && risk.lane !== 'low' ? new Date(dueAt).toISOString() : null,
    expiresAt: risk && risk.lane !== 'low' ? new Date(expiresAt).toISOString() : null,
    result,
  }));

  // An Update (not a Signal): the approver learns at once whether the vote counted. The
  // validator refuses before anything reaches history; the handler checks the role in the
  // org against the database, then records the vote.
  setHandler(
    approvalUpdate,
    async (rawDecision): Promise<ApprovalAck> => {
      const d = ApprovalDecisionSchema.parse(rawDecision);
      inFlight.add(d.approver.userId);
      try {
        await db.gatewayAuthorizeApprover({ orgId: write.orgId, userId: d.approver.userId });
        const vote: Vote = {
          userId: d.approver.userId,
          decision: d.decision,
          note: d.note ?? null,
          decidedAt: new Date(Date.now()).toISOString(),
        };
        await db.gatewayRecordVote({ submissionId, vote });
        votes.push(vote);
        return {
          accepted: true,
          approvals: votes.filter((v) => v.decision === 'approve').length,
          required: risk?.requiredApprovals ?? 0,
        };
      } catch (err) {
        throw asUpdateFailure(err);
      } finally {
        inFlight.delete(d.approver.userId);
      }
    },
    {
      validator: (rawDecision): void => {
        if (status !== 'awaiting_approval')
          throw refusal(
            ErrorType.ApprovalNotOpen,
            `Submission ${submissionId} is not awaiting approval (${status})`,
          );
        const check = ApprovalDecisionSchema.safeParse(rawDecision);
        if (!check.success)
          throw refusal(
            ErrorType.InvalidApprovalDecision,
            check.error.issues
              .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
              .join('; '),
          );
        const { approver } = check.data;
        if (approver.orgId !== write.orgId)
          throw refusal(
            ErrorType.ApproverNotAuthorized,
            `Approver belongs to org ${approver.orgId}, not ${write.orgId}`,
          );
        if (selfIds.has(approver.userId))
          throw refusal(
            ErrorType.SelfApproval,
            `User ${approver.userId} submitted this write (or operates the agent that did) and may not approve it`,
          );
        if (inFlight.has(approver.userId) || votes.some((v) => v.userId === approver.userId))
          throw refusal(
            ErrorType.DuplicateApproval,
            `User ${approver.userId} has already voted on ${submissionId}`,
          );
      },
    },
  );

  upsertSearchAttributes([
    { key: CsOrg, value: write.orgId },
    { key: CsWriteKind, value: write.kind },
    { key: CsState, value: status },
  ]);
  const ev = await db.gatewayEvaluate({
    write,
    submissionId,
    workflowId,
    runId,
    dueAt: new Date(dueAt).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
  });
  risk = ev.risk;
  preview = ev.preview;

  const finish = (
    outcome: GatewayOutcome,
    applied: { effects: GatewayResult['effects']; entryIds: string[] } | null,
  ): GatewayResult => {
    result = {
      submissionId,
      orgId: write.orgId,
      kind: write.kind,
      outcome,
      risk: ev.risk,
      votes: [...votes],
      effects: applied?.effects ?? [],
      entryIds: applied?.entryIds ?? [],
      remindersSent,
    };
    upsertSearchAttributes([{ key: CsOutcome, value: outcome }]);
    setStatus('completed', outcome);
    return result;
  };

  if (ev.alreadyApplied) {
    const done = finish('applied', ev.alreadyApplied);
    await condition(allHandlersFinished);
    return done;
  }

  if (ev.risk.lane !== 'low') {
    setStatus(
      'awaiting_approval',
      `${ev.risk.lane} risk (${ev.risk.score}), ${ev.risk.requiredApprovals} approval(s): ${ev.risk.rules.map((r) => r.rule).join(', ')}`,
    );
    const approvals = () => votes.filter((v) => v.decision === 'approve').length;
    const rejected = () => votes.some((v) => v.decision === 'reject');
    const settled = () => rejected() || approvals() >= ev.risk.requiredApprovals;
    let reminded = false;
    while (!settled() && Date.now() < expiresAt) {
      const wakeAt = !reminded && dueAt < expiresAt ? dueAt : expiresAt;
      if (await condition(settled, Math.max(1, wakeAt - Date.now()))) break;
      if (!reminded && Date.now() >= dueAt && Date.now() < expiresAt) {
        reminded = true;
        remindersSent += 1;
        try {
          await notify.gatewayRemind({
            submissionId,
            orgId: write.orgId,
            reminderNumber: remindersSent,
            dueAt: new Date(dueAt).toISOString(),
          });
        } catch (err) {
          // A broken notification channel must not lose the pending approval: keep waiting.
          log.error('approval reminder failed', {
            submissionId,
            error: err instanceof Error ? err.message : String(err),
          });
        }
      }
    }
    // Close the vote, then let votes already past their validator land: none is lost, and
    // a rejection that arrives with the last approval still vetoes the write.
    setStatus('applying', 'closing the vote');
    await condition(() => inFlight.size === 0);
    if (rejected()) {
      const by = votes.find((v) => v.decision === 'reject');
      await db.gatewayFinish({
        submissionId,
        orgId: write.orgId,
        status: 'rejected',
        actor: `user:${by?.userId ?? 'unknown'}`,
      });
      const done = finish('rejected', null);
      await condition(allHandlersFinished);
      return done;
    }
    if (approvals() < ev.risk.requiredApprovals) {
      log.info('approval expired', {
        submissionId,
        approvals: approvals(),
        required: ev.risk.requiredApprovals,
      });
      await db.gatewayFinish({
        submissionId,
        orgId: write.orgId,
        status: 'expired',
        actor: 'workflow',
      });
      const done = finish('expired', null);
      await condition(allHandlersFinished);
      return done;
    }
  }

  setStatus('applying', 'posting');
  const applied = await db.gatewayApply({ submissionId });
  const done = finish('applied', applied);
  await condition(allHandlersFinished);
  return done;
}
