import {
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  acquireSlotSignal,
  releaseSlotSignal,
  slotGrantedSignal,
  slotsStateQuery,
  type SlotRequest,
  type SlotsInput,
  type SlotsView,
} from './contract';

// Long bursts would grow history without bound: hand the state to a fresh run well before
// the 10,240-event warning.
const CONTINUE_AS_NEW_AFTER_EVENTS = 4_000;
// An idle semaphore closes; the next acquisition's signalWithStart opens a new one.
const IDLE_CLOSE_MS = 10 * 60 * 1000;

/**
 * A durable counting semaphore for one scope (global model calls, one org, one agent in one
 * org). Requests queue first-in first-out and wait as long as they must — nothing is dropped;
 * a grant is a signal to the waiting workflow. Releasing an unknown or queued request is a
 * no-op or a withdrawal, so duplicated signals change nothing.
 */
export async function slotsWorkflow(input: SlotsInput): Promise<void> {
  let capacity = input.capacity;
  const holders = new Map<string, SlotRequest>((input.holders ?? []).map((h) => [h.requestId, h]));
  const queue: SlotRequest[] = [...(input.queue ?? [])];
  let maxHeld = input.maxHeld ?? holders.size;
  let granted = input.granted ?? 0;

  setHandler(acquireSlotSignal, (req) => {
    if (holders.has(req.requestId) || queue.some((q) => q.requestId === req.requestId)) return;
    capacity = Math.max(1, req.capacity);
    queue.push(req);
  });
  setHandler(releaseSlotSignal, ({ requestId }) => {
    holders.delete(requestId);
    const i = queue.findIndex((q) => q.requestId === requestId);
    if (i >= 0) queue.splice(i, 1);
  });
  setHandler(slotsStateQuery, (): SlotsView => ({
    scope: input.scope,
    capacity,
    held: holders.size,
    waiting: queue.length,
    maxHeld,
    granted,
  }));

  const grantable = () => queue.length > 0 && holders.size < capacity;
  for (;;) {
    const wake = () => grantable() || workflowInfo().historyLength > CONTINUE_AS_NEW_AFTER_EVENTS;
    const woke =
      holders.size === 0 && queue.length === 0
        ? await condition(wake, IDLE_CLOSE_MS)
        : (await condition(wake), true);
    if (!woke && holders.size === 0 && queue.length === 0) {
      await condition(allHandlersFinished);
      return;
    }
    const grants: SlotRequest[] = [];
    while (grantable()) {
      const next = queue.shift() as SlotRequest;
      holders.set(next.requestId, next);
      grants.push(next);
    }
    maxHeld = Math.max(maxHeld, holders.size);
    granted += grants.length;
    await Promise.all(
      grants.map(async (g) => {
        try {
          await getExternalWorkflowHandle(g.holder).signal(slotGrantedSignal, {
            requestId: g.requestId,
          });
        } catch (err) {
          // The holder is gone (terminated, finished): its slot must not leak.
          log.warn('slot holder unreachable; slot reclaimed', {
            scope: input.scope,
            holder: g.holder,
            error: err instanceof Error ? err.message : String(err),
          });
          holders.delete(g.requestId);
        }
      }),
    );
    if (workflowInfo().historyLength > CONTINUE_AS_NEW_AFTER_EVENTS) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof slotsWorkflow>({
        scope: input.scope,
        capacity,
        holders: [...holders.values()],
        queue,
        maxHeld,
        granted,
      });
    }
  }
}
