import { condition, getExternalWorkflowHandle, log } from '@temporalio/workflow';
import { humanWait } from '../human-wait';
import { messageOf } from './activity-proxies';
import { closeRequest, completedPayload, emitCallback, expireRequest, signalTarget } from './close';
import {
  DAY_MS,
  requestCompletedSignal,
  type RequestView,
  type RequestWorkflowInput,
} from './contract';
import { setupRequestHandlers } from './handlers';
import { sendNotice } from './notice';
import { emitDelegation, openRequest, routeRequest } from './open';
import { recordEvent, saveCounters } from './run-progress';
import { newRequestRun, requestView } from './run-state';

/**
 * One request to a person (or, for a delegation, an agent): stored and routed (assignee →
 * owner → admin, the route recorded), the assignee notified, reminded when due and then
 * every remindEveryDays, expired at expiresInDays. Answering is an Update checked against
 * the answer form and the answerer's org and role; free text is read strictly and an unclear
 * one re-asks. On completion the creating workflow is signalled and a callback event emitted
 * so the creating agent instance resumes.
 *
 * The run reads as its state machine: open (stored, routed, announced) → waiting, reminded
 * → completed | failed (by the update handlers) | expired → closed, the creator told. Its
 * state is one object (requests/run-state.ts) that the handlers (requests/handlers.ts) read
 * live. Every await of the run stays in this function, on the activity's own promise: the
 * answer and fail updates run alongside it in the same activations, and an await added
 * between two of its commands would reorder theirs (see workflows/human-wait.ts).
 */
export async function requestWorkflow(input: RequestWorkflowInput): Promise<RequestView> {
  const run = newRequestRun(input);
  setupRequestHandlers(run);

  // OPEN: stored and routed, then the delegate agent (or the assignee) told.
  const routed = await openRequest(run);
  routeRequest(run, routed);
  const delegate = run.request.delegateAgentType;
  if (delegate) await emitDelegation(run, delegate);
  else if (run.assigneeUserId) await sendNotice(run, 'assigned');

  // WAITING until answered or failed (the handlers settle it) or expired, reminded when due
  // and then every remindEveryDays. The loop is written out here on purpose (human-wait.ts).
  const wait = humanWait({
    settled: () => run.status !== 'open',
    times: run,
    remind: { everyMs: run.request.remindEveryDays * DAY_MS },
  });
  while (wait.open()) {
    if (await wait.sleep()) break;
    if (wait.takeReminder()) {
      run.remindersSent += 1;
      await recordEvent(run, 'reminded', null, `reminder ${run.remindersSent}`);
      await saveCounters(run);
      if (run.assigneeUserId) await sendNotice(run, `reminder-${run.remindersSent}`);
    }
  }

  // CLOSED: an answer already past its validator lands before the expiry is decided.
  await condition(() => !run.answering);
  if (run.status === 'open') await expireRequest(run);
  await closeRequest(run);

  // The creator told: its workflow signalled (it may have closed: the event still reaches
  // its agent), and a completed request's callback event emitted.
  const payload = completedPayload(run);
  const target = signalTarget(run);
  if (target) {
    try {
      await getExternalWorkflowHandle(target).signal(requestCompletedSignal, payload);
    } catch (err) {
      log.warn('request callback signal not delivered', { target, error: messageOf(err) });
    }
  }
  const eventType = run.request.callback.eventType;
  if (run.status === 'completed' && eventType) await emitCallback(run, eventType);
  return requestView(run);
}
