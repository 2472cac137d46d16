import { createGatewayActivities } from '../activities/gateway';
import { createIdentityActivities } from '../activities/identity';
import { decisionSecret } from '../activities/identity/decision-secret';
import { outboxHandOver } from './agent-runtime';
import { withWriteAppliedEvent } from '../activities/events/write-applied';
import { domainTaskQueue } from '../workflows/task-queue';
import { createAuditActivities, ensureAuditAnchorSchedule } from '../activities/audit';
import { auditAnchorSecret } from '../activities/audit/anchors';
import type { DomainModule } from './domain';

/**
 * The write gateway (SPEC Part B): one workflow per submission, its evaluate/apply
 * activities, and the approvers' decision-proof check. An applied write is announced as a
 * `write.applied` event on the events queue (downstream rules). It also records the signed
 * audit anchors (activities/audit).
 */
export const gatewayDomain: DomainModule = {
  domain: 'gateway',
  taskQueue: (base) => domainTaskQueue(base, 'gateway'),
  workflows: ['gatewayWorkflow', 'auditAnchorWorkflow'],
  cacheWeight: 2,
  activities: async ({ cfg, database, client, baseQueue, agentRuntime }) => {
    // Every org's signed chain head, appended to the anchors file on a Schedule.
    await ensureAuditAnchorSchedule(client, baseQueue, cfg.AUDIT_ANCHOR_EVERY_MINUTES);
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
        outboxHandOver({
          db: database.db,
          client,
          taskQueue: baseQueue,
          options: agentRuntime,
        }),
      ),
      ...createIdentityActivities({ secret: decisionSecret(cfg), db: database.db }),
      ...createAuditActivities({
        db: database.db,
        secret: auditAnchorSecret(cfg),
        file: cfg.AUDIT_ANCHORS_FILE,
      }),
    };
  },
};
