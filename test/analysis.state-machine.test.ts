import { ApplicationFailure } from '@temporalio/common';
import {
  ALLOWED_TRANSITIONS,
  ANALYSIS_STATES,
  AnalysisStateMachine,
  assertTransition,
  isAllowedTransition,
  type AnalysisState,
} from '../workflows/analysis/state-machine';

const allowed: [AnalysisState, AnalysisState][] = [
  ['RECEIVE_TASK', 'PLAN'],
  ['PLAN', 'EXECUTE_STEP'],
  ['EXECUTE_STEP', 'EXECUTE_STEP'],
  ['EXECUTE_STEP', 'VALIDATE_OUTPUT'],
  ['VALIDATE_OUTPUT', 'DELIVER'],
  ['VALIDATE_OUTPUT', 'HUMAN_REVIEW'],
];

describe('analysis state machine', () => {
  it.each(allowed)('allows %s → %s', (from, to) => {
    expect(isAllowedTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  const refused = ANALYSIS_STATES.flatMap((from) =>
    ANALYSIS_STATES.map((to) => [from, to] as [AnalysisState, AnalysisState]),
  ).filter(([f, t]) => !allowed.some(([a, b]) => a === f && b === t));

  it('has exactly the six transitions of the specification', () => {
    const count = Object.values(ALLOWED_TRANSITIONS).reduce((n, list) => n + list.length, 0);
    expect(count).toBe(6);
    expect(refused).toHaveLength(ANALYSIS_STATES.length ** 2 - 6);
  });

  it.each(refused)('refuses %s → %s with a non-retryable IllegalTransition', (from, to) => {
    expect(isAllowedTransition(from, to)).toBe(false);
    let thrown: unknown;
    try {
      assertTransition(from, to);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApplicationFailure);
    expect((thrown as ApplicationFailure).type).toBe('IllegalTransition');
    expect((thrown as ApplicationFailure).nonRetryable).toBe(true);
  });

  it('reaches DELIVER only through VALIDATE_OUTPUT', () => {
    for (const from of ANALYSIS_STATES) {
      if (from !== 'VALIDATE_OUTPUT') expect(isAllowedTransition(from, 'DELIVER')).toBe(false);
    }
    const m = new AnalysisStateMachine();
    expect(() => m.moveTo('DELIVER')).toThrow(/Illegal transition RECEIVE_TASK → DELIVER/);
    m.moveTo('PLAN');
    m.moveTo('EXECUTE_STEP');
    m.moveTo('EXECUTE_STEP');
    m.moveTo('VALIDATE_OUTPUT');
    m.moveTo('DELIVER');
    expect(m.trail).toEqual([
      'RECEIVE_TASK',
      'PLAN',
      'EXECUTE_STEP',
      'EXECUTE_STEP',
      'VALIDATE_OUTPUT',
      'DELIVER',
    ]);
    expect(() => m.moveTo('HUMAN_REVIEW')).toThrow(/terminal/);
  });
});
