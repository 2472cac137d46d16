/**
 * How a run records its progress: each state-machine move (search attribute and current
 * details), each audit row, and the final result with its outcome.
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import type { AnalysisOutcome, AnalysisResult, Answer } from '../analysis.contract';
import type { AnalysisState } from './state-machine';
import type { Validation } from './validation-gate';
import type { ReviewDecision } from './review';
import type { AnalysisRunState } from './run-state';
import { bookkeeping } from './activity-proxies';
import { CsOutcome, CsState } from '../search-attributes';

/** One audit row for this run; its idempotency key is the run and the event. */
export function recordAudit(
  state: AnalysisRunState,
  event: string,
  payload: unknown,
  actor = 'workflow',
): Promise<void> {
  return bookkeeping.recordAudit({
    orgId: state.request.orgId,
    subjectType: 'analysis',
    subjectId: state.workflowId,
    event,
    idempotencyKey: `${state.workflowId}:${event}`,
    actor,
    payload,
  });
}

/** Moves the state machine (refusing a transition outside its table) and shows the move. */
export function moveTo(state: AnalysisRunState, next: AnalysisState, detail: string): void {
  state.machine.moveTo(next);
  upsertSearchAttributes([{ key: CsState, value: next }]);
  setCurrentDetails(`**${next}** — ${detail}`);
}

/** Stores the final result and audits its outcome; the run is then completed. */
export async function finishRun(
  state: AnalysisRunState,
  confidence: number,
  outcome: AnalysisOutcome,
  answer: Answer | null,
  reviewer: ReviewDecision | undefined,
): Promise<AnalysisResult> {
  const { request, workflowId } = state;
  const final: AnalysisResult = {
    requestId: request.requestId,
    orgId: request.orgId,
    workflowId,
    outcome,
    answer,
    confidence,
    path: state.plan?.path ?? 'full_agent',
    validation: state.validation as Validation,
    reviewedBy: reviewer?.reviewer.userId ?? null,
    reviewNote: reviewer?.note ?? null,
    remindersSent: state.remindersSent,
  };
  await bookkeeping.storeResult({ result: final, outcome });
  await recordAudit(
    state,
    `outcome:${outcome}`,
    { outcome, reviewer: reviewer?.reviewer.userId ?? null },
    reviewer ? `user:${reviewer.reviewer.userId}` : 'workflow',
  );
  upsertSearchAttributes([{ key: CsOutcome, value: outcome }]);
  state.result = final;
  state.status = 'completed';
  return final;
}
