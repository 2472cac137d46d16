/**
 * One idempotent database step of an event, made to outlast an outage: quick local retries
 * first (~45 s, the usual path), then the gateway's outage budget on the server, then
 * suspended until an operator's eventResumeUpdate. A typed refusal is a verdict: thrown.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  log,
  patched,
  setCurrentDetails,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import { CsState } from '../search-attributes';
import { EVENT_SUSPENDED } from './contract';
import { book, durableBook, settings, type EventsBook } from './activity-proxies';
import type { EventRun } from './run-state';

/** A refusal of ours (a verdict), as opposed to an outage that outlasted the retries. */
function isTypedRefusal(err: unknown): boolean {
  return (
    err instanceof ActivityFailure &&
    err.cause instanceof ApplicationFailure &&
    (NON_RETRYABLE_ERROR_TYPES as string[]).includes(err.cause.type ?? '')
  );
}

/** Every message down the cause chain: a timed-out retry budget carries the last failure. */
const chainOf = (err: unknown): string => {
  const out: string[] = [];
  for (let e: unknown = err; e instanceof Error && out.length < 5; e = e.cause)
    if (e.message && !out.includes(e.message)) out.push(e.message);
  return out.join(': ') || String(err);
};

/**
 * Runs the database step `name` (`call` on the activities it is given) until it succeeds or
 * is refused. Runs recorded before the budget existed fail as they did (no marker, no second
 * phase). The server-side steps are made once per run, and read live (a parallel step may
 * have made them).
 */
export async function durableStep<T>(
  run: EventRun,
  name: string,
  call: (b: EventsBook) => Promise<T>,
): Promise<T> {
  try {
    return await call(book);
  } catch (err) {
    if (isTypedRefusal(err) || !patched('event-outage-budget')) throw err;
  }
  run.durable ??= durableBook(await settings.eventRetrySettings());
  for (;;) {
    try {
      return await call(run.durable);
    } catch (err) {
      if (isTypedRefusal(err)) throw err;
      run.suspended = { step: name, error: chainOf(err).slice(0, 4000) };
      log.error('event database step outlasted its outage budget; waiting for resume', {
        eventId: run.eventId,
        step: name,
      });
      upsertSearchAttributes([{ key: CsState, value: EVENT_SUSPENDED }]);
      setCurrentDetails(
        `**${EVENT_SUSPENDED}** — ${run.envelope.type}: ${name} failed after the outage budget; send eventResumeUpdate`,
      );
      await condition(() => run.resumeRequested);
      run.resumeRequested = false;
      run.suspended = null;
      upsertSearchAttributes([{ key: CsState, value: run.state }]);
      setCurrentDetails(`**${run.state}** — ${run.envelope.type}: resumed ${name}`);
    }
  }
}
