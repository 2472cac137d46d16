/**
 * Closing a request: expired when nobody answered in time, the row closed with its outcome,
 * then the creator told — its workflow signalled, and on completion a callback event emitted
 * so the creating agent instance resumes. Each step returns the activity's own promise.
 */
import { book, callback } from './activity-proxies';
import type { RequestCompletedPayload } from './contract';
import { recordEvent, setStatus } from './run-progress';
import type { RequestRun } from './run-state';

/** No answer before the expiry: the request expires (and says so in its events). */
export function expireRequest(run: RequestRun) {
  const { expiresInDays } = run.request;
  setStatus(run, 'expired', `no answer within ${expiresInDays} days`);
  return recordEvent(run, 'expired', null, `no answer within ${expiresInDays} days`);
}

/** Stores the outcome: status, answer, counters and when it closed. */
export function closeRequest(run: RequestRun) {
  return book.requestClose({
    requestId: run.request.requestId,
    status: run.status,
    answer: run.answer,
    answeredBy: run.answeredBy,
    remindersSent: run.remindersSent,
    reasks: run.reasks,
    closedAtMs: Date.now(),
  });
}

/** What the creator's workflow is signalled with. */
export function completedPayload(run: RequestRun): RequestCompletedPayload {
  const r = run.request;
  return {
    requestId: r.requestId,
    orgId: r.orgId,
    status: run.status,
    answer: run.answer,
    answeredBy: run.answeredBy,
  };
}

/** The workflow to signal: the callback's, else the creator's; never this run, null if none. */
export function signalTarget(run: RequestRun): string | null {
  const r = run.request;
  const target = r.callback.signalWorkflowId ?? r.createdBy.workflowId;
  return target && target !== run.workflowId ? target : null;
}

/** The completed request's callback event, which resumes the creating agent instance. */
export function emitCallback(run: RequestRun, eventType: string) {
  const r = run.request;
  return callback.requestEmitCallback({
    requestId: r.requestId,
    orgId: r.orgId,
    eventType,
    hop: r.hop,
    createdBy: r.createdBy,
    type: r.type,
    answer: run.answer,
    answeredBy: run.answeredBy,
  });
}
