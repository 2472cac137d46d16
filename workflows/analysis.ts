import {
  allHandlersFinished,
  condition,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { type AnalysisResult, AnalysisRequestSchema } from './analysis.contract';
import { planRequest, type Plan } from './analysis/planner';
import type { StepResult } from './analysis/step-result';
import type { AnalysisRequest } from './analysis/request';
import { type AnalysisRunState, createRunState } from './analysis/run-state';
import { setupAnalysisHandlers } from './analysis/handlers';
import { bookkeeping } from './analysis/activity-proxies';
import { finishRun, moveTo, recordAudit } from './analysis/run-progress';
import { executeStep } from './analysis/execute-step';
import { type ValidatedOutput, validateOutput } from './analysis/validate-output';
import { reviewAndSettle } from './analysis/human-review';
import { ErrorType, permanentFailure } from './errors';
import { CsOrg, CsQueryType, CsState } from './search-attributes';

/**
 * Answers one analysis request: receive, plan, execute the steps, validate, then deliver or
 * wait for a human. Every side effect is an activity; this function only orchestrates. The
 * run's state lives in one AnalysisRunState (analysis/run-state.ts); each phase takes it.
 */
export async function analysisWorkflow(rawRequest: unknown): Promise<AnalysisResult> {
  const request = parseRequest(rawRequest);
  const state = createRunState(request, workflowInfo().workflowId);
  setupAnalysisHandlers(state);

  await receiveTask(state);
  const plan = await planSteps(state);
  await executeSteps(state, plan);
  const validated = await validateOutput(state, plan);
  if (validated.validation.route === 'DELIVER') return await deliver(state, validated);
  return await reviewAndSettle(state, validated);
}

function parseRequest(rawRequest: unknown): AnalysisRequest {
  const parsed = AnalysisRequestSchema.safeParse(rawRequest);
  if (!parsed.success) {
    throw permanentFailure(
      ErrorType.InvalidRequest,
      `Invalid analysis request: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** RECEIVE_TASK: the org and every document must exist and be ingested. */
async function receiveTask(state: AnalysisRunState): Promise<void> {
  const { request, machine, workflowId } = state;
  upsertSearchAttributes([
    { key: CsOrg, value: request.orgId },
    { key: CsQueryType, value: request.queryType },
    { key: CsState, value: machine.state },
  ]);
  setCurrentDetails(`**RECEIVE_TASK** — ${request.queryType} on ${request.docIds.join(', ')}`);
  const documents = await bookkeeping.receiveRequest({ request, workflowId });
  await recordAudit(state, 'request', { request, documents });
}

/** PLAN: the rule-based planner maps the request to a path and its steps. */
async function planSteps(state: AnalysisRunState): Promise<Plan> {
  moveTo(state, 'PLAN', 'rule-based planner');
  const plan = planRequest(state.request);
  state.plan = plan;
  await recordAudit(state, 'plan', plan);
  return plan;
}

/** EXECUTE_STEP, once per step, in plan order; a retrieval asked twice is answered once. */
async function executeSteps(state: AnalysisRunState, plan: Plan): Promise<void> {
  const retrievalCache = new Map<string, StepResult>();
  for (const step of plan.steps) {
    moveTo(state, 'EXECUTE_STEP', `${step.id} ${step.tool}: ${step.purpose}`);
    const stepResult = await executeStep(step, state.steps, retrievalCache);
    state.steps.push(stepResult);
    await recordAudit(state, `step:${step.id}`, { step, result: stepResult });
  }
}

/** DELIVER: the validated answer is the result, no person needed. */
async function deliver(
  state: AnalysisRunState,
  validated: ValidatedOutput,
): Promise<AnalysisResult> {
  moveTo(state, 'DELIVER', `delivered at confidence ${validated.confidence.toFixed(2)}`);
  const delivered = await finishRun(
    state,
    validated.confidence,
    'delivered',
    validated.answer,
    undefined,
  );
  await condition(allHandlersFinished);
  return delivered;
}
