// One model call of a run: refused to a person when no API key is configured, else made
// under a global `llm` slot (released even when cancelled) and logged with its cost.
import { CancellationScope } from '@temporalio/workflow';
import { modelActivities } from './activity-proxies';
import { logProgress } from './bookkeeping';
import type { LoopMessage, ModelReply } from './llm-loop';
import type { AgentRun } from './run-state';
import { acquireSlot, releaseSlot } from './run-slots';

/** The model's reply, or `needs_human` with the reason (no key, a budget). */
export async function callModel(
  run: AgentRun,
  messages: LoopMessage[],
  maxTokens: number,
): Promise<ModelReply> {
  const { runId, orgId, agent, limits } = run;
  if (!limits.llmAvailable)
    return {
      status: 'needs_human',
      reason: 'no ANTHROPIC_API_KEY is configured: a person must do this work',
    };
  const slot = await acquireSlot(run, 'llm', limits.globalLlmConcurrency);
  try {
    const reply = await modelActivities.agentCallModel({
      callId: `${runId}#m${++run.modelCalls}`,
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
    // The count as it is now (a concurrent call may have been made since this one).
    await logProgress(
      run,
      `model call ${run.modelCalls}: ${reply.model}, cost ${reply.costUsd4} USD`,
      {
        usage: reply.usage,
      },
    );
    return {
      status: 'ok',
      content: reply.content,
      stopReason: reply.stopReason,
      costMicroUsd: reply.costMicroUsd,
    };
  } finally {
    if (slot) await CancellationScope.nonCancellable(() => releaseSlot(run, 'llm', slot));
  }
}
