/**
 * The run's query and update handlers: the state query, the settled update the API waits on,
 * and the reviewer's decision update with its validator. Registered before the run's first
 * await; each reads the run's state live.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  patched,
  setHandler,
} from '@temporalio/workflow';
import {
  type AnalysisOutcome,
  type AnalysisStateView,
  type ReviewAck,
  reviewUpdate,
  stateQuery,
  analysisSettledUpdate,
} from '../analysis.contract';
import { ReviewDecisionSchema, type ReviewDecision } from './review';
import { type AnalysisRunState, viewOf } from './run-state';
import { bookkeeping, identity } from './activity-proxies';
import { ErrorType } from '../errors';

function outcomeOf(d: ReviewDecision): AnalysisOutcome {
  return d.decision === 'approve' ? 'approved' : d.decision === 'reject' ? 'rejected' : 'corrected';
}

/** Registers every handler of the run, in the order the workflow always registered them. */
export function setupAnalysisHandlers(state: AnalysisRunState): void {
  setHandler(stateQuery, () => viewOf(state));
  // The API waits on this instead of polling: it returns once a reviewer is asked or the run
  // is finished. No command of its own, so recorded histories replay unchanged.
  setHandler(analysisSettledUpdate, async (): Promise<AnalysisStateView> => {
    await condition(() => state.status === 'awaiting_review' || state.status === 'completed');
    return viewOf(state);
  });

  // An Update (not a Signal) so the reviewer is told at once whether the decision was
  // accepted. The validator refuses before anything reaches history; the handler then checks
  // the reviewer's role in the org against the database.
  setHandler(reviewUpdate, (raw) => decideReview(state, raw), {
    validator: (raw): void => validateReviewDecision(state, raw),
  });
}

/** Checks the reviewer's proof and role, then records the decision the run waits for. */
async function decideReview(state: AnalysisRunState, raw: unknown): Promise<ReviewAck> {
  const { request, workflowId } = state;
  const d = ReviewDecisionSchema.parse(raw);
  state.decisionInProgress = true;
  try {
    // Decisions recorded before proofs existed replay without one.
    if (patched('analysis-decision-proof'))
      await identity.identityVerifyDecision({
        proof: d.proof ?? '',
        purpose: 'review',
        orgId: request.orgId,
        subjectId: workflowId,
        userId: d.reviewer.userId,
        decision: d.decision,
      });
    await bookkeeping.authorizeReviewer({ orgId: request.orgId, userId: d.reviewer.userId });
    const decidedAt = new Date(Date.now()).toISOString();
    await bookkeeping.recordReviewDecision({
      requestId: request.requestId,
      orgId: request.orgId,
      decision: d,
      decidedAt,
    });
    state.decision = d;
    return { accepted: true, outcome: outcomeOf(d) };
  } catch (err) {
    state.decisionInProgress = false;
    if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) {
      throw ApplicationFailure.create({
        type: err.cause.type ?? undefined,
        message: err.cause.message,
        nonRetryable: true,
      });
    }
    throw err;
  }
}

/** Refuses a decision before it reaches history: no open review, decided, invalid, wrong reviewer. */
function validateReviewDecision(state: AnalysisRunState, raw: unknown): void {
  const { request } = state;
  if (state.status !== 'awaiting_review') {
    throw ApplicationFailure.create({
      type: ErrorType.ReviewNotOpen,
      message: `No review is open (state ${state.machine.state}, status ${state.status})`,
      nonRetryable: true,
    });
  }
  if (state.decision !== undefined || state.decisionInProgress) {
    throw ApplicationFailure.create({
      type: ErrorType.ReviewAlreadyDecided,
      message: 'This review already has a decision',
      nonRetryable: true,
    });
  }
  const check = ReviewDecisionSchema.safeParse(raw);
  if (check.success && !check.data.proof) {
    throw ApplicationFailure.create({
      type: ErrorType.DecisionProofInvalid,
      message: 'A review decision carries a decision proof issued by the API or CLI',
      nonRetryable: true,
    });
  }
  if (!check.success) {
    throw ApplicationFailure.create({
      type: ErrorType.InvalidReviewDecision,
      message: check.error.issues
        .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
        .join('; '),
      nonRetryable: true,
    });
  }
  if (check.data.reviewer.orgId !== request.orgId) {
    throw ApplicationFailure.create({
      type: ErrorType.ReviewerNotAuthorized,
      message: `Reviewer belongs to org ${check.data.reviewer.orgId}, not ${request.orgId}`,
      nonRetryable: true,
    });
  }
  // Four eyes: the person who asked for the analysis does not review its answer. The
  // API records a person as `user:<id>`; a service may name the bare id. Validators do
  // not run on replay, so this needs no patch.
  const reviewer = check.data.reviewer.userId;
  if (request.requestedBy === `user:${reviewer}` || request.requestedBy === reviewer) {
    throw ApplicationFailure.create({
      type: ErrorType.SelfReview,
      message: `User ${reviewer} requested this analysis and may not review it`,
      nonRetryable: true,
    });
  }
  const known = new Set((state.proposed?.claims ?? []).map((c) => c.id));
  const unknown = check.data.corrections.filter((c) => !known.has(c.claimId));
  if (unknown.length > 0) {
    throw ApplicationFailure.create({
      type: ErrorType.InvalidReviewDecision,
      message: `Corrections name unknown claims: ${unknown.map((u) => u.claimId).join(', ')}; known: ${[...known].join(', ') || 'none'}`,
      nonRetryable: true,
    });
  }
}
