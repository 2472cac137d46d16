/**
 * Opening a request: searchable by org and state, stored and routed (assignee → owner →
 * admin; requestOpen writes event 1, `opened`, with the route), and handed to a delegation's
 * agent as an event. Each step returns the activity's own promise for the workflow to await.
 */
import { upsertSearchAttributes } from '@temporalio/workflow';
import { CsOrg, CsState } from '../search-attributes';
import { book, callback } from './activity-proxies';
import { setStatus } from './run-progress';
import type { RequestRun } from './run-state';

/** Where the request was routed, as requestOpen answers. */
export type Routed = Awaited<ReturnType<typeof book.requestOpen>>;

/** Makes the request searchable, then stores and routes it. */
export function openRequest(run: RequestRun): Promise<Routed> {
  upsertSearchAttributes([
    { key: CsOrg, value: run.request.orgId },
    { key: CsState, value: run.status },
  ]);
  return book.requestOpen({
    request: run.request,
    workflowId: run.workflowId,
    createdAtMs: run.createdAtMs,
    dueAtMs: run.dueAt,
    expiresAtMs: run.expiresAt,
  });
}

/** The stored request's route becomes the run's; it is open (event 1 written). */
export function routeRequest(run: RequestRun, routed: Routed): void {
  run.route = routed.route;
  run.routeDetail = routed.detail;
  run.assigneeUserId = routed.assigneeUserId;
  run.seq = 1; // requestOpen wrote event 1 (opened, with the route)
  setStatus(run, 'open', routed.detail);
}

/**
 * A delegation goes to its agent as an event; the person it was routed to sees it in the
 * inbox as the fallback, without a notice for every hand-off.
 */
export function emitDelegation(run: RequestRun, delegateAgentType: string) {
  const r = run.request;
  return callback.requestEmitDelegation({
    requestId: r.requestId,
    orgId: r.orgId,
    delegateAgentType,
    hop: r.hop,
    createdByRunId: r.createdBy.runId ?? null,
    evidence: r.evidence,
  });
}
