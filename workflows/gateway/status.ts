/**
 * What a run shows outside itself as it moves: its status (a search attribute and the
 * current details line in the Web UI) and, where the run's patch allows, its risk lane.
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { CsRiskLane, type GatewayStateView } from '../gateway.contract';
import { CsState } from '../search-attributes';
import type { GatewayRunState } from './run-state';

export function setStatus(
  state: GatewayRunState,
  s: GatewayStateView['status'],
  detail: string,
): void {
  state.status = s;
  upsertSearchAttributes([{ key: CsState, value: s }]);
  setCurrentDetails(`**${s}** — ${state.write.kind}: ${detail}`);
}

/** The lane as a search attribute, in runs past the patch read when the write was scored. */
export function showLane(state: GatewayRunState, lane: string): void {
  if (state.laneAttribute) upsertSearchAttributes([{ key: CsRiskLane, value: lane }]);
}
