import type { AgentTrigger } from './contract';
import type { CreateRequestInput } from '../requests/contract';
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
  /**
   * Whether a model can be called at all in this run (an API key is configured), known
   * without spending anything: a hybrid handler is plain code when it is false. A call can
   * still be refused by a budget (see consultModel).
   */
  readonly modelAvailable: boolean;
  /** Appends to the run's progress log. */
  log(message: string, data?: unknown): Promise<void>;
  /** Calls an allowed tool; a tool outside the allow-list throws ToolRefused. */
  tool<N extends ToolName>(name: N, input: ToolInput<N>): Promise<ToolOutput<N>>;
  /**
   * Hybrid mode: one model call for the fuzzy part. Without an API key, or when the call
   * would pass a budget, the run stops with `needs_human` (the call is never faked).
   */
  askModel(prompt: string, opts?: { maxTokens?: number }): Promise<string>;
  /**
   * Hybrid mode, for a second opinion the handler can do without: one model call whose
   * failure does not end the run. Without a key, when a budget would be passed (checked
   * before the call, nothing is spent), or when the call fails after its retries, it returns
   * `unavailable` with the reason and the handler carries on as code (e.g. asks a person).
   */
  consultModel(prompt: string, opts?: { maxTokens?: number }): Promise<ModelConsultation>;
  /**
   * Asks a person (or delegates to another agent) through a human request; returns its id.
   * orgId and createdBy are the run's own. Then end the run with `waiting_human`: the
   * request's completion emits request.completed, and the agent's run for that event (its
   * trigger payload names the request and this run) resumes the work. Loop defences apply:
   * a run triggered by a callback may not delegate again (RequestRefused), and a delegation
   * past the hop cap goes to a person instead.
   */
  request(
    input: AgentRequestInput,
  ): Promise<{ requestId: string; deduplicated: boolean; to: 'agent' | 'human' }>;
}

/** A model's reply text, or why there is none (never a made-up answer). */
export type ModelConsultation =
  { status: 'ok'; text: string } | { status: 'unavailable'; reason: string };

/** A request as an agent creates it: the run fills in the org, creator and hop count. */
export type AgentRequestInput = Omit<
  CreateRequestInput,
  'orgId' | 'createdBy' | 'hop' | 'requestId'
>;

export interface HandlerResult {
  /** waiting_human: the run asked through ctx.request and ends until the callback event. */
  status: 'succeeded' | 'failed' | 'needs_human' | 'waiting_human';
  summary: string;
  data?: unknown;
}

export type AgentHandler = (ctx: AgentContext) => Promise<HandlerResult>;
