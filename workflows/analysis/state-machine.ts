import { ErrorType, permanentFailure } from '../errors';

/** The analysis run's typed state machine (SPEC Part A). */
export const ANALYSIS_STATES = [
  'RECEIVE_TASK',
  'PLAN',
  'EXECUTE_STEP',
  'VALIDATE_OUTPUT',
  'DELIVER',
  'HUMAN_REVIEW',
] as const;
export type AnalysisState = (typeof ANALYSIS_STATES)[number];

/**
 * The only transitions that exist. EXECUTE_STEP → EXECUTE_STEP moves to the next step;
 * DELIVER and HUMAN_REVIEW are terminal for the machine (a reviewer's decision is the
 * outcome of HUMAN_REVIEW, not a new state), so nothing reaches DELIVER except through
 * VALIDATE_OUTPUT.
 */
export const ALLOWED_TRANSITIONS: Readonly<Record<AnalysisState, readonly AnalysisState[]>> = {
  RECEIVE_TASK: ['PLAN'],
  PLAN: ['EXECUTE_STEP'],
  EXECUTE_STEP: ['EXECUTE_STEP', 'VALIDATE_OUTPUT'],
  VALIDATE_OUTPUT: ['DELIVER', 'HUMAN_REVIEW'],
  DELIVER: [],
  HUMAN_REVIEW: [],
};

export function isAllowedTransition(from: AnalysisState, to: AnalysisState): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/** Throws a non-retryable IllegalTransition failure for anything outside the table. */
export function assertTransition(from: AnalysisState, to: AnalysisState): void {
  if (!isAllowedTransition(from, to)) {
    throw permanentFailure(
      ErrorType.IllegalTransition,
      `Illegal transition ${from} → ${to}; allowed from ${from}: ${ALLOWED_TRANSITIONS[from].join(', ') || 'none (terminal)'}`,
    );
  }
}

/** Holds the current state and its trail; every move goes through the table. */
export class AnalysisStateMachine {
  private current: AnalysisState = 'RECEIVE_TASK';
  readonly trail: AnalysisState[] = ['RECEIVE_TASK'];

  get state(): AnalysisState {
    return this.current;
  }

  moveTo(next: AnalysisState): void {
    assertTransition(this.current, next);
    this.current = next;
    this.trail.push(next);
  }
}
