// The errors an agent run throws or catches itself, and how a failure reads in its records
// (the application failure's message, not the activity or child wrapper's).
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure } from '@temporalio/workflow';

/** A request the loop defences refuse (a callback re-run delegating again). */
export class RequestRefused extends Error {
  override readonly name = 'RequestRefused';
}

/** A model call that cannot happen honestly (no key, a budget): a person takes the work. */
export class NeedsHuman extends Error {
  override readonly name = 'NeedsHuman';
}
/** A tool outside the agent's allow-list. */
export class ToolRefused extends Error {
  override readonly name = 'ToolRefused';
}

export const messageOf = (err: unknown): string => {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure)
    return err.cause.message;
  if (err instanceof ChildWorkflowFailure && err.cause instanceof ApplicationFailure)
    return `${err.cause.type ?? 'failure'}: ${err.cause.message}`;
  return err instanceof Error ? err.message : String(err);
};
