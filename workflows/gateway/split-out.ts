/**
 * journal.post_batch: each high-risk entry goes to its own submission (a child gateway run,
 * abandoned on close) and its own approval, so it does not hold the batch. Its key derives
 * from the entry's, so a retry joins the child already running.
 */
import { ParentClosePolicy, patched, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { EvaluateOutput } from '../../activities/gateway';
import { CsWriteKind, GATEWAY_WORKFLOW, gatewayWorkflowId } from '../gateway.contract';
import { CsOrg, CsState } from '../search-attributes';
import type { GatewayProxy } from './activity-proxies';
import { durable } from './durable-step';
import type { GatewayRunState } from './run-state';
import { splitIdempotencyKey } from './writes';

/** Starts (or joins) a submission per split-out entry and lists it on the state. */
export async function startSplitOuts(
  state: GatewayRunState,
  db: GatewayProxy,
  evaluation: EvaluateOutput | null,
): Promise<void> {
  const { write } = state;
  for (const s of evaluation?.splitOut ?? []) {
    const idempotencyKey = splitIdempotencyKey(s.entryKey);
    const child = gatewayWorkflowId(write.orgId, idempotencyKey);
    try {
      await startChild(GATEWAY_WORKFLOW, {
        workflowId: child,
        args: [{ ...write, idempotencyKey, payload: { entries: [s.entry] } }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [
          { key: CsOrg, value: write.orgId },
          { key: CsWriteKind, value: write.kind },
          { key: CsState, value: 'evaluating' },
        ],
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      // Already running under this key: joined only once it is known to carry this entry
      // (added after runs were recorded; the marker keeps their histories replaying).
      if (patched('gateway-split-out-compare'))
        await durable(state, db, 'confirm split-out', () =>
          db.gatewayConfirmSplitOut({
            submissionId: state.submissionId,
            orgId: write.orgId,
            idempotencyKey,
            entry: s.entry,
          }),
        );
    }
    state.splitOut.push({ entryKey: s.entryKey, submissionId: child });
  }
}
