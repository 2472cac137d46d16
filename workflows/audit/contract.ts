/** The audit anchor recorder's wire names (pure: the schedule, workflow and activity share them). */
export const AUDIT_ANCHOR_WORKFLOW = 'auditAnchorWorkflow';

/** One schedule per deployment (base task queue). */
export function auditAnchorScheduleId(taskQueue: string): string {
  return `audit-anchor:${taskQueue}`;
}
