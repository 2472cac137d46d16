import {
  ActivityFailure,
  ApplicationFailure,
  ParentClosePolicy,
  allHandlersFinished,
  condition,
  makeContinueAsNewFunc,
  log,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { APPROVING_ROLES, claimedDecider } from './gateway/decision-claims';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { GatewayActivities } from '../activities/gateway';
import type { IdentityActivities } from '../activities/identity';
import {
  type ApprovalAck,
  type DbRetrySettings,
  type GatewayCarryOver,
  type EntryPreview,
  type GatewayOutcome,
  type GatewayResult,
  type GatewayStateView,
  type PayeeView,
  type ResumeRequest,
  type SuspensionRecord,
  type RiskAssessmentView,
  type Vote,
  CsRiskLane,
  CsWriteKind,
  DEFAULT_DB_RETRY,
  GATEWAY_WORKFLOW,
  GatewayCarryOverSchema,
  gatewayWorkflowId,
  ProofSchema,
  ResumeRequestSchema,
  approvalUpdate,
  gatewayStateQuery,
  gatewaySettledUpdate,
  resumeUpdate,
  splitProof,
} from './gateway.contract';
import {
  ApprovalDecisionSchema,
  RecordedApprovalDecisionSchema,
  DEFAULT_APPROVAL_DUE_MS,
  DEFAULT_APPROVAL_EXPIRE_MS,
  formatIssues,
  parseWrite,
  splitIdempotencyKey,
} from './gateway/writes';
import { checkInputBounds } from './input-bounds';
import { closeInboxEntry, openInboxEntry, remindInboxEntry } from './requests/inbox-link';
import { ErrorType, NON_RETRYABLE_ERROR_TYPES, permanentFailure } from './errors';
import { CsOrg, CsOutcome, CsState } from './search-attributes';

// The worker's retry budget, read once per run (a recorded activity result, so replay-safe).
const settingsActivity = proxyActivities<GatewayActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});
// Decision proofs are checked where the signing secret lives: in an activity.
const identity = proxyActivities<IdentityActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    maximumAttempts: 5,
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

/**
 * Database bookkeeping and the apply: idempotent, so they retry without an attempt limit
 * for the whole budget (an outage of 25 minutes by default), never more than the maximum
 * interval apart; typed refusals are non-retryable. They heartbeat, so a killed worker's
 * attempt is retried elsewhere within seconds, not after the 60 s start-to-close timeout.
 */
function dbActivities(s: DbRetrySettings) {
  return proxyActivities<GatewayActivities>({
    startToCloseTimeout: '60s',
    heartbeatTimeout: '10s',
    scheduleToCloseTimeout: s.budgetMs,
    retry: {
      initialInterval: Math.min(500, s.maximumIntervalMs),
      backoffCoefficient: 2,
      maximumInterval: s.maximumIntervalMs,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });
}

const refusal = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true });

/** Re-throws an activity's typed failure as the update's own failure, so the caller sees its type. */
function asUpdateFailure(err: unknown): unknown {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure)
    return refusal(err.cause.type ?? 'ApprovalRefused', err.cause.message);
  return err;
}

/** A refusal of ours (a verdict on the write), as opposed to an outage that outlasted retries. */
function isTypedRefusal(err: unknown): boolean {
  return (
    err instanceof ActivityFailure &&
    err.cause instanceof ApplicationFailure &&
    (NON_RETRYABLE_ERROR_TYPES as string[]).includes(err.cause.type ?? '')
  );
}

const laneRank = { low: 0, moderate: 1, high: 2 } as const;

/**
 * One write through the gateway: validate, risk-score, wait for the approvals its lane needs
 * (none, one, or N distinct), then apply it exactly once — exactly as approved: a plan that
 * changed in between goes back for approval. Rejection and expiry are results.
 */
export async function gatewayWorkflow(raw: unknown, carried?: unknown): Promise<GatewayResult> {
  const bounds = checkInputBounds(raw);
  if (!bounds.ok)
    throw permanentFailure(
      ErrorType.InvalidWrite,
      `Invalid write: ${formatIssues(bounds.issues)}`,
      {
        issues: bounds.issues,
      },
    );
  const parsed = parseWrite(raw);
  if (!parsed.ok)
    throw permanentFailure(
      ErrorType.InvalidWrite,
      `Invalid write: ${formatIssues(parsed.issues)}`,
      { issues: parsed.issues },
    );
  const write = parsed.write;
  // A run continued from an earlier one of this submission: its state, not a new evaluation.
  const carry: GatewayCarryOver | null =
    carried === undefined ? null : GatewayCarryOverSchema.parse(carried);
  const { workflowId, runId } = workflowInfo();
  const submissionId = workflowId;
  const submitter = write.submitter;
  // Neither the submitting user nor an agent's operator may sign their own write.
  const selfIds = new Set(
    submitter.kind === 'user' ? [submitter.userId] : [submitter.operatorUserId],
  );

  let status: GatewayStateView['status'] = 'evaluating';
  let risk: RiskAssessmentView | null = carry?.risk ?? null;
  let preview: EntryPreview[] = carry?.preview ?? [];
  let payee: PayeeView | null = carry?.payee ?? null;
  let revision = carry?.revision ?? 0;
  let planHash: string | null = carry?.planHash ?? null;
  const votes: Vote[] = [...(carry?.votes ?? [])];
  const inFlight = new Set<string>();
  // Set while a waiting run drains its votes before continuing as new.
  let handingOver = false;
  let result: GatewayResult | null = null;
  let remindersSent = carry?.remindersSent ?? 0;
  let suspended: { step: string; error: string } | null = null;
  let resumeRequested = false;
  let resumedBy: ResumeRequest | null = null;
  let suspensions = carry?.suspensions ?? 0;
  // Suspensions (with their resumes) not yet on the database: recorded before the next try.
  const unrecorded: SuspensionRecord[] = [];
  let startedAt = carry?.startedAt ?? Date.now();
  const dueAfter = write.approval?.dueAfterMs ?? DEFAULT_APPROVAL_DUE_MS;
  const expireAfter = write.approval?.expireAfterMs ?? DEFAULT_APPROVAL_EXPIRE_MS;
  let dueAt = carry?.dueAt ?? startedAt + dueAfter;
  let expiresAt = carry?.expiresAt ?? startedAt + expireAfter;
  const votesNow = () => votes.filter((v) => (v.revision ?? 0) === revision);

  const setStatus = (s: GatewayStateView['status'], detail: string) => {
    status = s;
    upsertSearchAttributes([{ key: CsState, value: s }]);
    setCurrentDetails(`**${s}** — ${write.kind}: ${detail}`);
  };

  const view = (): GatewayStateView => ({
    submissionId,
    orgId: write.orgId,
    kind: write.kind,
    status,
    risk,
    preview,
    payee,
    revision,
    planHash,
    votes: [...votes],
    suspended,
    dueAt: risk && risk.lane !== 'low' ? new Date(dueAt).toISOString() : null,
    expiresAt: risk && risk.lane !== 'low' ? new Date(expiresAt).toISOString() : null,
    result,
  });
  setHandler(gatewayStateQuery, view);
  // The API waits on this instead of polling: it returns once the submission awaits a
  // person or is finished. No command of its own, so recorded histories replay unchanged.
  setHandler(gatewaySettledUpdate, async (): Promise<GatewayStateView> => {
    await condition(() => status === 'awaiting_approval' || status === 'completed');
    return view();
  });

  /**
   * An idempotent database step. A typed refusal ends the write; an outage that outlasts the
   * retry budget suspends the run until an operator resumes it, with every vote kept.
   */
  async function durable<T>(step: string, fn: () => Promise<T>): Promise<T> {
    for (;;) {
      try {
        // The database is asked again: first the suspensions it has not heard of, so each
        // joins the org's audit chain (suspended:N, resumed:N) before the step runs again.
        while (unrecorded[0]) {
          await db.gatewayRecordSuspension(unrecorded[0]);
          unrecorded.shift();
        }
        return await fn();
      } catch (err) {
        if (isTypedRefusal(err) || !patched('gateway-suspend-on-outage')) throw err;
        const before = status;
        const error = err instanceof Error ? err.message : String(err);
        const suspendedAt = new Date().toISOString();
        suspended = { step, error };
        log.error('database step outlasted its retry budget; waiting for resume', {
          submissionId,
          step,
        });
        setStatus('suspended', `${step} failed after the retry budget; send resumeUpdate`);
        await condition(() => resumeRequested);
        resumeRequested = false;
        suspended = null;
        if (patched('gateway-audit-suspensions') && resumedBy)
          unrecorded.push({
            submissionId,
            orgId: write.orgId,
            suspension: ++suspensions,
            step,
            error: error.slice(0, 4000),
            suspendedAt,
            resumedAt: new Date().toISOString(),
            resumedBy: resumedBy.operator,
            ...(resumedBy.note ? { note: resumedBy.note } : {}),
          });
        setStatus(before, `resumed ${step}`);
      }
    }
  }

  setHandler(
    resumeUpdate,
    (req) => {
      const step = suspended?.step ?? '';
      resumeRequested = true;
      resumedBy = req;
      log.info('resumed by operator', { submissionId, operator: req.operator, step });
      return Promise.resolve({ resumed: true as const, step });
    },
    {
      validator: (req): void => {
        if (!ResumeRequestSchema.safeParse(req).success)
          throw refusal(ErrorType.InvalidRequest, 'A resume names its operator');
        if (status !== 'suspended')
          throw refusal(ErrorType.NotSuspended, `Submission ${submissionId} is ${status}`);
      },
    },
  );

  // An Update (not a Signal): the approver learns at once whether the vote counted. The
  // validator refuses before anything reaches history; the handler verifies the decision
  // proof (in an activity: the secret never enters the workflow), checks the role in the
  // org against the database, then records the vote on the current plan revision.
  setHandler(
    approvalUpdate,
    async (rawDecision): Promise<ApprovalAck> => {
      const { proof, decision: rest } = splitProof(rawDecision);
      const d = RecordedApprovalDecisionSchema.parse(rest);
      inFlight.add(d.approver.userId);
      try {
        // Since decisions name their plan, the proof is bound to that revision and hash and
        // its nonce is spent (decision_nonces). Updates recorded before proofs existed replay
        // without one, those recorded before the binding with the older check.
        if (patched('gateway-decision-binding'))
          await identity.identityVerifyApproval({
            proof: ProofSchema.parse(proof),
            orgId: write.orgId,
            subjectId: submissionId,
            userId: d.approver.userId,
            decision: d.decision,
            revision: d.revision ?? -1,
            planHash: d.planHash ?? '',
          });
        else if (patched('gateway-decision-proof'))
          await identity.identityVerifyDecision({
            proof: ProofSchema.parse(proof),
            purpose: 'approval',
            orgId: write.orgId,
            subjectId: submissionId,
            userId: d.approver.userId,
            decision: d.decision,
          });
        await db.gatewayAuthorizeApprover({ orgId: write.orgId, userId: d.approver.userId });
        const vote: Vote = {
          userId: d.approver.userId,
          decision: d.decision,
          note: d.note ?? null,
          decidedAt: new Date(Date.now()).toISOString(),
          revision,
        };
        await db.gatewayRecordVote({
          submissionId,
          vote,
          revision,
          ...(planHash ? { planHash } : {}),
        });
        votes.push(vote);
        return {
          accepted: true,
          approvals: votesNow().filter((v) => v.decision === 'approve').length,
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
        // Between two runs of one submission (continue-as-new) a vote is refused as a
        // handover, which the client sends again, not as a closed approval.
        if (handingOver || (carry !== null && status === 'evaluating'))
          throw refusal(
            ErrorType.RunHandover,
            `Submission ${submissionId} is moving to a new run; send the decision again`,
          );
        if (status !== 'awaiting_approval')
          throw refusal(
            ErrorType.ApprovalNotOpen,
            `Submission ${submissionId} is not awaiting approval (${status})`,
          );
        const { proof, decision: rest } = splitProof(rawDecision);
        if (!ProofSchema.safeParse(proof).success)
          throw refusal(
            ErrorType.DecisionProofInvalid,
            'An approval carries a decision proof issued by the API or CLI',
          );
        const check = ApprovalDecisionSchema.safeParse(rest);
        if (!check.success)
          throw refusal(
            ErrorType.InvalidApprovalDecision,
            check.error.issues
              .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
              .join('; '),
          );
        const { approver } = check.data;
        // A decision on a plan the approver was not shown is refused before history, naming
        // the plan that is current now (a stale inbox page, a replan since).
        if (
          check.data.revision !== revision ||
          (planHash !== null && check.data.planHash !== planHash)
        )
          throw refusal(
            ErrorType.StalePlanRevision,
            `The decision is for plan revision ${check.data.revision} (hash ${check.data.planHash}); the current plan is revision ${revision} (hash ${planHash ?? 'none'}): review it and decide again`,
          );
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
        // The role, again, before history: the proof's signer (API, CLI, inbox) recorded the
        // person's roles in the org; without an approving one the vote is refused here and
        // adds no event (a flood of refused votes cannot grow the history). The handler still
        // verifies the proof's signature and the role in the database. Validators do not run
        // on replay, so this needs no patch.
        const claimed = claimedDecider(proof);
        if (!claimed)
          throw refusal(
            ErrorType.DecisionProofInvalid,
            'Decision proof refused (malformed): unreadable claims',
          );
        for (const [field, want] of [
          ['orgId', write.orgId],
          ['userId', approver.userId],
          ['revision', check.data.revision],
          ['planHash', check.data.planHash],
        ] as const)
          if (claimed[field] !== want)
            throw refusal(
              ErrorType.DecisionProofInvalid,
              `Decision proof refused (mismatch): the proof is for ${field} ${JSON.stringify(claimed[field])}, not ${JSON.stringify(want)}`,
            );
        if (!claimed.roles?.some((r) => APPROVING_ROLES.includes(r)))
          throw refusal(
            ErrorType.ApproverNotAuthorized,
            `User ${approver.userId} may not approve writes in org ${write.orgId}`,
          );
        if (inFlight.has(approver.userId) || votesNow().some((v) => v.userId === approver.userId))
          throw refusal(
            ErrorType.DuplicateApproval,
            `User ${approver.userId} has already voted on ${submissionId}${revision > 0 ? ` (plan revision ${revision})` : ''}`,
          );
      },
    },
  );

  // Every handler is registered before the first await: an Update that arrives in a run's
  // first activation (a continued run's, above all) finds its handler, not a rejection for
  // want of one. The handlers reach the database only once the vote is open, after this.
  // Runs recorded before the retry budget came from the worker keep the old fixed policy.
  // Since the payload codec, even a settings result is encrypted under a data key kept in
  // PostgreSQL: a worker that starts during an outage holds no key yet, and five quick
  // attempts failed the run. New runs ask for the settings like a database step.
  const settings = patched('gateway-settings-outlast-outage')
    ? dbActivities(DEFAULT_DB_RETRY)
    : settingsActivity;
  const retrySettings = patched('gateway-db-retry-settings')
    ? await settings.gatewayRetrySettings()
    : DEFAULT_DB_RETRY;
  const db = dbActivities(retrySettings);

  upsertSearchAttributes([
    { key: CsOrg, value: write.orgId },
    { key: CsWriteKind, value: write.kind },
    { key: CsState, value: status },
  ]);
  const ev = carry
    ? null
    : await durable('evaluate', () =>
        db.gatewayEvaluate({
          write,
          submissionId,
          workflowId,
          runId,
          dueAt: new Date(dueAt).toISOString(),
          expiresAt: new Date(expiresAt).toISOString(),
        }),
      );
  const firstRisk = ev?.risk ?? carry?.risk;
  if (!firstRisk) throw permanentFailure(ErrorType.IllegalTransition, 'a run with no risk');
  risk = firstRisk;
  // Added after runs were recorded: the marker keeps those histories replaying unchanged.
  const laneAttribute = patched('gateway-risk-lane-search-attribute');
  const showLane = (lane: string) => {
    if (laneAttribute) upsertSearchAttributes([{ key: CsRiskLane, value: lane }]);
  };
  showLane(firstRisk.lane);
  if (ev) {
    preview = ev.preview;
    payee = ev.payee ?? null;
    revision = ev.revision ?? 0;
    planHash = ev.planHash ?? null;
  }

  // journal.post_batch: each high-risk entry goes to its own submission and its own approval,
  // so it does not hold the batch. Its key derives from the entry's, so a retry joins it.
  const splitOut: { entryKey: string; submissionId: string }[] = [...(carry?.splitOut ?? [])];
  for (const s of ev?.splitOut ?? []) {
    const idempotencyKey = splitIdempotencyKey(s.entryKey);
    const child = gatewayWorkflowId(write.orgId, idempotencyKey);
    try {
      await startChild(GATEWAY_WORKFLOW, {
        workflowId: child,
        args: [{ ...write, idempotencyKey, payload: { entries: [s.entry] } }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [
          { key: CsOrg, value: write.orgId },
          { key: CsWriteKind, value: write.kind },
          { key: CsState, value: 'evaluating' },
        ],
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      // Already running under this key: joined only once it is known to carry this entry
      // (added after runs were recorded; the marker keeps their histories replaying).
      if (patched('gateway-split-out-compare'))
        await durable('confirm split-out', () =>
          db.gatewayConfirmSplitOut({
            submissionId,
            orgId: write.orgId,
            idempotencyKey,
            entry: s.entry,
          }),
        );
    }
    splitOut.push({ entryKey: s.entryKey, submissionId: child });
  }

  const finish = (
    outcome: GatewayOutcome,
    applied: { effects: GatewayResult['effects']; entryIds: string[] } | null,
  ): GatewayResult => {
    result = {
      submissionId,
      orgId: write.orgId,
      kind: write.kind,
      outcome,
      risk: risk ?? firstRisk,
      votes: [...votes],
      effects: applied?.effects ?? [],
      entryIds: applied?.entryIds ?? [],
      remindersSent,
      ...(splitOut.length > 0 ? { splitOut } : {}),
    };
    upsertSearchAttributes([{ key: CsOutcome, value: outcome }]);
    setStatus('completed', outcome);
    return result;
  };

  if (ev?.alreadyApplied) {
    const done = finish('applied', ev.alreadyApplied);
    await condition(allHandlersFinished);
    return done;
  }

  // A continued run resumes the wait its predecessor left: the inbox entry is already open and
  // the reminder already counted.
  let resuming = carry !== null;
  let historyLimit: number | null = null;
  const historyFull = () =>
    historyLimit !== null &&
    (workflowInfo().historyLength >= historyLimit || workflowInfo().continueAsNewSuggested);

  for (;;) {
    const r = risk;
    if (r.lane !== 'low') {
      setStatus(
        'awaiting_approval',
        `${r.lane} risk (${r.score}), ${r.requiredApprovals} approval(s)${revision > 0 ? `, plan revision ${revision}` : ''}: ${r.rules.map((x) => x.rule).join(', ')}`,
      );
      // One inbox: the waiting approval is a request record too (patched inside).
      if (!resuming)
        await openInboxEntry({
          linkKind: 'gateway_approval',
          workflowId,
          key: write.idempotencyKey,
          orgId: write.orgId,
          type: 'approval',
          title: `Approve ${write.kind} (${r.lane} risk)`,
          question: `Approve ${write.kind} ${write.idempotencyKey}: ${r.lane} risk (score ${r.score}), ${r.requiredApprovals} approval(s) needed; rules ${r.rules.map((x) => x.rule).join(', ') || 'none'}.`,
          evidence: {
            submissionId,
            kind: write.kind,
            lane: r.lane,
            score: r.score,
            rules: r.rules.map((x) => x.rule),
            revision,
          },
          createdAtMs: startedAt,
          dueAtMs: dueAt,
          expiresAtMs: expiresAt,
          createdBy:
            submitter.kind === 'user'
              ? { userId: submitter.userId }
              : { runId: submitter.instanceId, agentType: submitter.agentType },
        });
      const approvals = () => votesNow().filter((v) => v.decision === 'approve').length;
      const rejected = () => votesNow().some((v) => v.decision === 'reject');
      const settled = () => rejected() || approvals() >= r.requiredApprovals;
      let reminded = resuming && (carry?.reminded ?? false);
      resuming = false;
      // Long waits do not grow one history without bound (votes refused past the validator
      // still add events): past the worker's limit the run continues as new, state carried.
      if (historyLimit === null && patched('gateway-continue-as-new'))
        historyLimit = (await settings.gatewayRunSettings()).historyEventsPerRun;
      while (!settled() && Date.now() < expiresAt) {
        const wakeAt = !reminded && dueAt < expiresAt ? dueAt : expiresAt;
        if (await condition(() => settled() || historyFull(), Math.max(1, wakeAt - Date.now()))) {
          if (settled()) break;
          // Let the votes already accepted land, so none is lost with this run; new ones are
          // refused (RunHandover: send again) until the next run takes them.
          handingOver = true;
          await condition(() => inFlight.size === 0 && allHandlersFinished());
          handingOver = false;
          if (settled()) break;
          // Suspensions not yet on the database are recorded (first thing a durable step
          // does) before the run hands over: the next run does not know of them.
          await durable('hand over', () => Promise.resolve());
          log.info('approval wait continues as new', {
            submissionId,
            events: workflowInfo().historyLength,
          });
          const next: GatewayCarryOver = {
            risk: r,
            preview,
            payee,
            revision,
            planHash,
            votes: [...votes],
            remindersSent,
            reminded,
            startedAt,
            dueAt,
            expiresAt,
            suspensions,
            splitOut,
            continued: (carry?.continued ?? 0) + 1,
          };
          await makeContinueAsNewFunc<typeof gatewayWorkflow>({
            memo: workflowInfo().memo ?? {},
            typedSearchAttributes: workflowInfo().typedSearchAttributes,
          })(write, next);
        }
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
          await remindInboxEntry('gateway_approval', workflowId, remindersSent);
        }
      }
      // Close the vote, then let votes already past their validator land: none is lost, and
      // a rejection that arrives with the last approval still vetoes the write.
      setStatus('applying', 'closing the vote');
      await condition(() => inFlight.size === 0);
      if (rejected()) {
        const by = votesNow().find((v) => v.decision === 'reject');
        await durable('finish', () =>
          db.gatewayFinish({
            submissionId,
            orgId: write.orgId,
            status: 'rejected',
            actor: `user:${by?.userId ?? 'unknown'}`,
          }),
        );
        await closeInboxEntry('gateway_approval', workflowId, {
          status: 'completed',
          detail: 'rejected',
          by: by?.userId ?? null,
        });
        const done = finish('rejected', null);
        await condition(allHandlersFinished);
        return done;
      }
      if (approvals() < r.requiredApprovals) {
        log.info('approval expired', {
          submissionId,
          approvals: approvals(),
          required: r.requiredApprovals,
        });
        await durable('finish', () =>
          db.gatewayFinish({
            submissionId,
            orgId: write.orgId,
            status: 'expired',
            actor: 'workflow',
          }),
        );
        await closeInboxEntry('gateway_approval', workflowId, {
          status: 'expired',
          detail: 'no approval before expiry',
          by: null,
        });
        const done = finish('expired', null);
        await condition(allHandlersFinished);
        return done;
      }
      await closeInboxEntry('gateway_approval', workflowId, {
        status: 'completed',
        detail: 'approved',
        by: votesNow()
          .filter((v) => v.decision === 'approve')
          .map((v) => v.userId)
          .join(','),
      });
    }

    setStatus('applying', 'posting');
    const applied = await durable('apply', () => db.gatewayApply({ submissionId }));
    if ('status' in applied && applied.status === 'replanned') {
      // The plan changed between approval and apply: the new revision (lane never lower)
      // goes back to the approvers, with a fresh approval window.
      log.info('plan changed before apply; back to approval', {
        submissionId,
        revision: applied.revision,
        lane: applied.risk.lane,
      });
      if (laneRank[applied.risk.lane] < laneRank[r.lane])
        throw permanentFailure(ErrorType.IllegalTransition, 'a plan revision lowered the lane');
      risk = applied.risk;
      showLane(applied.risk.lane);
      preview = applied.preview;
      payee = applied.payee;
      revision = applied.revision;
      planHash = applied.planHash;
      startedAt = Date.now();
      dueAt = startedAt + dueAfter;
      expiresAt = startedAt + expireAfter;
      continue;
    }
    const done = finish('applied', applied);
    await condition(allHandlersFinished);
    return done;
  }
}
