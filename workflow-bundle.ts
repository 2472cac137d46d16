/* eslint-disable @typescript-eslint/no-require-imports -- lazy on purpose, see below */
import type * as Agents from './agents/handlers';
import { installAgentHandlers } from './workflows/agent-runs/handlers';

/**
 * The workflow bundle's entry (bundleWorkflowCode's workflowsPath): every workflow of
 * workflows/index.ts, and the agents' code and hybrid handlers installed for the agent run
 * workflow. It stands above both so that workflows/ imports nothing of agents/.
 *
 * Each run loads this module in its own module cache (workflows/index.ts), so the install
 * happens in every run, and in every replay of it, before the workflow function is called; it
 * issues no commands. agents/handlers.ts is required at the first lookup, i.e. when an agent
 * run reaches its handler, so a run of another type evaluates nothing of agents/.
 */
installAgentHandlers(
  (agentType) => (require('./agents/handlers') as typeof Agents).AGENT_HANDLERS[agentType],
);

export * from './workflows';
