import { z } from 'zod';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from './task-queue';
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
/** The domain's queue under the default base (clients take a base and derive it). */
export const GATEWAY_TASK_QUEUE = domainTaskQueue(DEFAULT_TASK_QUEUE, 'gateway');

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
  /** The plan revision this vote signs (absent in runs recorded before revisions: 0). */
  revision: z.number().int().optional(),
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
  /** journal.post_batch: high-risk entries submitted on their own (their submission ids). */
  splitOut: z.array(z.object({ entryKey: z.string(), submissionId: z.string() })).optional(),
});
export type GatewayResult = z.infer<typeof GatewayResultSchema>;

export const GatewayStatusSchema = z.enum([
  'evaluating',
  'awaiting_approval',
  'applying',
  /** A database step outlasted its retry budget: waiting for an operator's resumeUpdate. */
  'suspended',
  'completed',
]);

/** The bank account a payment goes to, as approvers see it and as it is applied. */
export const PayeeViewSchema = z.object({
  bankAccountId: z.string(),
  holderName: z.string(),
  iban: z.string().nullable(),
  accountNumber: z.string().nullable(),
  routingCode: z.string().nullable(),
  bic: z.string().nullable(),
  currency: z.string(),
});
export type PayeeView = z.infer<typeof PayeeViewSchema>;
export interface GatewayStateView {
  submissionId: string;
  orgId: string;
  kind: string;
  status: z.infer<typeof GatewayStatusSchema>;
  risk: RiskAssessmentView | null;
  preview: EntryPreview[];
  payee: PayeeView | null;
  /** The plan revision awaiting (or given) approval, and the hash approvers sign. */
  revision: number;
  planHash: string | null;
  votes: Vote[];
  suspended: { step: string; error: string } | null;
  dueAt: string | null;
  expiresAt: string | null;
  result: GatewayResult | null;
}

export interface ApprovalAck {
  accepted: true;
  approvals: number;
  required: number;
}
/**
 * An approval as sent to the workflow: the decision plus a decision proof — a short-lived
 * token signed by the API or CLI after authenticating the approver, bound to the org, the
 * submission, the approver and the decision. The worker verifies it in an activity.
 */
export type SignedApprovalDecision = ApprovalDecision & { proof?: string };

/** Splits the proof from the decision, so the decision parses with its own strict schema. */
export function splitProof(raw: unknown): { proof: unknown; decision: unknown } {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { proof: undefined, decision: raw };
  const { proof, ...decision } = raw as Record<string, unknown>;
  return { proof, decision };
}

export const ProofSchema = z.string().min(1).max(4000);

/** Human decisions are Updates: the approver learns at once whether the vote counted. */
export const approvalUpdate = defineUpdate<ApprovalAck, [SignedApprovalDecision]>('approvalUpdate');

export const ResumeRequestSchema = z
  .object({ operator: z.string().min(1).max(128), note: z.string().max(4000).optional() })
  .strict();
export type ResumeRequest = z.infer<typeof ResumeRequestSchema>;
/**
 * An operator resumes a submission suspended by an outage: the failed step (idempotent) runs
 * again, with every recorded vote intact. An Update, so the operator learns if it applies.
 */
export const resumeUpdate = defineUpdate<{ resumed: true; step: string }, [ResumeRequest]>(
  'resumeUpdate',
);

/** A suspension and the resume that ended it, as the workflow records them. */
export interface SuspensionRecord {
  submissionId: string;
  orgId: string;
  /** 1, 2, ... within the run. */
  suspension: number;
  step: string;
  error: string;
  suspendedAt: string;
  resumedAt: string;
  resumedBy: string;
  note?: string;
}

/** The worker's retry budget for the gateway's idempotent database activities. */
export interface DbRetrySettings {
  budgetMs: number;
  maximumIntervalMs: number;
}
/** Through an outage of 25 minutes, at most 30 s between attempts. */
export const DEFAULT_DB_RETRY: DbRetrySettings = {
  budgetMs: 25 * 60_000,
  maximumIntervalMs: 30_000,
};

/**
 * How long one run's history may grow while it waits for approval: past this many events
 * (or when the server suggests it) the run continues as new with its state carried over, so
 * a flood of refused votes can never push a submission to Temporal's history limit.
 */
export interface GatewayRunSettings {
  historyEventsPerRun: number;
}
export const DEFAULT_HISTORY_EVENTS_PER_RUN = 2000;

/**
 * What a waiting submission carries into its next run (continue-as-new): the scored plan,
 * every vote, the approval window and reminders, the split-out children. The next run does
 * not evaluate again; it goes straight back to waiting on the same plan revision.
 */
export const GatewayCarryOverSchema = z
  .object({
    risk: RiskAssessmentSchema,
    preview: z.array(EntryPreviewSchema),
    payee: PayeeViewSchema.nullable(),
    revision: z.number().int().min(0),
    planHash: z.string().nullable(),
    votes: z.array(VoteSchema),
    remindersSent: z.number().int().min(0),
    reminded: z.boolean(),
    startedAt: z.number().int(),
    dueAt: z.number().int(),
    expiresAt: z.number().int(),
    suspensions: z.number().int().min(0),
    splitOut: z.array(z.object({ entryKey: z.string(), submissionId: z.string() })),
    /** Runs of this submission before this one. */
    continued: z.number().int().min(1),
  })
  .strict();
export type GatewayCarryOver = z.infer<typeof GatewayCarryOverSchema>;

export const gatewayStateQuery = defineQuery<GatewayStateView>('gatewayStateQuery');
/**
 * Completes when the submission awaits approval or is finished, with its state: callers that
 * answer synchronously (the HTTP API) wait on it instead of polling the query.
 */
export const gatewaySettledUpdate = defineUpdate<GatewayStateView, []>('gatewaySettledUpdate');

export const CsWriteKind = defineSearchAttributeKey('CsWriteKind', SearchAttributeType.KEYWORD);
/** The risk lane a write was scored into (low, moderate, high…): the Web UI's approval filter. */
export const CsRiskLane = defineSearchAttributeKey('CsRiskLane', SearchAttributeType.KEYWORD);
