import { registerRequests } from './requests-runtime';
import { syncDelegationWatchSchedule } from '../activities/requests/watch';
import { domainTaskQueue } from '../workflows/task-queue';
import type { DomainModule } from './domain';

/**
 * Human requests: the request workflow (assignment, reminders, answers, delegation), the
 * inbox entries gateway approvals and analysis reviews open, and the delegation watch (a
 * Temporal Schedule on this queue, synced at start unless DELEGATION_WATCH_MINUTES is 0).
 */
export const requestsDomain: DomainModule = {
  domain: 'requests',
  taskQueue: (base) => domainTaskQueue(base, 'requests'),
  workflows: ['requestWorkflow', 'delegationWatchWorkflow'],
  cacheWeight: 1,
  activities: async ({ cfg, database, client, baseQueue, requests }) => {
    if (cfg.DELEGATION_WATCH_MINUTES > 0)
      await syncDelegationWatchSchedule(client, baseQueue, cfg.DELEGATION_WATCH_MINUTES);
    return registerRequests({
      cfg,
      db: database.db,
      client,
      taskQueue: baseQueue,
      options: requests,
    });
  },
};
