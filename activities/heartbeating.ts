import { Context } from '@temporalio/activity';

/**
 * Heartbeats every `everyMs` while `fn` runs, so when the worker running it dies the server
 * hands the activity to another worker after the heartbeat timeout (seconds) instead of its
 * whole start-to-close timeout. Only for work that leaves the event loop free (database
 * calls, network waits, a worker thread); outside an activity it just runs `fn`.
 */
export async function heartbeating<T>(fn: () => Promise<T>, everyMs = 1000): Promise<T> {
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    return fn(); // called outside an activity (a script or a unit test)
  }
  // A local activity has no heartbeat: its worker's workflow task stands for it.
  if (ctx.info.isLocal) return fn();
  ctx.heartbeat();
  const timer = setInterval(() => ctx?.heartbeat(), everyMs);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}
