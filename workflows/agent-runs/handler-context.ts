// The AgentContext (context.ts) a run gives its code or hybrid handler: progress, tools,
// model calls (askModel ends the run with needs_human; consultModel never does) and requests.
import { isCancellation, patched } from '@temporalio/workflow';
import { logProgress } from './bookkeeping';
import type { AgentContext, ModelConsultation } from './context';
import { createRequest } from './create-request';
import type { InvokeTool } from './invoke-tool';
import type { ContentBlock } from './llm-loop';
import { callModel } from './model-call';
import { NeedsHuman, messageOf } from './run-errors';
import type { AgentRun } from './run-state';

const textOf = (content: ContentBlock[]) =>
  content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');

/** The context of the run's handler; every side effect goes through the run. */
export function handlerContext(run: AgentRun, invokeTool: InvokeTool): AgentContext {
  const { agent, limits } = run;
  return {
    runId: run.runId,
    orgId: run.orgId,
    agentType: agent.agentType,
    trigger: run.trigger,
    settings: agent.settings,
    modelAvailable: limits.llmAvailable,
    log: (message, data) => logProgress(run, message, data),
    tool: (name, toolInput) => invokeTool(name, toolInput) as never,
    askModel: async (prompt, opts) => {
      const reply = await callModel(
        run,
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
          run,
          [{ role: 'user', content: prompt }],
          opts?.maxTokens ?? agent.maxTokens,
        );
        if (reply.status !== 'ok') {
          await logProgress(run, `model not consulted: ${reply.reason}`);
          return { status: 'unavailable', reason: reply.reason };
        }
        return { status: 'ok', text: textOf(reply.content) };
      } catch (err) {
        if (isCancellation(err)) throw err;
        const reason = `model call failed: ${messageOf(err)}`;
        await logProgress(run, reason);
        return { status: 'unavailable', reason };
      }
    },
    request: (req) => createRequest(run, req),
  };
}
