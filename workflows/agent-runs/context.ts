import type { AgentTrigger } from './contract';
import type { ToolInput, ToolName, ToolOutput } from './tools';

/**
 * What a code or hybrid handler (agents/<type>/handler.ts) can do. The handler runs inside
 * the agent run workflow, so it must be deterministic; every side effect goes through this
 * context, which turns it into an activity (tools, model calls, progress) or a gateway
 * submission.
 */
export interface AgentContext {
  readonly runId: string;
  readonly orgId: string;
  readonly agentType: string;
  readonly trigger: AgentTrigger;
  readonly settings: Record<string, unknown>;
  /** Appends to the run's progress log. */
  log(message: string, data?: unknown): Promise<void>;
  /** Calls an allowed tool; a tool outside the allow-list throws ToolRefused. */
  tool<N extends ToolName>(name: N, input: ToolInput<N>): Promise<ToolOutput<N>>;
  /**
   * Hybrid mode: one model call for the fuzzy part. Without an API key, or when the call
   * would pass a budget, the run stops with `needs_human` (the call is never faked).
   */
  askModel(prompt: string, opts?: { maxTokens?: number }): Promise<string>;
}

export interface HandlerResult {
  status: 'succeeded' | 'failed' | 'needs_human';
  summary: string;
  data?: unknown;
}

export type AgentHandler = (ctx: AgentContext) => Promise<HandlerResult>;
