/**
 * The event outbox dispatcher's wire names and sizes: the workflow, the schedule that fires
 * it, and the activity share them (pure, no workflow APIs).
 */
export const OUTBOX_DISPATCH_WORKFLOW = 'outboxDispatchWorkflow';
/** A row the in-line hand-over has not reached within this time is the dispatcher's. */
export const OUTBOX_GRACE_MS = 20_000;
export const OUTBOX_BATCH = 500;

/** One schedule per deployment (base task queue); its firings never overlap. */
export function outboxScheduleId(taskQueue: string): string {
  return `event-outbox:${taskQueue}`;
}
