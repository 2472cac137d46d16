/**
 * Continue-as-new during a long approval wait: the run records its pending suspensions, then
 * starts its successor with everything the wait needs (plan, votes, window, reminders,
 * split-outs), so no history grows without bound. Never returns.
 */
import { log, makeContinueAsNewFunc, workflowInfo } from '@temporalio/workflow';
import type { GatewayCarryOver, GatewayResult, RiskAssessmentView } from '../gateway.contract';
import type { GatewayProxy } from './activity-proxies';
import { durable } from './durable-step';
import type { GatewayRunState } from './run-state';

export async function handOverToNextRun(
  state: GatewayRunState,
  db: GatewayProxy,
  r: RiskAssessmentView,
  reminded: boolean,
): Promise<void> {
  // Suspensions not yet on the database are recorded (first thing a durable step
  // does) before the run hands over: the next run does not know of them.
  await durable(state, db, 'hand over', () => Promise.resolve());
  log.info('approval wait continues as new', {
    submissionId: state.submissionId,
    events: workflowInfo().historyLength,
  });
  const next: GatewayCarryOver = {
    risk: r,
    preview: state.preview,
    payee: state.payee,
    revision: state.revision,
    planHash: state.planHash,
    votes: [...state.votes],
    remindersSent: state.remindersSent,
    reminded,
    startedAt: state.startedAt,
    dueAt: state.dueAt,
    expiresAt: state.expiresAt,
    suspensions: state.suspensions,
    splitOut: state.splitOut,
    continued: (state.carry?.continued ?? 0) + 1,
  };
  // The gateway workflow's own signature (gateway.ts), named here so this file need not import it.
  await makeContinueAsNewFunc<(raw: unknown, carried?: unknown) => Promise<GatewayResult>>({
    memo: workflowInfo().memo ?? {},
    typedSearchAttributes: workflowInfo().typedSearchAttributes,
  })(state.write, next);
}
