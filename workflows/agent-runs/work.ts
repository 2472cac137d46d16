// The run's work: the model loop (llm mode) or the agent's handler (code, hybrid), run under
// timeout_minutes — whichever ends first, the work or the timer, cancels the other — after
// which the run releases its slots.
import { CancellationScope, sleep } from '@temporalio/workflow';
import { logProgress } from './bookkeeping';
import type { HandlerResult } from './context';
import { agentHandler } from './handlers';
import { handlerContext } from './handler-context';
import { toolInvoker } from './invoke-tool';
import { runLlmLoop } from './llm-loop';
import { callModel } from './model-call';
import { NeedsHuman } from './run-errors';
import type { AgentRun } from './run-state';
import { releaseAllSlots } from './run-slots';

/** How the work ended: its result, its error (a cancellation too), or the timeout. */
export type WorkOutcome =
  { kind: 'done'; r: HandlerResult } | { kind: 'error'; e: unknown } | { kind: 'timeout' };

/** Runs the model loop or the handler; a handler's model call refused to a person is needs_human. */
export async function executeWork(run: AgentRun): Promise<HandlerResult> {
  const { orgId, agent, trigger } = run;
  const invokeTool = toolInvoker(run);
  const log = (message: string, data?: unknown) => logProgress(run, message, data);
  if (agent.executionMode === 'llm') {
    const r = await runLlmLoop(
      `Event ${trigger.eventType} (${trigger.source}) for org ${orgId}:\n${JSON.stringify(trigger.payload)}`,
      {
        maxTurns: agent.maxTurns,
        allowed: agent.allowedTools,
        callModel: (messages) => callModel(run, messages, agent.maxTokens),
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
  const handler = agentHandler(agent.agentType);
  if (!handler)
    return { status: 'failed', summary: `no handler registered for ${agent.agentType}` };
  try {
    return await handler(handlerContext(run, invokeTool));
  } catch (err) {
    if (err instanceof NeedsHuman) return { status: 'needs_human', summary: err.message };
    throw err;
  }
}

/**
 * Races the work against a timer of the agent's timeout_minutes. On timeout the work is
 * cancelled and awaited; otherwise the timer is cancelled. Then releases the run's slots: in
 * the same step that cancels the timer, so the release signal precedes the timer's
 * cancellation in history (as every recorded run has them).
 */
export async function runWorkUnderTimeout(run: AgentRun): Promise<WorkOutcome> {
  const workScope = new CancellationScope();
  const timerScope = new CancellationScope();
  const work = workScope
    .run(() => executeWork(run))
    .then(
      (r) => ({ kind: 'done' as const, r }),
      (e: unknown) => ({ kind: 'error' as const, e }),
    );
  const timer = timerScope
    .run(() => sleep(run.agent.timeoutMinutes * 60_000))
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
  await releaseAllSlots(run);
  return first;
}
