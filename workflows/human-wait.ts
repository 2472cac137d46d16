/**
 * Waiting for a person: the analysis review, the gateway approval and a request each wait
 * until someone decides, remind when the item falls due (once, or then every interval) and
 * give up when it expires. This is that wait's schedule, once: whether to keep waiting, how
 * long to sleep, and whether a reminder is due. Each caller runs it in the same loop,
 *
 *   const wait = humanWait({ settled, times, remind });
 *   while (wait.open()) {
 *     if (await wait.sleep()) break; // woken by settled() (or by alsoWakeWhen)
 *     if (wait.takeReminder()) { ...send the reminder... }
 *   }
 *
 * and keeps everything around it: opening and closing the item, its counters, what a
 * reminder sends, what expiry means.
 *
 * Why the loop stays with the caller: a run's update handlers interleave with the wait inside
 * one activation by microtask turns, so the order of their commands depends on how many
 * awaits lie between the wait's steps. A helper that awaited the caller's reminder (or was
 * itself awaited) would add turns and reorder commands that recorded histories hold. sleep()
 * returns condition()'s own promise, so `await wait.sleep()` is exactly `await condition(...)`.
 */
import { condition } from '@temporalio/workflow';

/** How often a person is reminded. */
export type ReminderCadence =
  /**
   * One reminder at dueAt, and only if dueAt is before expiresAt. `alreadySent`: the run this
   * one continues has sent it, so none is left.
   */
  | { once: true; alreadySent?: boolean }
  /** A reminder at dueAt, then every `everyMs` after it, for as long as the item is open. */
  | { everyMs: number };

export interface HumanWaitOptions {
  /** Whether the person has decided (or the item has closed otherwise). Read live. */
  settled: () => boolean;
  /**
   * When the item falls due and when it expires (epoch ms), read at every use: pass the run's
   * state when another part of the run owns these times. An `everyMs` cadence takes its first
   * reminder from dueAt as it is when the wait is created.
   */
  times: { readonly dueAt: number; readonly expiresAt: number };
  remind: ReminderCadence;
  /**
   * Something other than the person that also ends a sleep (the gateway's history limit).
   * sleep() then resolves true with the item unsettled: the caller checks settled() and
   * handles the rest.
   */
  alsoWakeWhen?: () => boolean;
}

export interface HumanWait {
  /** Keep waiting: not settled, and not yet expired. */
  open(): boolean;
  /**
   * One condition: until settled (or alsoWakeWhen), at most until the next reminder or the
   * expiry, whichever is first (`Math.max(1, wakeAt - Date.now())` ms). True when woken by the
   * predicate, false on the timeout. Returns condition()'s promise itself.
   */
  sleep(): Promise<boolean>;
  /** True when a reminder is due now (and the item has not expired); it then counts as sent. */
  takeReminder(): boolean;
  /** Whether a reminder has gone out (one carried over by `alreadySent` included). */
  readonly reminded: boolean;
}

export function humanWait(o: HumanWaitOptions): HumanWait {
  const { settled, times, remind, alsoWakeWhen } = o;
  let reminded = 'once' in remind && (remind.alreadySent ?? false);
  let nextEvery = times.dueAt; // the everyMs schedule
  /** When the next reminder is due; Infinity when none is left. */
  const nextReminder = (): number => {
    if ('everyMs' in remind) return nextEvery;
    return !reminded && times.dueAt < times.expiresAt ? times.dueAt : Infinity;
  };
  const woken = alsoWakeWhen ? () => settled() || alsoWakeWhen() : settled;
  return {
    open: () => !settled() && Date.now() < times.expiresAt,
    sleep: () =>
      condition(woken, Math.max(1, Math.min(nextReminder(), times.expiresAt) - Date.now())),
    takeReminder: () => {
      if (!(Date.now() >= nextReminder() && Date.now() < times.expiresAt)) return false;
      reminded = true;
      if ('everyMs' in remind) nextEvery += remind.everyMs;
      return true;
    },
    get reminded() {
      return reminded;
    },
  };
}
