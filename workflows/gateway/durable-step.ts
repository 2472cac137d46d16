/**
 * An idempotent database step that survives an outage: a typed refusal ends the write; an
 * outage that outlasts the retry budget suspends the run until an operator's resumeUpdate,
 * with every vote kept, and the suspension joins the org's audit chain before the next try.
 */
import { ActivityFailure, ApplicationFailure, condition, log, patched } from '@temporalio/workflow';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import type { GatewayProxy } from './activity-proxies';
import type { GatewayRunState } from './run-state';
import { setStatus } from './status';

/** A refusal of ours (a verdict on the write), as opposed to an outage that outlasted retries. */
function isTypedRefusal(err: unknown): boolean {
  return (
    err instanceof ActivityFailure &&
    err.cause instanceof ApplicationFailure &&
    (NON_RETRYABLE_ERROR_TYPES as string[]).includes(err.cause.type ?? '')
  );
}

/**
 * Runs `fn` (a database step named `step`) until it succeeds or is refused; an outage that
 * outlasts the retry budget waits for resumeUpdate and tries again.
 */
export async function durable<T>(
  state: GatewayRunState,
  db: GatewayProxy,
  step: string,
  fn: () => Promise<T>,
): Promise<T> {
  for (;;) {
    try {
      // The database is asked again: first the suspensions it has not heard of, so each
      // joins the org's audit chain (suspended:N, resumed:N) before the step runs again.
      while (state.unrecorded[0]) {
        await db.gatewayRecordSuspension(state.unrecorded[0]);
        state.unrecorded.shift();
      }
      return await fn();
    } catch (err) {
      if (isTypedRefusal(err) || !patched('gateway-suspend-on-outage')) throw err;
      const before = state.status;
      const error = err instanceof Error ? err.message : String(err);
      const suspendedAt = new Date().toISOString();
      state.suspended = { step, error };
      log.error('database step outlasted its retry budget; waiting for resume', {
        submissionId: state.submissionId,
        step,
      });
      setStatus(state, 'suspended', `${step} failed after the retry budget; send resumeUpdate`);
      await condition(() => state.resumeRequested);
      state.resumeRequested = false;
      state.suspended = null;
      if (patched('gateway-audit-suspensions') && state.resumedBy)
        state.unrecorded.push({
          submissionId: state.submissionId,
          orgId: state.write.orgId,
          suspension: ++state.suspensions,
          step,
          error: error.slice(0, 4000),
          suspendedAt,
          resumedAt: new Date().toISOString(),
          resumedBy: state.resumedBy.operator,
          ...(state.resumedBy.note ? { note: state.resumedBy.note } : {}),
        });
      setStatus(state, before, `resumed ${step}`);
    }
  }
}
