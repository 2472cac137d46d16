/**
 * Agent schedules (config.yaml `schedules:`) as Temporal Schedules: ids, the firing
 * workflow's wire name and input. Pure: the sync (activities/events/schedules.ts) and the
 * firing workflow share it.
 */
export const SCHEDULED_EVENT_WORKFLOW = 'scheduledEventWorkflow';

/** The schedules of one deployment (task queue) share this prefix; the sync owns them. */
export function agentSchedulePrefix(taskQueue: string): string {
  return `agent-schedule:${taskQueue}:`;
}
export function agentScheduleId(taskQueue: string, agentType: string, id: string): string {
  return `${agentSchedulePrefix(taskQueue)}${agentType}:${id}`;
}

export interface ScheduledFiringInput {
  agentType: string;
  scheduleId: string;
  eventType: string;
  payload: Record<string, unknown>;
  /** Target orgs; null: every organization. */
  orgs: string[] | null;
}
