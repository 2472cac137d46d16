import { z } from 'zod';
import { DEFAULT_TASK_QUEUE } from './task-queue';
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { LANES } from './gateway/risk';
import type { ApprovalDecision } from './gateway/writes';

export {
  parseWrite,
  ApprovalDecisionSchema,
  WRITE_KINDS,
  type GatewayWrite,
  type GatewayWriteInput,
  type ApprovalDecision,
  type Submitter,
} from './gateway/writes';

/**
 * The write gateway's contract: wire names, schemas, task queue and id builder. One
 * gatewayWorkflow run is one submission; client/, worker.ts and test/ import this file.
 */
export const GATEWAY_WORKFLOW = 'gatewayWorkflow';
export const GATEWAY_TASK_QUEUE = DEFAULT_TASK_QUEUE;

/**
 * Submission ids are business keys: one per (org, idempotency key). The same id is the
 * journal entries' idempotency key, so a write posts at most once whatever retries happen.
 */
export function gatewayWorkflowId(orgId: string, idempotencyKey: string): string {
  return `gateway:${orgId}:${idempotencyKey}`;
}

export const GATEWAY_OUTCOMES = ['applied', 'rejected', 'expired'] as const;
export const GatewayOutcomeSchema = z.enum(GATEWAY_OUTCOMES);
export type GatewayOutcome = z.infer<typeof GatewayOutcomeSchema>;

export const FiredRuleSchema = z.object({
  rule: z.string(),
  lane: z.enum(LANES),
  points: z.number(),
  detail: z.string(),
});
export const RiskAssessmentSchema = z.object({
  score: z.number().int(),
  lane: z.enum(LANES),
  requiredApprovals: z.number().int(),
  rules: z.array(FiredRuleSchema),
});
export type RiskAssessmentView = z.infer<typeof RiskAssessmentSchema>;

export const EntryPreviewSchema = z.object({
  entryId: z.string(),
  entryDate: z.string(),
  memo: z.string(),
  reversalOf: z.string().nullable(),
  lines: z.array(
    z.object({
      accountId: z.string(),
      currency: z.string(),
      debit: z.string(),
      credit: z.string(),
      memo: z.string().nullable(),
    }),
  ),
});
export type EntryPreview = z.infer<typeof EntryPreviewSchema>;

export const EffectSchema = z.object({
  entityType: z.string(),
  entityId: z.string(),
  action: z.string(),
});
export type Effect = z.infer<typeof EffectSchema>;

export const VoteSchema = z.object({
  userId: z.string(),
  decision: z.enum(['approve', 'reject']),
  note: z.string().nullable(),
  decidedAt: z.string(),
});
export type Vote = z.infer<typeof VoteSchema>;

export const GatewayResultSchema = z.object({
  submissionId: z.string(),
  orgId: z.string(),
  kind: z.string(),
  outcome: GatewayOutcomeSchema,
  risk: RiskAssessmentSchema,
  votes: z.array(VoteSchema),
  effects: z.array(EffectSchema),
  entryIds: z.array(z.string()),
  remindersSent: z.number().int(),
});
export type GatewayResult = z.infer<typeof GatewayResultSchema>;

export const GatewayStatusSchema = z.enum([
  'evaluating',
  'awaiting_approval',
  'applying',
  'completed',
]);
export interface GatewayStateView {
  submissionId: string;
  orgId: string;
  kind: string;
  status: z.infer<typeof GatewayStatusSchema>;
  risk: RiskAssessmentView | null;
  preview: EntryPreview[];
  votes: Vote[];
  dueAt: string | null;
  expiresAt: string | null;
  result: GatewayResult | null;
}

export interface ApprovalAck {
  accepted: true;
  approvals: number;
  required: number;
}
/** Human decisions are Updates: the approver learns at once whether the vote counted. */
export const approvalUpdate = defineUpdate<ApprovalAck, [ApprovalDecision]>('approvalUpdate');
export const gatewayStateQuery = defineQuery<GatewayStateView>('gatewayStateQuery');

export const CsWriteKind = defineSearchAttributeKey('CsWriteKind', SearchAttributeType.KEYWORD);
