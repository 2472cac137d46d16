import type { GatewayResult } from './gateway.contract';
import { connectDatabaseSteps } from './gateway/activity-proxies';
import { applyWrite, backToApproval } from './gateway/apply';
import { openApproval, waitForVotes } from './gateway/approval-wait';
import { closeVote } from './gateway/close-vote';
import { evaluateWrite } from './gateway/evaluate';
import { finishRun } from './gateway/finish';
import { setupGatewayHandlers } from './gateway/handlers';
import { readGatewayInput } from './gateway/input';
import { createGatewayRunState } from './gateway/run-state';
import { startSplitOuts } from './gateway/split-out';

/**
 * One write through the gateway: validate, risk-score, wait for the approvals its lane needs
 * (none, one, or N distinct), then apply it exactly once — exactly as approved: a plan that
 * changed in between goes back for approval. Rejection and expiry are results.
 *
 * The run reads as its state machine: evaluate → start split-outs → (per plan revision) wait
 * for people if the lane asks for them → apply → finish. Its state is one object
 * (gateway/run-state.ts), which the handlers read live; each phase is in gateway/.
 */
export async function gatewayWorkflow(raw: unknown, carried?: unknown): Promise<GatewayResult> {
  const { write, carry } = readGatewayInput(raw, carried);
  const state = createGatewayRunState(write, carry);
  // Every handler is registered before the first await: an Update that arrives in a run's
  // first activation (a continued run's, above all) finds its handler, not a rejection for
  // want of one. The handlers reach the database only once the vote is open, after this.
  setupGatewayHandlers(state);
  const steps = await connectDatabaseSteps(state);

  const { evaluation, firstRisk } = await evaluateWrite(state, steps.db);
  await startSplitOuts(state, steps.db, evaluation);
  if (evaluation?.alreadyApplied)
    return finishRun(state, firstRisk, 'applied', evaluation.alreadyApplied);

  for (;;) {
    const risk = state.risk ?? firstRisk;
    if (risk.lane !== 'low') {
      await openApproval(state, risk);
      await waitForVotes(state, steps, risk);
      const verdict = await closeVote(state, steps.db, risk);
      if (verdict !== 'approved') return finishRun(state, firstRisk, verdict, null);
    }
    const applied = await applyWrite(state, steps.db);
    if ('status' in applied && applied.status === 'replanned') {
      backToApproval(state, risk, applied);
      continue;
    }
    return finishRun(state, firstRisk, 'applied', applied);
  }
}
