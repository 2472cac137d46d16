// How a run calls one of its agent's tools (for the model loop and for handlers): the
// allow-list and input schema first, then submit, emit_event, analyze_document, a memory
// tool or a read tool; a call that returns counts in the run's toolCalls.
import { analysisActivities, toolActivities } from './activity-proxies';
import { logProgress } from './bookkeeping';
import { emitEventTool } from './emit-event';
import { ToolRefused } from './run-errors';
import type { AgentRun } from './run-state';
import { submitWrite } from './submissions';
import {
  TOOL_DEFINITIONS,
  isToolName,
  type MemoryToolName,
  type ReadToolName,
  type ToolInput as ToolInputOf,
  type ToolName,
} from './tools';

export type InvokeTool = (name: string, raw: unknown) => Promise<unknown>;

/** The run's tool caller (one emit_event tool per run: its calls are numbered). */
export function toolInvoker(run: AgentRun): InvokeTool {
  const { runId, orgId, agent } = run;
  const emitEvent = emitEventTool({
    runId,
    orgId,
    agentType: agent.agentType,
    triggerHop: run.trigger.hop,
    log: (message, data) => logProgress(run, message, data),
  });

  return async (name: string, raw: unknown): Promise<unknown> => {
    if (!agent.allowedTools.includes(name) || !isToolName(name))
      throw new ToolRefused(`tool ${name} is not allowed for ${agent.agentType}`);
    const tool: ToolName = name;
    const parsed = TOOL_DEFINITIONS[tool].input.safeParse(raw);
    if (!parsed.success)
      throw new Error(
        `invalid input for ${tool}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      );
    let out: unknown;
    if (tool === 'submit') out = await submitWrite(run, parsed.data);
    else if (tool === 'emit_event') out = await emitEvent(parsed.data as ToolInputOf<'emit_event'>);
    else if (tool === 'analyze_document')
      out = await analysisActivities.agentAnalyzeDocument({
        orgId,
        runId,
        callSeq: run.toolCalls + 1,
        input: parsed.data as never,
      });
    else if (TOOL_DEFINITIONS[tool].kind === 'memory')
      out = await toolActivities.agentMemoryTool({
        orgId,
        runId,
        name: tool as MemoryToolName,
        input: parsed.data,
      });
    else
      out = await toolActivities.agentReadTool({
        orgId,
        name: tool as ReadToolName,
        input: parsed.data,
      });
    run.toolCalls += 1;
    return out;
  };
}
