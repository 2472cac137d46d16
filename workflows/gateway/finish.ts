/**
 * The end of a run: its result (outcome, votes, effects, reminders, split-outs) on the state
 * and in the search attributes, then a wait until every handler in progress has finished,
 * so none is cut off by the workflow's completion.
 */
import { allHandlersFinished, condition, upsertSearchAttributes } from '@temporalio/workflow';
import type { GatewayOutcome, GatewayResult, RiskAssessmentView } from '../gateway.contract';
import { CsOutcome } from '../search-attributes';
import type { GatewayRunState } from './run-state';
import { setStatus } from './status';

export async function finishRun(
  state: GatewayRunState,
  firstRisk: RiskAssessmentView,
  outcome: GatewayOutcome,
  applied: { effects: GatewayResult['effects']; entryIds: string[] } | null,
): Promise<GatewayResult> {
  const result: GatewayResult = {
    submissionId: state.submissionId,
    orgId: state.write.orgId,
    kind: state.write.kind,
    outcome,
    risk: state.risk ?? firstRisk,
    votes: [...state.votes],
    effects: applied?.effects ?? [],
    entryIds: applied?.entryIds ?? [],
    remindersSent: state.remindersSent,
    ...(state.splitOut.length > 0 ? { splitOut: state.splitOut } : {}),
  };
  state.result = result;
  upsertSearchAttributes([{ key: CsOutcome, value: outcome }]);
  setStatus(state, 'completed', outcome);
  await condition(allHandlersFinished);
  return result;
}
