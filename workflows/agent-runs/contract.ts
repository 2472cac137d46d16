import { defineQuery, defineSignal } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../task-queue';
import type { AgentSnapshot } from './config';

export type { AgentSnapshot } from './config';

/**
 * The agent-runs domain's contract: the agent instance workflow and the slot (semaphore)
 * workflow — wire names, inputs, results, signals, queries, task queue and id builders.
 */
/** The domain's queue under the default base (clients take a base and derive it). */
export const AGENT_RUNS_TASK_QUEUE = domainTaskQueue(DEFAULT_TASK_QUEUE, 'agents');
export const AGENT_RUN_WORKFLOW = 'agentRunWorkflow';
export const SLOTS_WORKFLOW = 'slotsWorkflow';

export const AGENT_RUN_STATES = [
  'pending',
  'running',
  'completed',
  'failed',
  'cancelled',
  'timeout',
  'waiting_approval',
  'waiting_human',
] as const;
export type AgentRunState = (typeof AGENT_RUN_STATES)[number];

/**
 * What became of the work, beside the state: `needs_human` (no API key, a budget would be
 * passed — a person takes over), `expired` (no slot within the event's lifetime).
 */
export const AGENT_RUN_OUTCOMES = [
  'succeeded',
  'failed',
  'needs_human',
  'expired',
  'timeout',
  'cancelled',
  'rejected',
] as const;
export type AgentRunOutcome = (typeof AGENT_RUN_OUTCOMES)[number];

/** One instance per (org, agent, event, attempt): a retry is a new instance. */
export function agentRunWorkflowId(
  orgId: string,
  agentType: string,
  eventId: string,
  attempt: number,
): string {
  return `agent-run:${orgId}:${agentType}:${eventId}:${attempt}`;
}

export interface RunLimits {
  /** Concurrent runs of all agents in one org. */
  orgMaxConcurrentRuns: number;
  /** Concurrent model calls across the whole platform. */
  globalLlmConcurrency: number;
  /** Whether a model can be called at all (an API key is configured). */
  llmAvailable: boolean;
  /** The member of the org whose agents' writes are submitted under (null: none set). */
  operatorUserId: string | null;
}

export interface AgentTrigger {
  eventId: string;
  eventType: string;
  source: string;
  payload: Record<string, unknown>;
  /** Hop count of the event (0 when no agent caused it). */
  hop: number;
}

export interface AgentRunInput {
  orgId: string;
  attempt: number;
  agent: AgentSnapshot;
  trigger: AgentTrigger;
  limits: RunLimits;
  /** Epoch ms after which a run still waiting for a slot gives up (the event expires). */
  slotDeadlineMs: number;
}

export interface SubmissionLink {
  submissionId: string;
  kind: string;
  outcome: string | null;
}

export interface AgentRunResult {
  runId: string;
  state: AgentRunState;
  outcome: AgentRunOutcome;
  reason: string | null;
  output: unknown;
  submissions: SubmissionLink[];
  toolCalls: number;
  /** A failure worth retrying (false for needs_human, expired, cancelled, refused writes). */
  retryable: boolean;
}

export interface AgentRunView {
  runId: string;
  orgId: string;
  agentType: string;
  state: AgentRunState;
  progress: string[];
  submissions: SubmissionLink[];
  result: AgentRunResult | null;
}
export const agentRunStateQuery = defineQuery<AgentRunView>('agentRunStateQuery');

// ---- slots: a durable counting semaphore per scope -------------------------------------

/**
 * Scopes: `llm` (global model calls), `org:<org>`, `agent:<org>:<type>`. A semaphore serves
 * the runs of one deployment, and its id names that deployment's base task queue: deployments
 * sharing a namespace (or test workers on their own queues) never wait on each other's slots.
 */
export function slotsWorkflowId(baseQueue: string, scope: string): string {
  return `slots:${baseQueue}:${scope}`;
}
export interface SlotRequest {
  /** The deployment's base task queue (the semaphore's id and queue derive from it). */
  taskQueue: string;
  /** Workflow id that receives slotGrantedSignal. */
  holder: string;
  /** Unique per acquisition; releasing names it. */
  requestId: string;
  capacity: number;
}
export interface SlotsInput {
  scope: string;
  capacity: number;
  holders?: SlotRequest[];
  queue?: SlotRequest[];
  maxHeld?: number;
  granted?: number;
}
export interface SlotsView {
  scope: string;
  capacity: number;
  held: number;
  waiting: number;
  maxHeld: number;
  granted: number;
}
/** Signals, not updates: a grant or release is fire-and-forget and deduplicated by requestId. */
export const acquireSlotSignal = defineSignal<[SlotRequest]>('acquireSlotSignal');
export const releaseSlotSignal = defineSignal<[{ requestId: string }]>('releaseSlotSignal');
export const slotGrantedSignal = defineSignal<[{ requestId: string }]>('slotGrantedSignal');
export const slotsStateQuery = defineQuery<SlotsView>('slotsStateQuery');

export const CsAgentType = defineSearchAttributeKey('CsAgentType', SearchAttributeType.KEYWORD);
