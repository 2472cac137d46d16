/**
 * Everything one analysis run knows, in one object: the phases write it, the query and update
 * handlers read it live (so a handler always sees the latest assignment), and the state query
 * shows it as an AnalysisStateView.
 */
import type { AnalysisResult, AnalysisStateView, Answer } from '../analysis.contract';
import { AnalysisStateMachine } from './state-machine';
import type { Plan } from './planner';
import type { StepResult } from './step-result';
import type { Validation } from './validation-gate';
import type { AnalysisRequest } from './request';
import type { ReviewDecision } from './review';

export interface AnalysisRunState {
  readonly request: AnalysisRequest;
  readonly workflowId: string;
  readonly machine: AnalysisStateMachine;
  /** Set in PLAN. */
  plan: Plan | null;
  /** One result per executed step, appended in order. */
  readonly steps: StepResult[];
  /** Set in VALIDATE_OUTPUT, with the answer it validated. */
  validation: Validation | null;
  proposed: Answer | null;
  /** The final result, once stored. */
  result: AnalysisResult | null;
  status: AnalysisStateView['status'];
  /** The reviewer's accepted decision; set only by the review update. */
  decision: ReviewDecision | undefined;
  /** A review update is checking the reviewer: the review may not close under it. */
  decisionInProgress: boolean;
  remindersSent: number;
  /** Review due and expiry times (epoch ms), set when the review opens. */
  dueAt: number | null;
  expiresAt: number | null;
}

export function createRunState(request: AnalysisRequest, workflowId: string): AnalysisRunState {
  return {
    request,
    workflowId,
    machine: new AnalysisStateMachine(),
    plan: null,
    steps: [],
    validation: null,
    proposed: null,
    result: null,
    status: 'running',
    decision: undefined,
    decisionInProgress: false,
    remindersSent: 0,
    dueAt: null,
    expiresAt: null,
  };
}

/** What the state query (and the settled update) returns: a snapshot of the run's state. */
export function viewOf(state: AnalysisRunState): AnalysisStateView {
  const { request, machine, plan, status, dueAt, expiresAt, decision } = state;
  return {
    requestId: request.requestId,
    orgId: request.orgId,
    machineState: machine.state,
    trail: [...machine.trail],
    status,
    path: plan?.path ?? null,
    plan: plan?.steps ?? [],
    steps: state.steps,
    validation: state.validation,
    proposedAnswer: state.proposed,
    review: {
      open: status === 'awaiting_review',
      dueAt: dueAt === null ? null : new Date(dueAt).toISOString(),
      expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      remindersSent: state.remindersSent,
      decision: decision?.decision ?? null,
      reviewer: decision?.reviewer.userId ?? null,
    },
    result: state.result,
  };
}
