import { heartbeating } from '../heartbeating';
import { createHash } from 'node:crypto';
import type Anthropic from '@anthropic-ai/sdk';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import {
  appendRunProgress,
  insertRun,
  linkRunSubmission,
  recordRunTransition,
} from '../../db/repositories/agent-runs';
import type { AnalysisEntryPoint } from '../../workflows/analysis/entry-point';
import { dryRunWrite } from '../gateway/evaluate';
import { ErrorType, permanentFailure } from '../../workflows/errors';
import {
  SLOTS_WORKFLOW,
  acquireSlotSignal,
  slotsWorkflowId,
  type AgentRunState,
  type AgentTrigger,
  type SlotRequest,
} from '../../workflows/agent-runs/contract';
import { slotsTaskQueue } from '../../workflows/task-queue';
import {
  TOOL_DEFINITIONS,
  type AgentDryRun,
  type MemoryToolName,
  type ReadToolName,
  type ToolInput,
  type ToolOutput,
} from '../../workflows/agent-runs/tools';
import { READ_TOOLS } from './tools/read-tools';
import { MEMORY_TOOLS } from './tools/bank-tools';
import { callModel, type CallModelInput, type CallModelResult } from './model';
import type { PriceTable } from './pricing';

export interface AgentRunsDeps {
  db: Db;
  client: Client;
  /** The task queue the runtime's workflows run on (slots). */
  taskQueue: string;
  /** The analysis domain's entry point (AnalysisClient, injected by domains/agent-runtime.ts). */
  analysis: AnalysisEntryPoint;
  anthropic: Anthropic | null;
  prices: PriceTable;
  prompts: ReadonlyMap<string, string>;
  defaultOrgMonthlyBudgetMicroUsd: bigint | null;
  /** How long analyze_document waits for the analysis to settle (delivered or in review). */
  analysisSettleMs?: number;
}

/** The agent-runs domain's activities: run bookkeeping, slots, tools, model calls. */
export function createAgentRunsActivities(deps: AgentRunsDeps) {
  const { db } = deps;
  return {
    /** Stores the instance (pending) with its trigger; idempotent on the run id. */
    async agentRunRecord(r: {
      runId: string;
      orgId: string;
      agentType: string;
      eventId: string;
      attempt: number;
      executionMode: string;
      trigger: AgentTrigger;
      createdAtMs: number;
    }): Promise<void> {
      await insertRun(db, {
        id: r.runId,
        orgId: r.orgId,
        agentType: r.agentType,
        eventId: r.eventId,
        attempt: r.attempt,
        executionMode: r.executionMode,
        trigger: r.trigger,
        createdAt: new Date(r.createdAtMs),
      });
    },

    /** Records a state change with its time (and the outcome when terminal). */
    async agentRunTransition(t: {
      orgId: string;
      runId: string;
      seq: number;
      state: AgentRunState;
      detail: string | null;
      atMs: number;
      outcome?: string;
      reason?: string | null;
      output?: unknown;
    }): Promise<void> {
      const { atMs, ...rest } = t;
      await recordRunTransition(db, { ...rest, at: new Date(atMs) });
    },

    /** Appends one line to the run's progress log. */
    async agentRunProgress(p: {
      orgId: string;
      runId: string;
      seq: number;
      message: string;
      data: unknown;
      atMs: number;
    }): Promise<void> {
      await appendRunProgress(db, {
        orgId: p.orgId,
        runId: p.runId,
        seq: p.seq,
        message: p.message,
        data: p.data,
        at: new Date(p.atMs),
      });
    },

    /** Links a gateway submission to the run (the submission's submitter names the run). */
    async agentLinkSubmission(l: {
      orgId: string;
      runId: string;
      submissionId: string;
      kind: string;
      outcome: string | null;
      atMs: number;
    }): Promise<void> {
      await linkRunSubmission(db, { ...l, at: new Date(l.atMs) });
    },

    /** Queues a slot request at the scope's semaphore, starting it if it is not running. */
    async agentRequestSlot(r: { scope: string; request: SlotRequest }): Promise<void> {
      await deps.client.workflow.signalWithStart(SLOTS_WORKFLOW, {
        workflowId: slotsWorkflowId(r.request.taskQueue, r.scope),
        taskQueue: slotsTaskQueue(r.request.taskQueue),
        args: [{ scope: r.scope, capacity: r.request.capacity }],
        signal: acquireSlotSignal,
        signalArgs: [r.request],
      });
    },

    /** One read tool, input and output validated against the registry's schemas. */
    async agentReadTool(c: {
      orgId: string;
      name: ReadToolName;
      input: unknown;
    }): Promise<unknown> {
      const def = TOOL_DEFINITIONS[c.name];
      const impl = READ_TOOLS[c.name] as (db: Db, orgId: string, i: unknown) => Promise<unknown>;
      if (!impl || def.kind !== 'read')
        throw permanentFailure(ErrorType.UnknownTool, `unknown read tool ${c.name}`);
      const input = def.input.safeParse(c.input);
      if (!input.success)
        throw permanentFailure(
          ErrorType.InvalidToolInput,
          `${c.name}: ${input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      const out = def.output.safeParse(await heartbeating(() => impl(db, c.orgId, input.data)));
      if (!out.success)
        throw permanentFailure(
          ErrorType.InvalidToolOutput,
          `${c.name}: ${out.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      return out.data;
    },

    /** A memory tool (the agent's own durable state, never the books), keyed by the run. */
    async agentMemoryTool(c: {
      orgId: string;
      runId: string;
      name: MemoryToolName;
      input: unknown;
    }): Promise<unknown> {
      const def = TOOL_DEFINITIONS[c.name];
      const impl = MEMORY_TOOLS[c.name] as
        ((db: Db, orgId: string, runId: string, i: unknown) => Promise<unknown>) | undefined;
      if (!impl || def.kind !== 'memory')
        throw permanentFailure(ErrorType.UnknownTool, `unknown memory tool ${c.name}`);
      const input = def.input.safeParse(c.input);
      if (!input.success)
        throw permanentFailure(
          ErrorType.InvalidToolInput,
          `${c.name}: ${input.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        );
      return def.output.parse(await impl(db, c.orgId, c.runId, input.data));
    },

    /**
     * The gateway's dry run of an agent's write: refusal (with its issue paths) or its lane,
     * and for a batch kind the keys of the parts that would go to their own submissions.
     */
    async agentDryRunWrite(c: { write: unknown }): Promise<AgentDryRun> {
      const r = await dryRunWrite(db, c.write);
      if (!r.valid || !r.lane)
        return {
          ok: false,
          lane: 'none',
          detail: r.refusal ? `${r.refusal.type}: ${r.refusal.message}` : 'refused',
          ...(r.refusal?.issues.length ? { issues: r.refusal.issues } : {}),
        };
      return {
        ok: true,
        lane: r.lane,
        detail: null,
        ...(r.splitOut ? { splitOut: r.splitOut } : {}),
      };
    },

    /**
     * analyze_document: starts the cited analysis pipeline for one question (request id from
     * the run and call, so a retry joins the same analysis) and waits until it is delivered
     * or waiting for a reviewer.
     */
    async agentAnalyzeDocument(c: {
      orgId: string;
      runId: string;
      callSeq: number;
      input: ToolInput<'analyze_document'>;
    }): Promise<ToolOutput<'analyze_document'>> {
      return heartbeating(() => analyzeDocument(c));
    },

    /** One model call with its budget checked first (see model.ts). */
    async agentCallModel(input: CallModelInput): Promise<CallModelResult> {
      return heartbeating(() => callModel(deps, input));
    },
  };

  async function analyzeDocument(c: {
    orgId: string;
    runId: string;
    callSeq: number;
    input: ToolInput<'analyze_document'>;
  }): Promise<ToolOutput<'analyze_document'>> {
    const { analysis } = deps;
    const digest = createHash('sha256').update(c.runId).digest('hex').slice(0, 24);
    const requestId = `agent-${digest}-q${c.callSeq}`;
    await analysis.start({ requestId, orgId: c.orgId, requestedBy: 'agent', ...c.input });
    const view = await analysis.settle(c.orgId, requestId, deps.analysisSettleMs ?? 9 * 60_000);
    const outcome =
      view.status === 'completed' ? (view.result?.outcome ?? 'completed') : view.status;
    const answer = view.result?.answer?.text ?? view.proposedAnswer?.text ?? null;
    return { requestId, outcome, answer };
  }
}
export type AgentRunsActivities = ReturnType<typeof createAgentRunsActivities>;
