/**
 * The state of one request run, in one object: the request and its times (fixed at the start)
 * and what has happened since (status, event counter, route, counters, the answer). The phases
 * write it; the handlers read it live, so the state query always shows the latest.
 */
import { workflowInfo } from '@temporalio/workflow';
import type { Answer } from './answer-schema';
import {
  DAY_MS,
  type RequestStatus,
  type RequestView,
  type RequestWorkflowInput,
  type Route,
} from './contract';

export interface RequestRun {
  readonly request: RequestWorkflowInput['request'];
  readonly workflowId: string;
  /** The workflow's own clock at the start: due and expiry count from it (epoch ms). */
  readonly createdAtMs: number;
  readonly dueAt: number;
  readonly expiresAt: number;

  status: RequestStatus;
  /** Number of the last stored request event (requestOpen writes event 1, `opened`). */
  seq: number;
  remindersSent: number;
  reasks: number;
  /** How the request was routed; set once it is stored. */
  route: Route | null;
  routeDetail: string | null;
  assigneeUserId: string | null;
  answer: Answer | null;
  answeredBy: string | null;
  /** An accepted answer is being read: no other answer, failure or expiry under it. */
  answering: boolean;
}

/** A request run as it starts: open, nothing stored yet. */
export function newRequestRun(input: RequestWorkflowInput): RequestRun {
  const { request } = input;
  // Due and expiry count from the workflow's own clock (the client's may differ, and on the
  // time-skipping server it does), so timers and stored times agree.
  const createdAtMs = Date.now();
  const workflowId = workflowInfo().workflowId;
  return {
    request,
    workflowId,
    createdAtMs,
    dueAt: createdAtMs + request.dueInDays * DAY_MS,
    expiresAt: createdAtMs + request.expiresInDays * DAY_MS,
    status: 'open',
    seq: 0,
    remindersSent: 0,
    reasks: 0,
    route: null,
    routeDetail: null,
    assigneeUserId: null,
    answer: null,
    answeredBy: null,
    answering: false,
  };
}

/** What the state query (and the stored, fail and workflow results) show, read now. */
export function requestView(run: RequestRun): RequestView {
  const r = run.request;
  return {
    requestId: r.requestId,
    orgId: r.orgId,
    type: r.type,
    title: r.title,
    status: run.status,
    assigneeUserId: run.assigneeUserId,
    route: run.route,
    routeDetail: run.routeDetail,
    remindersSent: run.remindersSent,
    reasks: run.reasks,
    dueAt: new Date(run.dueAt).toISOString(),
    expiresAt: new Date(run.expiresAt).toISOString(),
    answer: run.answer,
    answeredBy: run.answeredBy,
  };
}
