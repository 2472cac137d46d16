import { domainTaskQueue } from '../workflows/task-queue';
import { outboxDispatcher } from './agent-runtime';
import { createOutboxActivities, ensureOutboxSchedule } from '../activities/events/outbox';
import type { DomainModule } from './domain';

/**
 * Events (SPEC Part B intake): the event workflow (dedup, dispatch to subscribed agents,
 * retries, expiry), schedule firings, the emitters the platform and agents use, and the
 * outbox dispatcher. At start it makes the agents' Temporal Schedules match their files and
 * ensures the dispatcher's Schedule.
 */
export const eventsDomain: DomainModule = {
  domain: 'events',
  taskQueue: (base) => domainTaskQueue(base, 'events'),
  workflows: ['eventWorkflow', 'scheduledEventWorkflow', 'outboxDispatchWorkflow'],
  cacheWeight: 4,
  activities: async (ctx) => {
    const runtime = await ctx.loadAgentRuntime();
    await runtime.syncSchedules();
    // The outbox dispatcher: events of applied writes that nobody handed over get started.
    await ensureOutboxSchedule(ctx.client, ctx.baseQueue);
    return {
      ...runtime.eventsActivities,
      ...createOutboxActivities(
        outboxDispatcher({
          db: ctx.database.db,
          client: ctx.client,
          taskQueue: ctx.baseQueue,
          options: ctx.agentRuntime,
        }),
      ),
    };
  },
};
