/**
 * The approval Update (not a Signal): the approver learns at once whether the vote counted.
 * The validator refuses before anything reaches history; the handler verifies the decision
 * proof (in an activity: the secret never enters the workflow), checks the role in the org
 * against the database, then records the vote on the current plan revision.
 */
import { patched, setHandler } from '@temporalio/workflow';
import {
  type ApprovalAck,
  type Vote,
  ProofSchema,
  approvalUpdate,
  splitProof,
} from '../gateway.contract';
import { ErrorType } from '../errors';
import { identity, type GatewayProxy } from './activity-proxies';
import { APPROVING_ROLES, claimedDecider } from './decision-claims';
import { asUpdateFailure, refusal } from './refusal';
import type { GatewayRunState } from './run-state';
import { votesNow } from './votes';
import { ApprovalDecisionSchema, RecordedApprovalDecisionSchema } from './writes';

export function setupApprovalUpdate(state: GatewayRunState): void {
  setHandler(approvalUpdate, (rawDecision) => recordApproval(state, rawDecision), {
    validator: (rawDecision): void => validateApproval(state, rawDecision),
  });
}

/**
 * The run's database steps. They are set by the run's first await, and a vote is accepted
 * only once the vote is open, after that.
 */
function databaseOf(state: GatewayRunState): GatewayProxy {
  if (!state.db) throw new Error('an approval was handled before the database steps were set');
  return state.db;
}

/** The handler: verifies the proof and the role, then records the vote. */
async function recordApproval(state: GatewayRunState, rawDecision: unknown): Promise<ApprovalAck> {
  const { write, submissionId } = state;
  const { proof, decision: rest } = splitProof(rawDecision);
  const d = RecordedApprovalDecisionSchema.parse(rest);
  state.inFlight.add(d.approver.userId);
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
    await databaseOf(state).gatewayAuthorizeApprover({
      orgId: write.orgId,
      userId: d.approver.userId,
    });
    const vote: Vote = {
      userId: d.approver.userId,
      decision: d.decision,
      note: d.note ?? null,
      decidedAt: new Date(Date.now()).toISOString(),
      revision: state.revision,
    };
    const planHash = state.planHash;
    await databaseOf(state).gatewayRecordVote({
      submissionId,
      vote,
      revision: state.revision,
      ...(planHash ? { planHash } : {}),
    });
    state.votes.push(vote);
    return {
      accepted: true,
      approvals: votesNow(state).filter((v) => v.decision === 'approve').length,
      required: state.risk?.requiredApprovals ?? 0,
    };
  } catch (err) {
    throw asUpdateFailure(err);
  } finally {
    state.inFlight.delete(d.approver.userId);
  }
}

/** The validator: refuses a vote before it reaches history. Validators do not run on replay. */
function validateApproval(state: GatewayRunState, rawDecision: unknown): void {
  const { write, submissionId, status, revision, planHash } = state;
  // Between two runs of one submission (continue-as-new) a vote is refused as a
  // handover, which the client sends again, not as a closed approval.
  if (state.handingOver || (state.carry !== null && status === 'evaluating'))
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
      check.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
  const { approver } = check.data;
  // A decision on a plan the approver was not shown is refused before history, naming
  // the plan that is current now (a stale inbox page, a replan since).
  if (check.data.revision !== revision || (planHash !== null && check.data.planHash !== planHash))
    throw refusal(
      ErrorType.StalePlanRevision,
      `The decision is for plan revision ${check.data.revision} (hash ${check.data.planHash}); the current plan is revision ${revision} (hash ${planHash ?? 'none'}): review it and decide again`,
    );
  if (approver.orgId !== write.orgId)
    throw refusal(
      ErrorType.ApproverNotAuthorized,
      `Approver belongs to org ${approver.orgId}, not ${write.orgId}`,
    );
  if (state.selfIds.has(approver.userId))
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
  if (
    state.inFlight.has(approver.userId) ||
    votesNow(state).some((v) => v.userId === approver.userId)
  )
    throw refusal(
      ErrorType.DuplicateApproval,
      `User ${approver.userId} has already voted on ${submissionId}${revision > 0 ? ` (plan revision ${revision})` : ''}`,
    );
}
