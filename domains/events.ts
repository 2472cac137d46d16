import { domainTaskQueue } from '../workflows/task-queue';
import type { DomainModule } from './domain';

/**
 * Events (SPEC Part B intake): the event workflow (dedup, dispatch to subscribed agents,
 * retries, expiry), schedule firings, and the emitters the platform and agents use. At start
 * it makes the agents' Temporal Schedules match their files.
 */
export const eventsDomain: DomainModule = {
  domain: 'events',
  taskQueue: (base) => domainTaskQueue(base, 'events'),
  workflows: ['eventWorkflow', 'scheduledEventWorkflow'],
  cacheWeight: 4,
  activities: async (ctx) => {
    const runtime = await ctx.loadAgentRuntime();
    await runtime.syncSchedules();
    return runtime.eventsActivities;
  },
};
