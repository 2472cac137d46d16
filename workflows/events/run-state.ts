/**
 * The state of one event run, in one object: its input (fixed) and what it has done so far
 * (state, transition numbers, attempts, agent runs, a suspension). The phases write it; the
 * handlers read it live, so the state query and the resume update always see the latest.
 */
import type {
  EventEnvelope,
  EventResult,
  EventRunSummary,
  EventState,
  EventStateView,
  EventWorkflowInput,
} from './contract';
import type { EventsBook } from './activity-proxies';

/** One event run. (`EventState`, in contract.ts, is the name of its lifecycle state.) */
export interface EventRun {
  readonly input: EventWorkflowInput;
  readonly envelope: EventEnvelope;
  readonly eventId: string;

  state: EventState;
  /** Sequence number of the last stored transition (the accepted row carries 1). */
  seq: number;
  /** The attempt in progress (0 until the agents are first started). */
  attempts: number;
  /** Every agent run so far: attempt by attempt, each in the plan's agent order. */
  readonly runs: EventRunSummary[];

  /** A database step that outlasted the outage budget, waiting for an operator. */
  suspended: { step: string; error: string } | null;
  /** Set by eventResumeUpdate; the suspended step clears it when it runs again. */
  resumeRequested: boolean;
  /** The server-side steps, made once the outage budget has been read. */
  durable: EventsBook | undefined;
}

/** An event run as it starts: pending, nothing recorded yet. */
export function newEventRun(input: EventWorkflowInput): EventRun {
  const { envelope, eventId } = input;
  return {
    input,
    envelope,
    eventId,
    state: 'pending',
    seq: 0,
    attempts: 0,
    runs: [],
    suspended: null,
    resumeRequested: false,
    durable: undefined,
  };
}

/** What the state query shows, read now. */
export function eventView(run: EventRun): EventStateView {
  return {
    eventId: run.eventId,
    state: run.state,
    attempts: run.attempts,
    runs: [...run.runs],
    suspended: run.suspended,
  };
}

/** The workflow's result in its current state, with why it ended there. */
export function eventResult(run: EventRun, detail: string | null): EventResult {
  return {
    eventId: run.eventId,
    state: run.state,
    attempts: run.attempts,
    runs: [...run.runs],
    detail,
  };
}
