/**
 * The request run's handlers — the state query, the stored update the client waits on, the
 * answer update and the operator's fail update, each update with its validator — registered
 * on the run's state in this order, before the run's first await. All read the state live.
 */
import { condition, setHandler } from '@temporalio/workflow';
import { ErrorType, permanentFailure } from '../errors';
import { answerRequest, validateAnswer } from './answer';
import {
  answerRequestUpdate,
  failRequestUpdate,
  requestStateQuery,
  requestStoredUpdate,
  type FailRequestInput,
  type RequestView,
} from './contract';
import { recordEvent, setStatus } from './run-progress';
import { requestView, type RequestRun } from './run-state';

export function setupRequestHandlers(run: RequestRun): void {
  setHandler(requestStateQuery, () => requestView(run));
  setHandler(requestStoredUpdate, async () => {
    await condition(() => run.seq >= 1);
    return requestView(run);
  });
  setHandler(answerRequestUpdate, (raw) => answerRequest(run, raw), {
    validator: (raw): void => validateAnswer(run, raw),
  });
  setHandler(failRequestUpdate, (f) => failRequest(run, f), {
    validator: (f): void => validateFailure(run, f),
  });
}

/** An operator closes an open request without an answer (a delegation whose entity is gone). */
async function failRequest(run: RequestRun, f: FailRequestInput): Promise<RequestView> {
  await recordEvent(run, 'failed', f.by, f.reason);
  setStatus(run, 'failed', f.reason);
  return requestView(run);
}

function validateFailure(run: RequestRun, f: FailRequestInput): void {
  if (run.status !== 'open' || run.answering)
    throw permanentFailure(
      ErrorType.RequestNotOpen,
      `request ${run.request.requestId} is ${run.status}`,
    );
  if (!f || typeof f.reason !== 'string' || !f.reason || typeof f.by !== 'string' || !f.by)
    throw permanentFailure(
      ErrorType.InvalidRequest,
      'a failure names its reason and who closes it',
    );
}
