import { domainTaskQueue } from '../workflows/task-queue';
import type { DomainModule } from './domain';

/**
 * Agent runs: one workflow per agent instance (slots, code/llm/hybrid execution, tools,
 * model calls, writes through the gateway). The concurrency semaphores (slotsWorkflow) run on
 * `<base>-slots`, served by a slot worker in every process that runs this domain.
 */
export const agentsDomain: DomainModule = {
  domain: 'agents',
  taskQueue: (base) => domainTaskQueue(base, 'agents'),
  workflows: ['agentRunWorkflow'],
  cacheWeight: 4,
  activities: async (ctx) => (await ctx.loadAgentRuntime()).runsActivities,
};
