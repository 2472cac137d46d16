import { failurePatternIn } from './tools';

/** The slice of the Messages API the loop uses (kept plain: it lives in workflow history). */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: boolean };
export interface LoopMessage {
  role: 'user' | 'assistant';
  content: string | ContentBlock[];
}

export type ModelReply =
  | { status: 'ok'; content: ContentBlock[]; stopReason: string | null; costMicroUsd: number }
  | { status: 'needs_human'; reason: string };

export interface LoopDeps {
  maxTurns: number;
  allowed: readonly string[];
  callModel(messages: LoopMessage[], turn: number): Promise<ModelReply>;
  /** Runs one allowed tool; returns its JSON result, or throws (its message goes back). */
  invokeTool(name: string, input: unknown): Promise<unknown>;
  log(message: string, data?: unknown): Promise<void>;
}

export type LoopResult =
  | { status: 'succeeded'; text: string; toolCalls: number; turns: number }
  | { status: 'failed'; reason: string; toolCalls: number; turns: number }
  | { status: 'needs_human'; reason: string; toolCalls: number; turns: number };

/**
 * The llm-mode agent loop: each model call and each tool call is its own activity (the
 * caller's callModel/invokeTool). A tool outside the allow-list is refused to the model and
 * logged; the run fails when it ends claiming success without one successful tool call, when
 * its final text carries a failure pattern ("tool not found"), or at the turn limit.
 */
export async function runLlmLoop(first: string, deps: LoopDeps): Promise<LoopResult> {
  const messages: LoopMessage[] = [{ role: 'user', content: first }];
  let toolCalls = 0;
  let refusals = 0;
  for (let turn = 1; turn <= deps.maxTurns; turn++) {
    const reply = await deps.callModel(messages, turn);
    if (reply.status === 'needs_human')
      return { status: 'needs_human', reason: reply.reason, toolCalls, turns: turn };
    messages.push({ role: 'assistant', content: reply.content });
    const uses = reply.content.filter(
      (b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use',
    );
    if (uses.length === 0) {
      const text = reply.content
        .filter((b): b is Extract<ContentBlock, { type: 'text' }> => b.type === 'text')
        .map((b) => b.text)
        .join('\n');
      const pattern = failurePatternIn(text);
      if (pattern)
        return {
          status: 'failed',
          reason: `the model's final answer reports a failure ("${pattern}")`,
          toolCalls,
          turns: turn,
        };
      if (toolCalls === 0)
        return {
          status: 'failed',
          reason:
            refusals > 0
              ? `claimed success with zero successful tool calls (${refusals} refused)`
              : 'claimed success with zero tool calls',
          toolCalls,
          turns: turn,
        };
      return { status: 'succeeded', text, toolCalls, turns: turn };
    }
    const results: ContentBlock[] = [];
    for (const use of uses) {
      if (!deps.allowed.includes(use.name)) {
        refusals += 1;
        await deps.log(`refused tool ${use.name}: not in the allow-list`, { input: use.input });
        results.push({
          type: 'tool_result',
          tool_use_id: use.id,
          content: `Refused: tool ${use.name} is not allowed for this agent. Allowed: ${deps.allowed.join(', ')}`,
          is_error: true,
        });
        continue;
      }
      try {
        const out = await deps.invokeTool(use.name, use.input);
        toolCalls += 1;
        results.push({ type: 'tool_result', tool_use_id: use.id, content: JSON.stringify(out) });
      } catch (err) {
        await deps.log(`tool ${use.name} failed`, {
          error: err instanceof Error ? err.message : String(err),
        });
        results.push({
          type: 'tool_result',
          tool_use_id: use.id,
          content: `Error: ${err instanceof Error ? err.message : String(err)}`,
          is_error: true,
        });
      }
    }
    messages.push({ role: 'user', content: results });
  }
  return {
    status: 'failed',
    reason: `turn limit of ${deps.maxTurns} reached`,
    toolCalls,
    turns: deps.maxTurns,
  };
}
