import { z } from 'zod';
import { WRITE_KINDS } from '../gateway/writes';
import { EventTypeSchema } from '../events/contract';

/**
 * The schema of agents/<type>/config.yaml. Pure: the loader (activities/agent-runs) parses
 * files with it, the workflow receives the parsed snapshot. Money is a decimal string of
 * dollars ("0.50"), turned into integer micro-dollars — never a float.
 */
export const MODEL_TIERS = ['fast', 'standard', 'advanced'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];
export const EXECUTION_MODES = ['llm', 'code', 'hybrid'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

const UsdSchema = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,6})?$/, 'dollars as a decimal string, e.g. "0.50" (at most 6 decimals)');

/** "1.25" → 1250000 micro-dollars, by string arithmetic. */
export function usdToMicro(usd: string): number {
  const [whole = '0', frac = ''] = usd.split('.');
  return Number(whole) * 1_000_000 + Number((frac + '000000').slice(0, 6));
}
/** Micro-dollars → dollars to four decimals ("0.0123"), rounded half up. */
export function microToUsd4(micro: number | bigint): string {
  const m = BigInt(micro);
  const sign = m < 0n ? '-' : '';
  const abs = m < 0n ? -m : m;
  const tenThousandths = (abs + 50n) / 100n;
  const whole = tenThousandths / 10_000n;
  const frac = (tenThousandths % 10_000n).toString().padStart(4, '0');
  return `${sign}${whole}.${frac}`;
}

const ScheduleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9_-]{1,60}$/),
    /** 5 fields (minute hour day-of-month month day-of-week), UTC. */
    cron: z
      .string()
      .max(100)
      .regex(
        /^\S+( \S+){4}$/,
        'a cron expression of five space-separated fields, e.g. "0 6 * * MON-FRI"',
      ),
    event_type: EventTypeSchema.refine((t) => t.startsWith('schedule.'), {
      message: 'schedule events are named schedule.*',
    }),
    payload: z.record(z.string(), z.unknown()).default({}),
    /** Target orgs; absent: every organization. */
    orgs: z.array(z.string().min(1).max(128)).min(1).max(1000).optional(),
  })
  .strict();

export const AgentConfigSchema = z
  .object({
    agent_type: z.string().regex(/^[a-z][a-z0-9_]{1,60}$/, 'lower_snake_case'),
    description: z.string().max(500).optional(),
    model_tier: z.enum(MODEL_TIERS),
    execution_mode: z.enum(EXECUTION_MODES),
    max_concurrent_runs: z.number().int().min(1).max(100),
    timeout_minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
    /** Its write permissions: gateway write kinds. */
    allowed_workflows: z.array(z.enum(WRITE_KINDS as [string, ...string[]])).max(50),
    /** Its read surface (and `submit`, the only write tool). */
    allowed_tools: z.array(z.string().min(1).max(100)).max(50),
    trigger_events: z.array(EventTypeSchema).min(1).max(50),
    schedules: z.array(ScheduleSchema).max(20).default([]),
    max_turns: z.number().int().min(1).max(50).default(12),
    max_tokens: z.number().int().min(64).max(32_000).default(2048),
    budgets: z.object({ per_run_usd: UsdSchema, org_monthly_usd: UsdSchema.optional() }).strict(),
    /** Agent-specific settings the handler reads (e.g. the analyst's question sets). */
    settings: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type AgentConfig = z.infer<typeof AgentConfigSchema>;

/** What a run needs of its agent's definition (the prompt stays out of history). */
export interface AgentSnapshot {
  agentType: string;
  modelTier: ModelTier;
  executionMode: ExecutionMode;
  maxConcurrentRuns: number;
  timeoutMinutes: number;
  allowedTools: string[];
  allowedWorkflows: string[];
  maxTurns: number;
  maxTokens: number;
  perRunBudgetMicroUsd: number;
  settings: Record<string, unknown>;
}

export function snapshotOf(c: AgentConfig): AgentSnapshot {
  return {
    agentType: c.agent_type,
    modelTier: c.model_tier,
    executionMode: c.execution_mode,
    maxConcurrentRuns: c.max_concurrent_runs,
    timeoutMinutes: c.timeout_minutes,
    allowedTools: [...c.allowed_tools],
    allowedWorkflows: [...c.allowed_workflows],
    maxTurns: c.max_turns,
    maxTokens: c.max_tokens,
    perRunBudgetMicroUsd: usdToMicro(c.budgets.per_run_usd),
    settings: c.settings,
  };
}
