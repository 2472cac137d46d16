/**
 * One planned step, executed: inputs that depend on earlier steps are bound, the tool runs as
 * an activity (a retrieval is answered from the run's cache when asked twice), and a tool that
 * fails after its retries degrades to its fallback or to a failed result.
 */
import { log } from '@temporalio/workflow';
import type { PlannedStep } from './planner';
import {
  TOOL_POLICIES,
  type ToolName,
  type ToolOutput,
  parseToolInput,
  parseToolOutput,
  requireTool,
} from './tool-registry';
import { DEGRADED_CONFIDENCE, type StepResult } from './step-result';
import { TOOLS, messageOf } from './activity-proxies';

/** Stable JSON for cache keys: key order must not make two identical retrievals differ. */
function stableKey(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableKey).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : 1,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableKey(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The step's input with what earlier steps produced bound into it (by the tool's needs). */
function bindStepInput(
  step: PlannedStep,
  tool: ToolName,
  done: StepResult[],
): Record<string, unknown> {
  const input: Record<string, unknown> = { ...step.input };
  if (tool === 'compare_frameworks') {
    const sources = done.filter(
      (s) => step.observedFromSteps.includes(s.stepId) && s.status === 'ok',
    );
    const threshold = input.threshold as { metric: string } | undefined;
    // A threshold check compares the answer claim (first claim of its extract step); a
    // framework comparison takes every claim that names a metric.
    input.observed = threshold
      ? sources
          .flatMap((s) => s.claims.slice(0, 1))
          .map((c) => ({ metric: threshold.metric, value: c.value, claimId: c.id }))
      : sources
          .flatMap((s) => s.claims.slice(0, 1))
          .filter((c) => c.metric !== null)
          .map((c) => ({ metric: c.metric as string, value: c.value, claimId: c.id }));
  }
  if (tool === 'extract_metric') {
    // What retrieval found for this document is handed to extraction, not just logged.
    const docId = input.docId as string | undefined;
    const pages: number[] = [];
    for (const s of done) {
      if (s.tool !== 'retrieve_context' || s.status !== 'ok') continue;
      for (const c of (s.output as ToolOutput<'retrieve_context'>).chunks)
        if (c.docId === docId && !pages.includes(c.page) && pages.length < 50) pages.push(c.page);
    }
    input.contextPages = pages;
  }
  if (tool === 'generate_summary') {
    input.facts = done
      .filter((s) => step.factsFromSteps.includes(s.stepId))
      .map((s) => ({
        stepId: s.stepId,
        tool: s.tool,
        summary: s.summary,
        confidence: s.confidence,
      }));
  }
  return input;
}

/** Binds inputs that depend on earlier steps, runs the tool, degrades on the last failure. */
export async function executeStep(
  step: PlannedStep,
  done: StepResult[],
  cache: Map<string, StepResult>,
): Promise<StepResult> {
  const tool = requireTool(step.tool);
  const input = bindStepInput(step, tool, done);
  const base = { stepId: step.id, tool, purpose: step.purpose, cached: false };
  let typedInput: unknown;
  try {
    typedInput = parseToolInput(tool, input);
  } catch (err) {
    return {
      ...base,
      status: 'failed',
      confidence: 0,
      summary: `Step could not run: ${messageOf(err)}`,
      claims: [],
      citations: [],
      errorTag: 'invalid_tool_input',
      error: messageOf(err),
      output: null,
    };
  }
  const cacheKey = tool === 'retrieve_context' ? stableKey(typedInput) : null;
  const hit = cacheKey ? cache.get(cacheKey) : undefined;
  if (hit) return { ...hit, ...base, cached: true };

  try {
    const output = parseToolOutput(tool, await TOOLS[tool](typedInput)) as ToolOutput<ToolName>;
    const res: StepResult = {
      ...base,
      status: 'ok',
      confidence: 'confidence' in output ? output.confidence : 1,
      summary: 'summary' in output ? output.summary : '',
      claims: 'claims' in output ? output.claims : [],
      citations: 'citations' in output ? output.citations : [],
      errorTag: 'errorTag' in output ? output.errorTag : null,
      error: null,
      output,
    };
    if (cacheKey) cache.set(cacheKey, res);
    return res;
  } catch (err) {
    const error = messageOf(err);
    log.warn('tool failed after its retries', { step: step.id, tool, error });
    const degradeTo = TOOL_POLICIES[tool].degradeTo;
    if (degradeTo === 'flag_disclosure' && tool === 'extract_metric') {
      const e = typedInput as { orgId: string; docId: string; question: string; metric?: string };
      const terms = (e.metric ? [e.metric.replace(/_/g, ' ')] : []).concat(
        e.question
          .split(/[^A-Za-z&]+/)
          .filter((w) => w.length > 4)
          .slice(0, 6),
      );
      try {
        const fallback = parseToolOutput(
          'flag_disclosure',
          await TOOLS.flag_disclosure(
            parseToolInput('flag_disclosure', {
              orgId: e.orgId,
              docIds: [e.docId],
              terms: terms.length ? terms : ['financial'],
            }),
          ),
        );
        return {
          ...base,
          status: 'degraded',
          confidence: Math.min(fallback.confidence, DEGRADED_CONFIDENCE),
          summary: `Extraction failed (${error}); where the filing discusses it: ${fallback.summary}`,
          claims: [],
          citations: fallback.citations,
          errorTag: `degraded:${tool}->${degradeTo}`,
          error,
          output: fallback,
        };
      } catch (fallbackErr) {
        return {
          ...base,
          status: 'failed',
          confidence: 0,
          summary: `Extraction and its fallback failed: ${error}; ${messageOf(fallbackErr)}`,
          claims: [],
          citations: [],
          errorTag: 'step_failed',
          error,
          output: null,
        };
      }
    }
    return {
      ...base,
      status: 'failed',
      confidence: 0,
      summary: `Step failed: ${error}`,
      claims: [],
      citations: [],
      errorTag: 'step_failed',
      error,
      output: null,
    };
  }
}
