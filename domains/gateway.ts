import { createGatewayActivities } from '../activities/gateway';
import { createIdentityActivities } from '../activities/identity';
import { decisionSecret } from '../activities/identity/decision-secret';
import { writeAppliedAnnouncer } from '../activities/agent-runs/register';
import { withWriteAppliedEvent } from '../activities/events/write-applied';
import { domainTaskQueue } from '../workflows/task-queue';
import type { DomainModule } from './domain';

/**
 * The write gateway (SPEC Part B): one workflow per submission, its evaluate/apply
 * activities, and the approvers' decision-proof check. An applied write is announced as a
 * `write.applied` event on the events queue (downstream rules).
 */
export const gatewayDomain: DomainModule = {
  domain: 'gateway',
  taskQueue: (base) => domainTaskQueue(base, 'gateway'),
  workflows: ['gatewayWorkflow'],
  cacheWeight: 2,
  activities: async ({ cfg, database, client, baseQueue, agentRuntime }) => {
    const gateway = createGatewayActivities({
      db: database.db,
      retry: {
        budgetMs: cfg.DB_RETRY_BUDGET_MS,
        maximumIntervalMs: cfg.DB_RETRY_MAX_INTERVAL_MS,
      },
      historyEventsPerRun: cfg.GATEWAY_HISTORY_EVENTS_PER_RUN,
    });
    return {
      ...gateway,
      gatewayApply: withWriteAppliedEvent(
        gateway.gatewayApply,
        database.db,
        writeAppliedAnnouncer({
          db: database.db,
          client,
          taskQueue: baseQueue,
          options: agentRuntime,
        }),
      ),
      ...createIdentityActivities({ secret: decisionSecret(cfg), db: database.db }),
    };
  },
};
