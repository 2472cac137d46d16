import type { AgentHandler } from './context';

/** An agent type's code or hybrid handler; undefined for a type that has none. */
export type AgentHandlerLookup = (agentType: string) => AgentHandler | undefined;

let lookup: AgentHandlerLookup | undefined;

/**
 * Where the agent run workflow finds an agent's handler. The handlers are the agents' own
 * (agents/handlers.ts, a layer above this one), so the workflow bundle's entry
 * (workflow-bundle.ts) installs their lookup here when it is loaded. A run loads the entry,
 * and so this module, in its own module cache (workflows/index.ts): every run, and every
 * replay of it, installs the same lookup before its workflow function is called.
 */
export function installAgentHandlers(handlers: AgentHandlerLookup): void {
  lookup = handlers;
}

/**
 * The handler of an agent type, undefined if it has none. Throws when nothing was installed:
 * the bundle was built from workflows/ instead of workflow-bundle.ts (a build mistake, which
 * the run's error names, not an agent without a handler).
 */
export function agentHandler(agentType: string): AgentHandler | undefined {
  if (!lookup)
    throw new Error(
      'No agent handlers installed: bundle the workflows from workflow-bundle.ts, not workflows/',
    );
  return lookup(agentType);
}
