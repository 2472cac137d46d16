/**
 * How a request run writes down what happens: each event stored under the run's own counter,
 * each status change shown in the search attributes and the UI, the counters saved. Each
 * function returns the activity's own promise (no async wrapper), so awaiting one is exactly
 * awaiting the activity.
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { CsState } from '../search-attributes';
import { book } from './activity-proxies';
import type { RequestStatus } from './contract';
import type { RequestRun } from './run-state';

/** Stores one request event, numbered by the run's counter and timed by its clock. */
export function recordEvent(
  run: RequestRun,
  kind: string,
  actor: string | null,
  detail: string | null,
  data?: unknown,
) {
  return book.requestAppendEvent({
    requestId: run.request.requestId,
    seq: ++run.seq,
    kind,
    actor,
    detail,
    data: data ?? null,
    atMs: Date.now(),
  });
}

/** Moves the request to a status: searchable, and shown with its detail in the UI. */
export function setStatus(run: RequestRun, s: RequestStatus, detail: string): void {
  const r = run.request;
  run.status = s;
  upsertSearchAttributes([{ key: CsState, value: s }]);
  setCurrentDetails(`**${s}** — ${r.type}: ${r.title}${detail ? ` (${detail})` : ''}`);
}

/** Saves the reminder and re-ask counters as they are now. */
export function saveCounters(run: RequestRun) {
  return book.requestSaveCounters({
    requestId: run.request.requestId,
    remindersSent: run.remindersSent,
    reasks: run.reasks,
  });
}
