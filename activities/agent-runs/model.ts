import Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { Db } from '../../db/connection';
import {
  getModelCall,
  getOrgAgentSettings,
  recordModelCall,
  releaseModelCall,
  reserveModelCall,
} from '../../db/repositories/agent-runs';
import { microToUsd4, type ModelTier } from '../../workflows/agent-runs/config';
import type { ContentBlock, LoopMessage } from '../../workflows/agent-runs/llm-loop';
import { TOOL_DEFINITIONS, filterTools, type ToolName } from '../../workflows/agent-runs/tools';
import { costMicroUsd, worstCaseMicroUsd, type PriceTable, type Usage } from './pricing';

export interface CallModelInput {
  callId: string;
  runId: string;
  orgId: string;
  agentType: string;
  tier: ModelTier;
  maxTokens: number;
  perRunBudgetMicroUsd: number;
  /** Tool names the model may see (already the agent's allow-list). */
  tools: string[];
  messages: LoopMessage[];
}
export type CallModelResult =
  | {
      status: 'ok';
      model: string;
      content: ContentBlock[];
      stopReason: string | null;
      usage: Usage;
      costMicroUsd: number;
      costUsd4: string;
    }
  | { status: 'needs_human'; reason: string };

/** Anthropic tool definitions of exactly the allowed tools (the filter asserts it filtered). */
export function toolParams(allowed: readonly string[]): Anthropic.Tool[] {
  const { exposed } = filterTools(allowed);
  return exposed.map((name: ToolName) => ({
    name,
    description: TOOL_DEFINITIONS[name].description,
    input_schema: z.toJSONSchema(TOOL_DEFINITIONS[name].input, {
      io: 'input',
    }) as Anthropic.Tool.InputSchema,
  }));
}

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/**
 * One model call of an agent run, with its budget checked first: the call's worst case (its
 * request at chars/4 plus max_tokens of output) is reserved against the run's limit and the
 * org's monthly limit in one locked transaction; a call that would pass either never
 * happens. The reply and its real cost (integer micro-dollars) are stored under the call id,
 * so a retried activity returns the stored reply instead of paying twice.
 */
export async function callModel(
  deps: {
    db: Db;
    anthropic: Anthropic | null;
    prices: PriceTable;
    prompts: ReadonlyMap<string, string>;
    defaultOrgMonthlyBudgetMicroUsd: bigint | null;
  },
  input: CallModelInput,
): Promise<CallModelResult> {
  const price = deps.prices[input.tier];
  const done = await getModelCall(deps.db, input.orgId, input.callId);
  if (done?.status === 'recorded' && done.response) {
    const usage: Usage = {
      inputTokens: done.inputTokens,
      outputTokens: done.outputTokens,
      cacheCreationTokens: done.cacheCreationTokens,
      cacheReadTokens: done.cacheReadTokens,
    };
    const r = done.response as { content: ContentBlock[]; stopReason: string | null };
    return {
      status: 'ok',
      model: done.model,
      content: r.content,
      stopReason: r.stopReason,
      usage,
      costMicroUsd: Number(done.costMicroUsd),
      costUsd4: microToUsd4(done.costMicroUsd),
    };
  }
  if (!deps.anthropic)
    return {
      status: 'needs_human',
      reason: 'no ANTHROPIC_API_KEY is configured: a person must do this work',
    };
  const system = deps.prompts.get(input.agentType) ?? '';
  const tools = input.tools.length > 0 ? toolParams(input.tools) : [];
  const request = {
    model: price.model,
    max_tokens: input.maxTokens,
    system,
    messages: input.messages as Anthropic.MessageParam[],
    ...(tools.length > 0 ? { tools } : {}),
  };
  const reserved = worstCaseMicroUsd(price, JSON.stringify(request).length, input.maxTokens);
  const settings = await getOrgAgentSettings(deps.db, input.orgId);
  const orgLimit = settings?.monthlyBudgetMicroUsd ?? deps.defaultOrgMonthlyBudgetMicroUsd;
  const now = new Date();
  const ok = await reserveModelCall(deps.db, {
    id: input.callId,
    runId: input.runId,
    orgId: input.orgId,
    agentType: input.agentType,
    month: monthOf(now),
    modelTier: input.tier,
    model: price.model,
    reservedMicroUsd: reserved,
    runLimitMicroUsd: BigInt(input.perRunBudgetMicroUsd),
    orgMonthlyLimitMicroUsd: orgLimit,
    at: now,
  });
  if (!ok.ok)
    return {
      status: 'needs_human',
      reason: `budget: this call may cost up to ${microToUsd4(reserved)} USD; the ${ok.scope === 'run' ? 'run' : "org's monthly"} limit is ${microToUsd4(ok.limitMicroUsd)} USD with ${microToUsd4(ok.committedMicroUsd)} USD already committed`,
    };
  let msg: Anthropic.Message;
  try {
    msg = await deps.anthropic.messages.create(request);
  } catch (err) {
    await releaseModelCall(deps.db, input.orgId, input.callId);
    throw err;
  }
  const usage: Usage = {
    inputTokens: msg.usage.input_tokens,
    outputTokens: msg.usage.output_tokens,
    cacheCreationTokens: msg.usage.cache_creation_input_tokens ?? 0,
    cacheReadTokens: msg.usage.cache_read_input_tokens ?? 0,
  };
  const cost = costMicroUsd(price, usage);
  const content: ContentBlock[] = msg.content.flatMap((b): ContentBlock[] =>
    b.type === 'text'
      ? [{ type: 'text', text: b.text }]
      : b.type === 'tool_use'
        ? [{ type: 'tool_use', id: b.id, name: b.name, input: b.input }]
        : [],
  );
  await recordModelCall(deps.db, {
    orgId: input.orgId,
    id: input.callId,
    ...usage,
    costMicroUsd: cost,
    response: { content, stopReason: msg.stop_reason },
  });
  return {
    status: 'ok',
    model: msg.model,
    content,
    stopReason: msg.stop_reason,
    usage,
    costMicroUsd: Number(cost),
    costUsd4: microToUsd4(cost),
  };
}

/**
 * Token size of an agent's context (system prompt + its tool definitions): the Messages API
 * count_tokens endpoint when a client is given, else the documented estimate ceil(chars / 4)
 * of the same JSON.
 */
export async function measureToolContext(
  agent: { prompt: string; allowedTools: string[]; model: string },
  anthropic: Anthropic | null,
): Promise<{ tokens: number; method: 'count_tokens' | 'chars/4' }> {
  const tools = toolParams(agent.allowedTools);
  if (anthropic) {
    const r = await anthropic.messages.countTokens({
      model: agent.model,
      system: agent.prompt,
      ...(tools.length > 0 ? { tools } : {}),
      messages: [{ role: 'user', content: '.' }],
    });
    return { tokens: r.input_tokens, method: 'count_tokens' };
  }
  return {
    tokens: Math.ceil(JSON.stringify({ system: agent.prompt, tools }).length / 4),
    method: 'chars/4',
  };
}
