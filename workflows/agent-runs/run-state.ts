// The state of one agent run, in one object: who the run is (fixed at its start) and what it
// has done so far (counters, progress, submissions, held slots, its result). Every phase of
// workflow.ts takes it; handlers and closures read its fields live, never a copy.
import { workflowInfo } from '@temporalio/workflow';
import { isCallbackTrigger } from '../requests/loop-defences';
import type {
  AgentRunInput,
  AgentRunResult,
  AgentRunState,
  AgentSnapshot,
  AgentTrigger,
  RunLimits,
  SubmissionLink,
} from './contract';

/** A gateway submission the run started; `done` settles when the gateway decides it. */
export interface PendingWrite {
  link: SubmissionLink;
  lane: string;
  done: Promise<void>;
}

/** A slot the run has asked for (and may hold), named by its acquisition's request id. */
export interface HeldSlot {
  scope: string;
  requestId: string;
}

/** One agent run. (`AgentRunState`, in contract.ts, is the name of its lifecycle state.) */
export interface AgentRun {
  /** The run's workflow id. */
  readonly runId: string;
  readonly input: AgentRunInput;
  readonly orgId: string;
  readonly agent: AgentSnapshot;
  readonly trigger: AgentTrigger;
  readonly limits: RunLimits;
  /** A run triggered by a request's callback gets one chance: never retried, never delegating. */
  readonly callbackRun: boolean;

  state: AgentRunState;
  /** Set once, when the run finishes. */
  result: AgentRunResult | null;
  /** The progress log's messages, in order. */
  readonly progress: string[];
  /** Gateway submissions started by the submit tool, in order. */
  readonly submissions: PendingWrite[];

  /** Sequence numbers of the stored state transitions and progress lines. */
  transitionSeq: number;
  progressSeq: number;
  /** Tool calls that returned (the result's toolCalls). */
  toolCalls: number;
  /** Model calls made (each names its call id). */
  modelCalls: number;
  /** Write submissions tried (each names its idempotency key). */
  writeCalls: number;
  /** Requests created (each names its request id). */
  requestCalls: number;

  /** Slot acquisitions tried (each names its request id). */
  slotAcquisitions: number;
  /** Request ids of the slots granted so far (slotGrantedSignal). */
  readonly grantedSlots: Set<string>;
  /** Slots asked for and not yet released, in the order they were asked for. */
  readonly heldSlots: HeldSlot[];
}

/** A run as it starts: pending, nothing done yet. */
export function newAgentRun(input: AgentRunInput): AgentRun {
  const runId = workflowInfo().workflowId;
  const { orgId, agent, trigger, limits } = input;
  return {
    runId,
    input,
    orgId,
    agent,
    trigger,
    limits,
    callbackRun: isCallbackTrigger(trigger),
    state: 'pending',
    result: null,
    progress: [],
    submissions: [],
    transitionSeq: 0,
    progressSeq: 0,
    toolCalls: 0,
    modelCalls: 0,
    writeCalls: 0,
    requestCalls: 0,
    slotAcquisitions: 0,
    grantedSlots: new Set<string>(),
    heldSlots: [],
  };
}
