import { z } from 'zod';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from './task-queue';
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { AnalysisRequestSchema, type AnalysisRequestInput } from './analysis/request';
import { CitationSchema, NumericClaimSchema } from './analysis/evidence';
import { ValidationSchema } from './analysis/validation-gate';
import { StepResultSchema } from './analysis/step-result';
import { ANALYSIS_STATES } from './analysis/state-machine';
import { PLAN_PATHS, PlannedStepSchema } from './analysis/planner';
import type { ReviewDecisionInput } from './analysis/review';

/**
 * The analysis workflow's contract: wire names, schemas, task queue and id builder. client/,
 * worker.ts and test/ import this file; nothing else names the workflow.
 */
export const ANALYSIS_WORKFLOW = 'analysisWorkflow';
/** The domain's queue under the default base (clients take a base and derive it). */
export const ANALYSIS_TASK_QUEUE = domainTaskQueue(DEFAULT_TASK_QUEUE, 'analysis');

/** Workflow ids are business keys: one run per (org, request id). */
export function analysisWorkflowId(orgId: string, requestId: string): string {
  return `analysis:${orgId}:${requestId}`;
}

export const ANALYSIS_OUTCOMES = [
  'delivered',
  /** Stored while a review is open: the proposed answer has not been released. */
  'awaiting_review',
  'approved',
  'corrected',
  'rejected',
  'expired',
] as const;
export const AnalysisOutcomeSchema = z.enum(ANALYSIS_OUTCOMES);
export type AnalysisOutcome = z.infer<typeof AnalysisOutcomeSchema>;

export const AnswerSchema = z.object({
  text: z.string(),
  value: z.string().nullable(),
  unit: z.string().nullable(),
  claims: z.array(NumericClaimSchema),
  citations: z.array(CitationSchema),
  classification: z.string().nullable(),
});
export type Answer = z.infer<typeof AnswerSchema>;

export const AnalysisResultSchema = z.object({
  requestId: z.string(),
  orgId: z.string(),
  workflowId: z.string(),
  outcome: AnalysisOutcomeSchema,
  /** null when nothing may be released (rejected or expired). */
  answer: AnswerSchema.nullable(),
  confidence: z.number(),
  path: z.enum(PLAN_PATHS),
  validation: ValidationSchema,
  reviewedBy: z.string().nullable(),
  reviewNote: z.string().nullable(),
  remindersSent: z.number().int(),
});
export type AnalysisResult = z.infer<typeof AnalysisResultSchema>;

export const AnalysisStatusSchema = z.enum(['running', 'awaiting_review', 'completed', 'failed']);

export const AnalysisStateViewSchema = z.object({
  requestId: z.string(),
  orgId: z.string(),
  machineState: z.enum(ANALYSIS_STATES),
  trail: z.array(z.enum(ANALYSIS_STATES)),
  status: AnalysisStatusSchema,
  path: z.enum(PLAN_PATHS).nullable(),
  plan: z.array(PlannedStepSchema),
  steps: z.array(StepResultSchema),
  validation: ValidationSchema.nullable(),
  proposedAnswer: AnswerSchema.nullable(),
  review: z.object({
    open: z.boolean(),
    dueAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    remindersSent: z.number().int(),
    decision: z.string().nullable(),
    reviewer: z.string().nullable(),
  }),
  result: AnalysisResultSchema.nullable(),
});
export type AnalysisStateView = z.infer<typeof AnalysisStateViewSchema>;

export { AnalysisRequestSchema };
export type { AnalysisRequestInput };

/** Human decision: an Update, so the reviewer learns at once whether it was accepted (validated, then acknowledged). */
export interface ReviewAck {
  accepted: true;
  outcome: AnalysisOutcome;
}
export const reviewUpdate = defineUpdate<ReviewAck, [ReviewDecisionInput]>('reviewUpdate');
export const stateQuery = defineQuery<AnalysisStateView>('stateQuery');
/**
 * Completes when the run waits for a reviewer or is finished, with its state: the HTTP API
 * waits on it instead of polling the query.
 */
export const analysisSettledUpdate = defineUpdate<AnalysisStateView, []>('analysisSettledUpdate');

export function confidenceBucket(c: number): string {
  if (c >= 0.85) return 'high';
  if (c >= 0.7) return 'medium';
  if (c >= 0.55) return 'low';
  return 'very_low';
}
