/**
 * Applying the write, exactly once and exactly as approved: the apply step, and what happens
 * when the plan changed since its approval — the new revision (its lane never lower) goes
 * back to the approvers with a fresh approval window.
 */
import { log } from '@temporalio/workflow';
import { ErrorType, permanentFailure } from '../errors';
import type { RiskAssessmentView } from '../gateway.contract';
import type { GatewayProxy } from './activity-proxies';
import { durable } from './durable-step';
import type { GatewayRunState } from './run-state';
import { setStatus, showLane } from './status';

export type ApplyOutcome = Awaited<ReturnType<GatewayProxy['gatewayApply']>>;
export type ReplannedApply = Extract<ApplyOutcome, { status: 'replanned' }>;

const laneRank = { low: 0, moderate: 1, high: 2 } as const;

export async function applyWrite(state: GatewayRunState, db: GatewayProxy): Promise<ApplyOutcome> {
  setStatus(state, 'applying', 'posting');
  return durable(state, db, 'apply', () => db.gatewayApply({ submissionId: state.submissionId }));
}

/** The new plan revision replaces the approved one on the state; the lane may not drop. */
export function backToApproval(
  state: GatewayRunState,
  r: RiskAssessmentView,
  applied: ReplannedApply,
): void {
  // The plan changed between approval and apply: the new revision (lane never lower)
  // goes back to the approvers, with a fresh approval window.
  log.info('plan changed before apply; back to approval', {
    submissionId: state.submissionId,
    revision: applied.revision,
    lane: applied.risk.lane,
  });
  if (laneRank[applied.risk.lane] < laneRank[r.lane])
    throw permanentFailure(ErrorType.IllegalTransition, 'a plan revision lowered the lane');
  state.risk = applied.risk;
  showLane(state, applied.risk.lane);
  state.preview = applied.preview;
  state.payee = applied.payee;
  state.revision = applied.revision;
  state.planHash = applied.planHash;
  state.startedAt = Date.now();
  state.dueAt = state.startedAt + state.dueAfter;
  state.expiresAt = state.startedAt + state.expireAfter;
}
