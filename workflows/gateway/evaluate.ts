/**
 * The run's first phase: the write's search attributes, then its evaluation against the
 * database (plan, preview, payee, risk) — or, in a run continued from an earlier one, the
 * risk it carried over. Leaves the scored plan on the state.
 */
import { patched, upsertSearchAttributes } from '@temporalio/workflow';
import type { EvaluateOutput } from '../../activities/gateway';
import { type RiskAssessmentView, CsWriteKind } from '../gateway.contract';
import { ErrorType, permanentFailure } from '../errors';
import { CsOrg, CsState } from '../search-attributes';
import type { GatewayProxy } from './activity-proxies';
import { durable } from './durable-step';
import type { GatewayRunState } from './run-state';
import { showLane } from './status';

export interface EvaluatedWrite {
  /** The database's evaluation; null in a continued run (it carries the plan over). */
  evaluation: EvaluateOutput | null;
  /** The risk first scored: the lane the write starts in. */
  firstRisk: RiskAssessmentView;
}

export async function evaluateWrite(
  state: GatewayRunState,
  db: GatewayProxy,
): Promise<EvaluatedWrite> {
  const { write } = state;
  upsertSearchAttributes([
    { key: CsOrg, value: write.orgId },
    { key: CsWriteKind, value: write.kind },
    { key: CsState, value: state.status },
  ]);
  const ev = state.carry
    ? null
    : await durable(state, db, 'evaluate', () =>
        db.gatewayEvaluate({
          write,
          submissionId: state.submissionId,
          workflowId: state.workflowId,
          runId: state.runId,
          dueAt: new Date(state.dueAt).toISOString(),
          expiresAt: new Date(state.expiresAt).toISOString(),
        }),
      );
  const firstRisk = ev?.risk ?? state.carry?.risk;
  if (!firstRisk) throw permanentFailure(ErrorType.IllegalTransition, 'a run with no risk');
  state.risk = firstRisk;
  // Added after runs were recorded: the marker keeps those histories replaying unchanged.
  state.laneAttribute = patched('gateway-risk-lane-search-attribute');
  showLane(state, firstRisk.lane);
  if (ev) {
    state.preview = ev.preview;
    state.payee = ev.payee ?? null;
    state.revision = ev.revision ?? 0;
    state.planHash = ev.planHash ?? null;
  }
  return { evaluation: ev, firstRisk };
}
