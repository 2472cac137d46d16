// The run's own records: its row when it starts, each state transition (search attribute,
// current details, stored row), each progress line, and the result it finishes with.
import { CancellationScope, setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { CsOrg, CsOutcome, CsState } from '../search-attributes';
import { book } from './activity-proxies';
import {
  CsAgentType,
  type AgentRunOutcome,
  type AgentRunResult,
  type AgentRunState,
} from './contract';
import type { AgentRun } from './run-state';

/** Tags the run for search and stores its row (state `pending`). */
export async function recordRunStart(run: AgentRun): Promise<void> {
  const { orgId, agent, trigger } = run;
  upsertSearchAttributes([
    { key: CsOrg, value: orgId },
    { key: CsAgentType, value: agent.agentType },
    { key: CsState, value: run.state },
  ]);
  await book.agentRunRecord({
    runId: run.runId,
    orgId,
    agentType: agent.agentType,
    eventId: trigger.eventId,
    attempt: run.input.attempt,
    executionMode: agent.executionMode,
    trigger,
    createdAtMs: Date.now(),
  });
}

/** Moves the run to state `s`: search attribute, current details, then the stored transition. */
export async function transition(
  run: AgentRun,
  s: AgentRunState,
  detail: string | null,
  extra: { outcome?: AgentRunOutcome; reason?: string | null; output?: unknown } = {},
): Promise<void> {
  run.state = s;
  upsertSearchAttributes([{ key: CsState, value: s }]);
  setCurrentDetails(`**${s}** — ${run.agent.agentType}${detail ? `: ${detail}` : ''}`);
  await book.agentRunTransition({
    orgId: run.orgId,
    runId: run.runId,
    seq: ++run.transitionSeq,
    state: s,
    detail,
    atMs: Date.now(),
    ...extra,
  });
}

/** Appends a line to the run's progress log (kept in the run and stored). */
export async function logProgress(run: AgentRun, message: string, data?: unknown): Promise<void> {
  run.progress.push(message);
  await book.agentRunProgress({
    orgId: run.orgId,
    runId: run.runId,
    seq: ++run.progressSeq,
    message,
    data: data ?? null,
    atMs: Date.now(),
  });
}

/** The run's end: its result, its outcome tag, and the final transition (even when cancelled). */
export async function finish(
  run: AgentRun,
  s: AgentRunState,
  outcome: AgentRunOutcome,
  reason: string | null,
  output: unknown,
  retryable: boolean,
): Promise<AgentRunResult> {
  const result: AgentRunResult = {
    runId: run.runId,
    state: s,
    outcome,
    reason,
    output,
    submissions: run.submissions.map((p) => ({ ...p.link })),
    toolCalls: run.toolCalls,
    retryable: retryable && !run.callbackRun,
  };
  run.result = result;
  upsertSearchAttributes([{ key: CsOutcome, value: outcome }]);
  await CancellationScope.nonCancellable(() =>
    transition(run, s, reason ?? outcome, { outcome, reason, output }),
  );
  return result;
}
