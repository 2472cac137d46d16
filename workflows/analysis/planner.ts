import { z } from 'zod';
import {
  type AnalysisRequest,
  COMPLIANCE_TYPES,
  type DisclosureTopic,
  SINGLE_METRIC_TYPES,
} from './request';
import { TOOL_NAMES, type ToolName, requireTool, TOOL_SCHEMAS } from './tool-registry';
import { DEFAULT_FRAMEWORK, findFramework, frameworkMetrics } from './frameworks';
import { ErrorType, permanentFailure } from '../errors';

/**
 * The rule-based planner: deterministic, no LLM. A request maps to one of four paths, each a
 * typed list of steps over the tool registry. Inputs that depend on earlier steps are bound
 * at run time (`observedFromSteps`, `factsFromSteps`), so the plan itself stays small.
 */
export const PLAN_PATHS = ['extraction', 'chain', 'compliance', 'full_agent'] as const;
export type PlanPath = (typeof PLAN_PATHS)[number];

export const PlannedStepSchema = z.object({
  id: z.string(),
  tool: z.enum(TOOL_NAMES as [ToolName, ...ToolName[]]),
  purpose: z.string(),
  input: z.record(z.string(), z.unknown()),
  /** compare_frameworks: take observed values from these extract steps' claims. */
  observedFromSteps: z.array(z.string()).default([]),
  /** generate_summary: summarise these steps' results. */
  factsFromSteps: z.array(z.string()).default([]),
});
export type PlannedStep = z.infer<typeof PlannedStepSchema>;

export interface Plan {
  path: PlanPath;
  steps: PlannedStep[];
}

const RISK_TOPICS: DisclosureTopic[] = [
  'going_concern',
  'material_weakness',
  'restatement',
  'liquidity_risk',
  'litigation',
  'cybersecurity',
  'climate',
];
const COMPLIANCE_TOPICS: DisclosureTopic[] = [
  'capital_adequacy',
  'liquidity_risk',
  'material_weakness',
];

export function choosePath(r: AnalysisRequest): PlanPath {
  const oneDoc = r.docIds.length === 1;
  const stepsDefined = r.analyticalStepsDefined || r.analyticalSteps.length > 0;
  if (SINGLE_METRIC_TYPES.includes(r.queryType) && oneDoc && !stepsDefined) return 'extraction';
  if (stepsDefined && oneDoc) return 'chain';
  if (COMPLIANCE_TYPES.includes(r.queryType)) return 'compliance';
  return 'full_agent';
}

class StepList {
  readonly steps: PlannedStep[] = [];
  add(
    step: Omit<PlannedStep, 'id' | 'observedFromSteps' | 'factsFromSteps'> & Partial<PlannedStep>,
  ): string {
    const id = `step-${this.steps.length + 1}`;
    this.steps.push({ observedFromSteps: [], factsFromSteps: [], ...step, id });
    return id;
  }
  summary(r: AnalysisRequest): void {
    this.add({
      tool: 'generate_summary',
      purpose: 'Summarise the findings for the reader, citing each step',
      input: { queryType: r.queryType, queryText: r.queryText, docIds: r.docIds, orgId: r.orgId },
      factsFromSteps: this.steps.map((s) => s.id),
    });
  }
}

function extractInput(r: AnalysisRequest, docId: string, metric?: string): Record<string, unknown> {
  return {
    orgId: r.orgId,
    docId,
    question: r.queryText,
    ...((metric ?? r.constraints.metric) ? { metric: metric ?? r.constraints.metric } : {}),
    ...(r.constraints.period ? { period: r.constraints.period } : {}),
    ...(r.constraints.unit ? { unit: r.constraints.unit } : {}),
  };
}

function planExtraction(r: AnalysisRequest): PlannedStep[] {
  const docId = r.docIds[0] as string;
  const list = new StepList();
  list.add({
    tool: 'retrieve_context',
    purpose:
      "Find the passages that discuss the metric: the pages the hybrid reader reads first and the answer's citations are checked against (code extraction reads every statement table itself)",
    input: {
      orgId: r.orgId,
      docIds: [docId],
      query: r.constraints.metric ?? r.queryText,
      limit: 8,
    },
  });
  const extract = list.add({
    tool: 'extract_metric',
    purpose:
      'Read the metric for the requested period from the statement tables, given the retrieved pages',
    input: extractInput(r, docId),
  });
  if (r.queryType === 'check_threshold' && r.constraints.threshold) {
    list.add({
      tool: 'compare_frameworks',
      purpose: 'Check the extracted value against the requested threshold',
      input: {
        threshold: {
          ...r.constraints.threshold,
          metric: r.constraints.metric ?? 'requested_metric',
        },
      },
      observedFromSteps: [extract],
    });
  }
  list.summary(r);
  return list.steps;
}

/** Caller-defined steps, scoped to the request's org and document; params fill the rest. */
function chainStepInput(
  r: AnalysisRequest,
  tool: ToolName,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const docId = r.docIds[0] as string;
  switch (tool) {
    case 'retrieve_context':
      return { query: r.queryText, limit: 8, ...params, orgId: r.orgId, docIds: [docId] };
    case 'extract_metric':
      return { ...extractInput(r, docId), ...params, orgId: r.orgId, docId };
    case 'flag_disclosure':
      return {
        topics: r.constraints.topics ?? RISK_TOPICS,
        ...params,
        orgId: r.orgId,
        docIds: [docId],
      };
    case 'compare_frameworks':
      return params.threshold === undefined
        ? { framework: r.framework ?? DEFAULT_FRAMEWORK, ...params }
        : { ...params };
    default:
      return { ...params, orgId: r.orgId };
  }
}

function planChain(r: AnalysisRequest): PlannedStep[] {
  const list = new StepList();
  for (const step of r.analyticalSteps) {
    const tool = requireTool(step.tool);
    if (tool === 'validate_citation') {
      throw permanentFailure(
        ErrorType.InvalidRequest,
        'validate_citation is run by the validation gate for every request; do not list it as a step',
      );
    }
    if (tool === 'generate_summary') continue; // always added last, over every step
    const input = chainStepInput(r, tool, step.params);
    // Fail at plan time, not mid-run, when a caller's params cannot be a valid input
    // (compare_frameworks gets its observed values bound at run time).
    const check = TOOL_SCHEMAS[tool].input.safeParse(
      tool === 'compare_frameworks' ? { ...input, observed: [] } : input,
    );
    if (!check.success) {
      throw permanentFailure(
        ErrorType.InvalidRequest,
        `Step "${step.purpose}" (${tool}) has invalid params: ${check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    }
    list.add({
      tool,
      purpose: step.purpose,
      input,
      observedFromSteps:
        tool === 'compare_frameworks'
          ? list.steps.filter((s) => s.tool === 'extract_metric').map((s) => s.id)
          : [],
    });
  }
  list.summary(r);
  return list.steps;
}

function planCompliance(r: AnalysisRequest): PlannedStep[] {
  const frameworkId = r.framework ?? DEFAULT_FRAMEWORK;
  const framework = findFramework(frameworkId);
  if (!framework) {
    throw permanentFailure(ErrorType.InvalidRequest, `Unknown framework "${frameworkId}"`);
  }
  const list = new StepList();
  const extracts: string[] = [];
  for (const docId of r.docIds) {
    list.add({
      tool: 'retrieve_context',
      purpose: `Find the regulatory capital and liquidity disclosures in ${docId}`,
      input: {
        orgId: r.orgId,
        docIds: [docId],
        query: 'capital ratio tier 1 common equity leverage liquidity coverage',
        limit: 10,
      },
    });
    for (const metric of frameworkMetrics(framework)) {
      extracts.push(
        list.add({
          tool: 'extract_metric',
          purpose: `Read ${metric} from ${docId}`,
          input: extractInput(r, docId, metric),
        }),
      );
    }
  }
  list.add({
    tool: 'compare_frameworks',
    purpose: `Compare the reported ratios with ${framework.title} (${framework.version})`,
    input: { framework: framework.id },
    observedFromSteps: extracts,
  });
  list.add({
    tool: 'flag_disclosure',
    purpose: 'Check the filing discloses capital adequacy, liquidity risk and control weaknesses',
    input: { orgId: r.orgId, docIds: r.docIds, topics: r.constraints.topics ?? COMPLIANCE_TOPICS },
  });
  list.summary(r);
  return list.steps;
}

function planFullAgent(r: AnalysisRequest): PlannedStep[] {
  const list = new StepList();
  list.add({
    tool: 'retrieve_context',
    purpose: 'Find the passages most relevant to the question across the documents',
    input: { orgId: r.orgId, docIds: r.docIds, query: r.queryText, limit: 10 },
  });
  const wantsMetric =
    r.constraints.metric !== undefined ||
    r.queryType === 'extract_metric' ||
    r.queryType === 'check_threshold' ||
    r.queryType === 'trend_analysis' ||
    r.queryType === 'multi_document_comparison';
  if (wantsMetric) {
    for (const docId of r.docIds) {
      list.add({
        tool: 'extract_metric',
        purpose: `Read the requested metric from ${docId}`,
        input: extractInput(r, docId),
      });
    }
  }
  if (r.queryType !== 'classify_document' || r.constraints.topics) {
    const topics =
      r.constraints.topics ?? (r.constraints.topic ? [r.constraints.topic] : RISK_TOPICS);
    list.add({
      tool: 'flag_disclosure',
      purpose:
        'Flag risk disclosures (going concern, material weakness, restatement, liquidity, litigation ...)',
      input: { orgId: r.orgId, docIds: r.docIds, topics },
    });
  }
  list.summary(r);
  return list.steps;
}

/** Plans a request. Pure and deterministic: the same request always gives the same plan. */
export function planRequest(r: AnalysisRequest): Plan {
  const path = choosePath(r);
  switch (path) {
    case 'extraction':
      return { path, steps: planExtraction(r) };
    case 'chain':
      return { path, steps: planChain(r) };
    case 'compliance':
      return { path, steps: planCompliance(r) };
    case 'full_agent':
      return { path, steps: planFullAgent(r) };
  }
}
