/**
 * Counting the vote: only votes on the current plan revision count, an approval per distinct
 * approver, and a single rejection vetoes. Read live from the run's state, so a vote recorded
 * or a plan revised since is seen.
 */
import type { RiskAssessmentView, Vote } from '../gateway.contract';
import type { GatewayRunState } from './run-state';

/** The votes on the plan revision now awaiting approval. */
export function votesNow(state: GatewayRunState): Vote[] {
  return state.votes.filter((v) => (v.revision ?? 0) === state.revision);
}

export function approvalCount(state: GatewayRunState): number {
  return votesNow(state).filter((v) => v.decision === 'approve').length;
}

export function hasRejection(state: GatewayRunState): boolean {
  return votesNow(state).some((v) => v.decision === 'reject');
}

/** Rejected, or approved by as many as the lane requires. */
export function voteSettled(state: GatewayRunState, risk: RiskAssessmentView): boolean {
  return hasRejection(state) || approvalCount(state) >= risk.requiredApprovals;
}
