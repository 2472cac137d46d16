import { type Client, ScheduleAlreadyRunning, ScheduleOverlapPolicy } from '@temporalio/client';
import type { Db } from '../../db/connection';
import { organizations } from '../../db/schema';
import type { RequestsEntryPoint } from '../../workflows/requests/entry-point';
import {
  DELEGATION_WATCH_WORKFLOW,
  type WatchActivities,
  type WatchOrgReport,
} from '../../workflows/requests/watch';
import { closeForgottenDelegations, reescalateLostDelegations } from './delegation-watch';
import { domainTaskQueue } from '../../workflows/task-queue';

/** The delegation watch's activities: the orgs to scan, and both scans of one org. */
export function createWatchActivities(deps: {
  db: Db;
  requests: RequestsEntryPoint;
}): WatchActivities {
  return {
    async requestsWatchOrgs() {
      const rows = await deps.db.select({ id: organizations.id }).from(organizations);
      return rows.map((r) => r.id).sort();
    },
    async requestsWatchOrg(orgId: string): Promise<WatchOrgReport> {
      const reescalated = await reescalateLostDelegations(deps, orgId);
      const closed = await closeForgottenDelegations(deps, orgId);
      return { orgId, reescalated, closed };
    },
  };
}

export const delegationWatchScheduleId = (taskQueue: string) =>
  `countersign:delegation-watch:${taskQueue}`;

/**
 * Makes sure the delegation watch runs: a Temporal Schedule firing delegationWatchWorkflow on
 * the requests queue of this base queue every `everyMinutes` (created at worker start; left
 * alone when it already exists with the same interval and queue, recreated when either
 * changed). Overlapping passes are skipped, not queued.
 */
export async function syncDelegationWatchSchedule(
  client: Client,
  taskQueue: string,
  everyMinutes: number,
): Promise<'created' | 'unchanged' | 'updated'> {
  const scheduleId = delegationWatchScheduleId(taskQueue);
  const options = {
    scheduleId,
    spec: { intervals: [{ every: everyMinutes * 60_000 }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: DELEGATION_WATCH_WORKFLOW,
      workflowId: `delegation-watch:${taskQueue}`,
      // The watch is the requests domain's workflow.
      taskQueue: domainTaskQueue(taskQueue, 'requests'),
      args: [] as never,
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP },
    memo: { everyMinutes: String(everyMinutes), taskQueue: domainTaskQueue(taskQueue, 'requests') },
  };
  try {
    await client.schedule.create(options);
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  const handle = client.schedule.getHandle(scheduleId);
  const desc = await handle.describe();
  const memo = desc.memo as { everyMinutes?: string; taskQueue?: string } | undefined;
  // A schedule from before the split into domains (no queue in its memo) is recreated.
  if (memo?.everyMinutes === options.memo.everyMinutes && memo.taskQueue === options.memo.taskQueue)
    return 'unchanged';
  await handle.delete();
  await client.schedule.create(options);
  return 'updated';
}
