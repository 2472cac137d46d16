import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  log as wfLog,
  ParentClosePolicy,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
  type ChildWorkflowHandle,
} from '@temporalio/workflow';
import type { AgentRunsActivities } from '../../activities/agent-runs';
import { CsWriteKind, GATEWAY_WORKFLOW, gatewayWorkflowId } from '../gateway.contract';
import type { GatewayResult } from '../gateway.contract';
import type { gatewayWorkflow } from '../gateway';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import {
  CsAgentType,
  agentRunStateQuery,
  releaseSlotSignal,
  slotGrantedSignal,
  slotsWorkflowId,
  type AgentRunInput,
  type AgentRunOutcome,
  type AgentRunResult,
  type AgentRunState,
  type SubmissionLink,
} from './contract';
import type { AgentContext, AgentRequestInput, HandlerResult, ModelConsultation } from './context';
import type { RequestsActivities } from '../../activities/requests';
import { isCallbackTrigger, nextHop } from '../requests/loop-defences';
import { AGENT_HANDLERS } from './handlers';
import { runLlmLoop, type ContentBlock, type LoopMessage, type ModelReply } from './llm-loop';
import {
  TOOL_DEFINITIONS,
  isToolName,
  type MemoryToolName,
  type ReadToolName,
  type ToolInput as ToolInputOf,
  type ToolName,
} from './tools';
import { emitEventTool } from './emit-event';
import { delegationToClose } from './delegation-answer';
import { baseQueue, taskQueueOf } from '../domain-routing';
import { CsOrg, CsOutcome, CsState } from '../search-attributes';

// Run bookkeeping: quick, idempotent database writes (keyed by run id and the workflow's own
// counters), run as local activities so a state change costs no round trip via the server.
const book = proxyLocalActivities<AgentRunsActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Read tools: bounded; a failing tool is reported to the agent, not retried forever.
const tools = proxyActivities<AgentRunsActivities>({
  startToCloseTimeout: '2m',
  // The activity heartbeats while it waits: a dead worker's call moves on within seconds.
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '1s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// The analysis pipeline settles within minutes (delivered, or waiting for a reviewer).
const analysis = proxyActivities<AgentRunsActivities>({
  startToCloseTimeout: '10m',
  // The activity heartbeats while it waits: a dead worker's call moves on within seconds.
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '2s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Model calls: few attempts (each is money); the activity returns a stored reply on retry.
const llm = proxyActivities<AgentRunsActivities>({
  startToCloseTimeout: '5m',
  // The activity heartbeats while it waits: a dead worker's call moves on within seconds.
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

// Creating a request: one quick start of the request workflow, joined again on retry. The
// requests domain's activity, on its queue.
const requests = () =>
  proxyActivities<RequestsActivities>({
    taskQueue: taskQueueOf('requests'),
    startToCloseTimeout: '1m',
    retry: {
      initialInterval: '1s',
      maximumAttempts: 5,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });

/** A request the loop defences refuse (a callback re-run delegating again). */
export class RequestRefused extends Error {
  override readonly name = 'RequestRefused';
}

/** A model call that cannot happen honestly (no key, a budget): a person takes the work. */
class NeedsHuman extends Error {
  override readonly name = 'NeedsHuman';
}
/** A tool outside the agent's allow-list. */
export class ToolRefused extends Error {
  override readonly name = 'ToolRefused';
}

const messageOf = (err: unknown): string => {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure)
    return err.cause.message;
  if (err instanceof ChildWorkflowFailure && err.cause instanceof ApplicationFailure)
    return `${err.cause.type ?? 'failure'}: ${err.cause.message}`;
  return err instanceof Error ? err.message : String(err);
};

interface PendingWrite {
  link: SubmissionLink;
  lane: string;
  done: Promise<void>;
}

/**
 * One agent instance: wait for its slots (agent, then org — always in that order, so waits
 * cannot deadlock), run the handler or the model loop under timeout_minutes, release the
 * slots, then wait — as waiting_approval — for the gateway to decide the writes it submitted.
 * Every state is stored with its time; nothing is dropped while it waits.
 */
export async function agentRunWorkflow(input: AgentRunInput): Promise<AgentRunResult> {
  const runId = workflowInfo().workflowId;
  const { orgId, agent, trigger, limits } = input;
  let state: AgentRunState = 'pending';
  let seq = 0;
  let pseq = 0;
  let toolCalls = 0;
  let modelCalls = 0;
  let acquisitions = 0;
  let writes = 0;
  let requestCalls = 0;
  // A run triggered by a request's callback gets one chance: never retried, never delegating.
  const callbackRun = isCallbackTrigger(trigger);
  const progress: string[] = [];
  const pending: PendingWrite[] = [];
  let result: AgentRunResult | null = null;
  const granted = new Set<string>();

  setHandler(slotGrantedSignal, ({ requestId }) => void granted.add(requestId));
  setHandler(agentRunStateQuery, () => ({
    runId,
    orgId,
    agentType: agent.agentType,
    state,
    progress: [...progress],
    submissions: pending.map((p) => ({ ...p.link })),
    result,
  }));

  const transition = async (
    s: AgentRunState,
    detail: string | null,
    extra: { outcome?: AgentRunOutcome; reason?: string | null; output?: unknown } = {},
  ) => {
    state = s;
    upsertSearchAttributes([{ key: CsState, value: s }]);
    setCurrentDetails(`**${s}** — ${agent.agentType}${detail ? `: ${detail}` : ''}`);
    await book.agentRunTransition({
      orgId,
      runId,
      seq: ++seq,
      state: s,
      detail,
      atMs: Date.now(),
      ...extra,
    });
  };
  const log = async (message: string, data?: unknown) => {
    progress.push(message);
    await book.agentRunProgress({
      orgId,
      runId,
      seq: ++pseq,
      message,
      data: data ?? null,
      atMs: Date.now(),
    });
  };

  upsertSearchAttributes([
    { key: CsOrg, value: orgId },
    { key: CsAgentType, value: agent.agentType },
    { key: CsState, value: state },
  ]);
  await book.agentRunRecord({
    runId,
    orgId,
    agentType: agent.agentType,
    eventId: trigger.eventId,
    attempt: input.attempt,
    executionMode: agent.executionMode,
    trigger,
    createdAtMs: Date.now(),
  });

  // ---- slots ---------------------------------------------------------------------------
  const held: { scope: string; requestId: string }[] = [];
  const release = async (scope: string, requestId: string) => {
    const i = held.findIndex((h) => h.requestId === requestId);
    if (i >= 0) held.splice(i, 1);
    try {
      await getExternalWorkflowHandle(slotsWorkflowId(baseQueue(), scope)).signal(
        releaseSlotSignal,
        {
          requestId,
        },
      );
    } catch (err) {
      wfLog.warn('slot release not delivered', { scope, requestId, error: messageOf(err) });
    }
  };
  const acquire = async (scope: string, capacity: number, deadlineMs?: number) => {
    const requestId = `${runId}#${scope}#${++acquisitions}`;
    held.push({ scope, requestId });
    await book.agentRequestSlot({
      scope,
      request: { taskQueue: baseQueue(), holder: runId, requestId, capacity },
    });
    const got = () => granted.has(requestId);
    const ok =
      deadlineMs === undefined
        ? (await condition(got), true)
        : await condition(got, Math.max(1, deadlineMs - Date.now()));
    if (!ok) {
      await CancellationScope.nonCancellable(() => release(scope, requestId));
      return null;
    }
    return requestId;
  };
  const releaseAll = () =>
    CancellationScope.nonCancellable(async () => {
      for (const h of [...held].reverse()) await release(h.scope, h.requestId);
    });

  const finish = async (
    s: AgentRunState,
    outcome: AgentRunOutcome,
    reason: string | null,
    output: unknown,
    retryable: boolean,
  ): Promise<AgentRunResult> => {
    result = {
      runId,
      state: s,
      outcome,
      reason,
      output,
      submissions: pending.map((p) => ({ ...p.link })),
      toolCalls,
      retryable: retryable && !callbackRun,
    };
    upsertSearchAttributes([{ key: CsOutcome, value: outcome }]);
    await CancellationScope.nonCancellable(() =>
      transition(s, reason ?? outcome, { outcome, reason, output }),
    );
    return result;
  };

  try {
    const agentSlot = await acquire(
      `agent:${orgId}:${agent.agentType}`,
      agent.maxConcurrentRuns,
      input.slotDeadlineMs,
    );
    const orgSlot = agentSlot
      ? await acquire(`org:${orgId}`, limits.orgMaxConcurrentRuns, input.slotDeadlineMs)
      : null;
    if (!agentSlot || !orgSlot) {
      await releaseAll();
      return await finish(
        'cancelled',
        'expired',
        'no concurrency slot before the event expired',
        null,
        false,
      );
    }
  } catch (err) {
    await releaseAll();
    if (isCancellation(err))
      return await finish(
        'cancelled',
        'cancelled',
        'cancelled while waiting for a slot',
        null,
        false,
      );
    throw err;
  }

  await transition('running', `${agent.executionMode} mode`);

  // ---- tools ---------------------------------------------------------------------------
  const submit = async (raw: unknown) => {
    const w = TOOL_DEFINITIONS.submit.input.parse(raw);
    const idempotencyKey = `${runId.replace(/[^A-Za-z0-9._:-]/g, '_')}.w${++writes}`;
    const submissionId = gatewayWorkflowId(orgId, idempotencyKey);
    if (!limits.operatorUserId)
      return {
        submissionId,
        status: 'refused' as const,
        detail: `org ${orgId} has no agent operator configured`,
      };
    const write = {
      orgId,
      idempotencyKey,
      submitter: {
        kind: 'agent' as const,
        agentType: agent.agentType,
        instanceId: runId,
        operatorUserId: limits.operatorUserId,
        allowedWorkflows: agent.allowedWorkflows,
      },
      source: w.sourceDocumentId
        ? { type: 'document' as const, id: w.sourceDocumentId }
        : { type: 'event' as const, id: trigger.eventId },
      kind: w.kind,
      payload: w.payload,
    };
    // The dry run answers the agent at once (refusal with issue paths, or the lane); the
    // submission itself is the gateway's own workflow, which outlives this run.
    const dry = await tools.agentDryRunWrite({ write });
    if (!dry.ok) {
      await log(`write ${w.kind} refused by the gateway`, { detail: dry.detail });
      return {
        submissionId,
        status: 'refused' as const,
        detail: dry.detail,
        ...(dry.issues ? { issues: dry.issues } : {}),
      };
    }
    let child: ChildWorkflowHandle<typeof gatewayWorkflow>;
    try {
      child = await startChild<typeof gatewayWorkflow>(GATEWAY_WORKFLOW, {
        workflowId: submissionId,
        taskQueue: taskQueueOf('gateway'),
        args: [write],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        typedSearchAttributes: [
          { key: CsOrg, value: orgId },
          { key: CsWriteKind, value: w.kind },
          { key: CsState, value: 'evaluating' },
        ],
      });
    } catch (err) {
      return { submissionId, status: 'refused' as const, detail: messageOf(err) };
    }
    const link: SubmissionLink = { submissionId, kind: w.kind, outcome: null };
    await book.agentLinkSubmission({
      orgId,
      runId,
      submissionId,
      kind: w.kind,
      outcome: null,
      atMs: Date.now(),
    });
    const done = child.result().then(
      (r: GatewayResult) => {
        link.outcome = r.outcome;
      },
      (err: unknown) => {
        link.outcome = 'refused';
        wfLog.warn('submission failed', { submissionId, error: messageOf(err) });
      },
    );
    pending.push({ link, lane: dry.lane, done });
    await log(`submitted ${w.kind} (${dry.lane} lane)`, { submissionId });
    return {
      submissionId,
      status: 'started' as const,
      detail: `${dry.lane} lane`,
      ...(dry.splitOut ? { splitOut: dry.splitOut } : {}),
    };
  };

  const emitEvent = emitEventTool({
    runId,
    orgId,
    agentType: agent.agentType,
    triggerHop: trigger.hop,
    log,
  });

  const invokeTool = async (name: string, raw: unknown): Promise<unknown> => {
    if (!agent.allowedTools.includes(name) || !isToolName(name))
      throw new ToolRefused(`tool ${name} is not allowed for ${agent.agentType}`);
    const tool: ToolName = name;
    const parsed = TOOL_DEFINITIONS[tool].input.safeParse(raw);
    if (!parsed.success)
      throw new Error(
        `invalid input for ${tool}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      );
    let out: unknown;
    if (tool === 'submit') out = await submit(parsed.data);
    else if (tool === 'emit_event') out = await emitEvent(parsed.data as ToolInputOf<'emit_event'>);
    else if (tool === 'analyze_document')
      out = await analysis.agentAnalyzeDocument({
        orgId,
        runId,
        callSeq: toolCalls + 1,
        input: parsed.data as never,
      });
    else if (TOOL_DEFINITIONS[tool].kind === 'memory')
      out = await tools.agentMemoryTool({
        orgId,
        runId,
        name: tool as MemoryToolName,
        input: parsed.data,
      });
    else out = await tools.agentReadTool({ orgId, name: tool as ReadToolName, input: parsed.data });
    toolCalls += 1;
    return out;
  };

  const callModel = async (messages: LoopMessage[], maxTokens: number): Promise<ModelReply> => {
    if (!limits.llmAvailable)
      return {
        status: 'needs_human',
        reason: 'no ANTHROPIC_API_KEY is configured: a person must do this work',
      };
    const slot = await acquire('llm', limits.globalLlmConcurrency);
    try {
      const reply = await llm.agentCallModel({
        callId: `${runId}#m${++modelCalls}`,
        runId,
        orgId,
        agentType: agent.agentType,
        tier: agent.modelTier,
        maxTokens,
        perRunBudgetMicroUsd: agent.perRunBudgetMicroUsd,
        tools: agent.executionMode === 'llm' ? agent.allowedTools : [],
        messages,
      });
      if (reply.status !== 'ok') return { status: 'needs_human', reason: reply.reason };
      await log(`model call ${modelCalls}: ${reply.model}, cost ${reply.costUsd4} USD`, {
        usage: reply.usage,
      });
      return {
        status: 'ok',
        content: reply.content,
        stopReason: reply.stopReason,
        costMicroUsd: reply.costMicroUsd,
      };
    } finally {
      if (slot) await CancellationScope.nonCancellable(() => release('llm', slot));
    }
  };

  const createRequest = async (req: AgentRequestInput) => {
    if (req.type === 'delegation' && callbackRun)
      throw new RequestRefused(
        'a run triggered by a request callback may not delegate again (loop breaker)',
      );
    let input = {
      ...req,
      orgId,
      hop: trigger.hop,
      createdBy: { runId, agentType: agent.agentType, workflowId: runId },
    };
    let to: 'agent' | 'human' = 'human';
    if (req.type === 'delegation') {
      const next = nextHop(trigger.hop);
      if (next.to === 'agent') {
        to = 'agent';
        input = { ...input, hop: next.hop };
      } else {
        // Past the hop cap the hand-off becomes a question to a person.
        const { delegateAgentType, ...rest } = input;
        input = {
          ...rest,
          type: 'verification',
          title: `Hop limit reached: ${req.title}`,
          evidence: { ...(req.evidence ?? {}), delegateAgentType, hopLimit: true },
        };
        await log(`delegation to ${delegateAgentType ?? '?'} past the hop cap: asking a person`);
      }
    }
    const n = ++requestCalls;
    const created = await requests().requestCreate({
      input: {
        ...input,
        // Without a dedup key the id is the run's and the call's, so a retry joins it; with
        // one, the client derives it from the key (identical requests are one).
        ...(input.dedupKey
          ? {}
          : { requestId: `hr_${runId.replace(/[^A-Za-z0-9._:-]/g, '_').slice(-150)}.r${n}` }),
      },
    });
    await log(
      `request ${created.requestId} (${input.type})${created.deduplicated ? ', deduplicated' : ''}`,
      {
        requestId: created.requestId,
        to,
      },
    );
    return { requestId: created.requestId, deduplicated: created.deduplicated, to };
  };

  const textOf = (content: ContentBlock[]) =>
    content
      .filter((b) => b.type === 'text')
      .map((b) => (b as { text: string }).text)
      .join('\n');
  const ctx: AgentContext = {
    runId,
    orgId,
    agentType: agent.agentType,
    trigger,
    settings: agent.settings,
    modelAvailable: limits.llmAvailable,
    log,
    tool: (name, toolInput) => invokeTool(name, toolInput) as never,
    askModel: async (prompt, opts) => {
      const reply = await callModel(
        [{ role: 'user', content: prompt }],
        opts?.maxTokens ?? agent.maxTokens,
      );
      if (reply.status !== 'ok') throw new NeedsHuman(reply.reason);
      return textOf(reply.content);
    },
    consultModel: async (prompt, opts): Promise<ModelConsultation> => {
      if (!limits.llmAvailable)
        return {
          status: 'unavailable',
          reason: 'no ANTHROPIC_API_KEY is configured: a person must do this work',
        };
      // Runs recorded before handlers could consult a model replay as they ran: without it.
      if (!patched('agent-run-consult-model'))
        return { status: 'unavailable', reason: 'run recorded before model consultations' };
      try {
        const reply = await callModel(
          [{ role: 'user', content: prompt }],
          opts?.maxTokens ?? agent.maxTokens,
        );
        if (reply.status !== 'ok') {
          await log(`model not consulted: ${reply.reason}`);
          return { status: 'unavailable', reason: reply.reason };
        }
        return { status: 'ok', text: textOf(reply.content) };
      } catch (err) {
        if (isCancellation(err)) throw err;
        const reason = `model call failed: ${messageOf(err)}`;
        await log(reason);
        return { status: 'unavailable', reason };
      }
    },
    request: createRequest,
  };

  const execute = async (): Promise<HandlerResult> => {
    if (agent.executionMode === 'llm') {
      const r = await runLlmLoop(
        `Event ${trigger.eventType} (${trigger.source}) for org ${orgId}:\n${JSON.stringify(trigger.payload)}`,
        {
          maxTurns: agent.maxTurns,
          allowed: agent.allowedTools,
          callModel: (messages) => callModel(messages, agent.maxTokens),
          invokeTool,
          log,
        },
      );
      if (r.status === 'succeeded')
        return {
          status: 'succeeded',
          summary: r.text,
          data: { turns: r.turns, toolCalls: r.toolCalls },
        };
      return {
        status: r.status,
        summary: r.reason,
        data: { turns: r.turns, toolCalls: r.toolCalls },
      };
    }
    const handler = AGENT_HANDLERS[agent.agentType];
    if (!handler)
      return { status: 'failed', summary: `no handler registered for ${agent.agentType}` };
    try {
      return await handler(ctx);
    } catch (err) {
      if (err instanceof NeedsHuman) return { status: 'needs_human', summary: err.message };
      throw err;
    }
  };

  // ---- run under timeout_minutes ---------------------------------------------------------
  const workScope = new CancellationScope();
  const timerScope = new CancellationScope();
  const work = workScope.run(execute).then(
    (r) => ({ kind: 'done' as const, r }),
    (e: unknown) => ({ kind: 'error' as const, e }),
  );
  const timer = timerScope
    .run(() => sleep(agent.timeoutMinutes * 60_000))
    .then(
      () => ({ kind: 'timeout' as const }),
      () => ({ kind: 'timer-cancelled' as const }),
    );
  let first = await Promise.race([work, timer]);
  // A cancelled run cancels its timer too: that is not the work's outcome, which follows.
  if (first.kind === 'timer-cancelled') first = await work;
  if (first.kind === 'timeout') {
    workScope.cancel();
    await work;
  } else timerScope.cancel();
  await releaseAll();

  if (first.kind === 'timeout')
    return await finish(
      'timeout',
      'timeout',
      `no result within ${agent.timeoutMinutes} minute(s)`,
      null,
      true,
    );
  if (first.kind === 'error') {
    if (isCancellation(first.e))
      return await finish('cancelled', 'cancelled', 'cancelled by an operator', null, false);
    return await finish('failed', 'failed', messageOf(first.e), null, true);
  }
  first = first as { kind: 'done'; r: HandlerResult };
  const r = first.r;
  if (r.status === 'needs_human')
    return await finish('failed', 'needs_human', r.summary, r.data ?? null, false);
  if (r.status === 'failed')
    return await finish('failed', 'failed', r.summary, r.data ?? null, true);

  // ---- the gateway decides the writes ----------------------------------------------------
  const output = { summary: r.summary, data: r.data ?? null };
  if (pending.length > 0) {
    const waiting = pending.filter((p) => p.lane !== 'low');
    if (waiting.length > 0)
      await transition('waiting_approval', `${waiting.length} write(s) in an approval lane`);
    await Promise.all(pending.map((p) => p.done));
    for (const p of pending)
      await book.agentLinkSubmission({
        orgId,
        runId,
        submissionId: p.link.submissionId,
        kind: p.link.kind,
        outcome: p.link.outcome,
        atMs: Date.now(),
      });
    const notApplied = pending.filter((p) => p.link.outcome !== 'applied');
    if (notApplied.length > 0)
      return await finish(
        'failed',
        'rejected',
        `write(s) not applied: ${notApplied.map((p) => `${p.link.kind} ${p.link.outcome}`).join(', ')}`,
        output,
        false,
      );
  }
  if (r.status === 'waiting_human')
    return await finish('waiting_human', 'needs_human', r.summary, output, false);
  // ---- a delegate closes the delegation it worked for ---------------------------------------
  // The runtime answers it (an activity checks the named entity really exists), never the
  // handler; runs recorded before this step replay without it.
  const delegation = delegationToClose(trigger.payload, output.data);
  if (delegation && patched('agent-run-completes-delegation')) {
    const closed = await requests().requestCompleteDelegation({
      orgId,
      requestId: delegation.requestId,
      agentType: agent.agentType,
      answer: delegation.answer,
    });
    await log(
      closed.status === 'completed'
        ? `delegation ${closed.requestId} answered: ${closed.entity!.kind} ${closed.entity!.id}`
        : `delegation ${closed.requestId} not answered (${closed.status}): ${closed.reason ?? ''}`,
      closed,
    );
  }
  return await finish('completed', 'succeeded', null, output, false);
}
