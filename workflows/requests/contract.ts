import { z } from 'zod';
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../task-queue';
import { AnswerSchemaSchema, type Answer } from './answer-schema';

export { AnswerSchemaSchema, checkAnswer, type Answer, type AnswerSchema } from './answer-schema';

/**
 * The requests domain's contract: a question to a person (or, for delegation, to another
 * agent) as a durable record — its types, create and answer inputs, the request workflow's
 * wire names, signal, update, query, task queue and id builder. client/, activities/, agents
 * and test/ import this file.
 */
/** The domain's queue under the default base (clients take a base and derive it). */
export const REQUESTS_TASK_QUEUE = domainTaskQueue(DEFAULT_TASK_QUEUE, 'requests');
export const REQUEST_WORKFLOW = 'requestWorkflow';

export const REQUEST_TYPES = [
  'approval',
  'verification',
  'master_data',
  'configuration',
  'classification',
  'delegation',
  'review',
] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const REQUEST_STATUSES = ['open', 'completed', 'expired', 'failed', 'cancelled'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** How the assignee was found: the one named, else the org's owner, else any admin. */
export const ROUTES = ['assignee', 'owner', 'admin', 'unrouted'] as const;
export type Route = (typeof ROUTES)[number];

export const DEFAULT_DUE_IN_DAYS = 14;
export const DEFAULT_EXPIRES_IN_DAYS = 90;
export const DEFAULT_REMIND_EVERY_DAYS = 7;
export const DAY_MS = 86_400_000;

/** The event a completed request emits so the creating agent instance resumes. */
export const REQUEST_COMPLETED_EVENT = 'request.completed';

const Id = z.string().min(1).max(300);
const OrgId = z.string().min(1).max(128);
const UserId = z.string().min(1).max(128);

export const CreatedBySchema = z
  .object({
    runId: Id.optional(),
    agentType: z.string().min(1).max(100).optional(),
    workflowId: Id.optional(),
    userId: UserId.optional(),
  })
  .strict();
export type CreatedBy = z.infer<typeof CreatedBySchema>;

export const CallbackSchema = z
  .object({
    /** Emitted on completion (default request.completed; null: no event). */
    eventType: z
      .string()
      .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/)
      .max(100)
      .nullable()
      .default(REQUEST_COMPLETED_EVENT),
    /** Signal this workflow (requestCompletedSignal) when the request closes. */
    signalWorkflowId: Id.optional(),
  })
  .strict();

/** What an existing workflow waits on when the request is its inbox entry (one inbox). */
export const LinkSchema = z
  .object({
    kind: z.enum(['gateway_approval', 'analysis_review']),
    workflowId: Id,
    /** The gateway submission's idempotency key or the analysis request id. */
    key: Id,
  })
  .strict();
export type RequestLink = z.infer<typeof LinkSchema>;

export const CreateRequestSchema = z
  .object({
    orgId: OrgId,
    /** Optional: generated when absent (or derived from dedupKey). */
    requestId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/)
      .optional(),
    type: z.enum(REQUEST_TYPES),
    title: z.string().min(1).max(300),
    question: z.string().min(1).max(10_000),
    answerSchema: AnswerSchemaSchema,
    evidence: z.record(z.string(), z.unknown()).default({}),
    assigneeUserId: UserId.optional(),
    createdBy: CreatedBySchema.default({}),
    callback: CallbackSchema.default({ eventType: REQUEST_COMPLETED_EVENT }),
    dueInDays: z.number().int().min(1).max(365).default(DEFAULT_DUE_IN_DAYS),
    expiresInDays: z.number().int().min(1).max(1825).default(DEFAULT_EXPIRES_IN_DAYS),
    remindEveryDays: z.number().int().min(1).max(365).default(DEFAULT_REMIND_EVERY_DAYS),
    dedupKey: z.string().min(1).max(200).optional(),
    /** Agent-to-agent hops that led here (triage → agent → ...); capped, then a person. */
    hop: z.number().int().min(0).max(10).default(0),
    /** delegation: the agent type asked to do the work (it answers instead of a person). */
    delegateAgentType: z.string().min(1).max(100).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.expiresInDays <= r.dueInDays)
      ctx.addIssue({
        code: 'custom',
        path: ['expiresInDays'],
        message: 'expiry must come after the due date',
      });
    if (r.type === 'delegation' && !r.delegateAgentType)
      ctx.addIssue({
        code: 'custom',
        path: ['delegateAgentType'],
        message: 'a delegation names the agent type it delegates to',
      });
    if (r.type !== 'delegation' && r.delegateAgentType)
      ctx.addIssue({
        code: 'custom',
        path: ['delegateAgentType'],
        message: 'only a delegation names an agent type',
      });
  });
export type CreateRequestInput = z.input<typeof CreateRequestSchema>;
export type CreateRequest = z.output<typeof CreateRequestSchema>;

/** The request workflow's input: the parsed request with its id (and the client's send time). */
export interface RequestWorkflowInput {
  request: CreateRequest & { requestId: string };
  /** When the client sent it (informational: due and expiry count from the workflow's start). */
  createdAtMs: number;
}

export const AnswerInputSchema = z
  .object({
    requestId: Id,
    orgId: OrgId,
    /** The person answering (a user id), or `agent:<type>` for a delegation's agent. */
    answeredBy: UserId,
    answer: z.record(z.string(), z.unknown()).optional(),
    text: z.string().min(1).max(10_000).optional(),
  })
  .strict()
  .refine((a) => (a.answer === undefined) !== (a.text === undefined), {
    message: 'an answer is either structured (answer) or free text (text), exactly one',
    path: ['answer'],
  });
export type AnswerInput = z.infer<typeof AnswerInputSchema>;

/**
 * What became of one answer: `answered` (the request is complete), `unclear` (free text that
 * did not fill the form — the request stays open and a re-ask is recorded), `refused` (free
 * text that tries to decide something else: another request, another amount).
 */
export interface AnswerAck {
  status: 'answered' | 'unclear' | 'refused';
  requestId: string;
  answer: Answer | null;
  reason: string | null;
  parsedBy: 'structured' | 'rules' | 'model' | null;
}

export interface RequestView {
  requestId: string;
  orgId: string;
  type: RequestType;
  title: string;
  status: RequestStatus;
  assigneeUserId: string | null;
  route: Route | null;
  routeDetail: string | null;
  remindersSent: number;
  reasks: number;
  dueAt: string;
  expiresAt: string;
  answer: Answer | null;
  answeredBy: string | null;
}
export type RequestResult = RequestView;

/** Sent to createdBy's / callback's workflow when the request closes. */
export interface RequestCompletedPayload {
  requestId: string;
  orgId: string;
  status: RequestStatus;
  answer: Answer | null;
  answeredBy: string | null;
}

// An Update, not a Signal: the person learns at once whether the answer counted, was
// unclear (and re-asked), or was refused; the validator rejects malformed answers before
// anything reaches history.
export const answerRequestUpdate = defineUpdate<AnswerAck, [AnswerInput]>('answerRequestUpdate');
/** Closes an open request without an answer (a forgotten delegation whose entity is missing). */
export interface FailRequestInput {
  reason: string;
  by: string;
}
export const failRequestUpdate = defineUpdate<RequestView, [FailRequestInput]>('failRequestUpdate');
export const requestStateQuery = defineQuery<RequestView>('requestStateQuery');
/**
 * Returns once the request is stored and routed (its row and `opened` event written): the
 * client waits on it after starting, so whoever created a request can read it back — from the
 * inbox, a scan, the API — the moment createRequest returns. A handler only: recorded
 * histories replay unchanged.
 */
export const requestStoredUpdate = defineUpdate<RequestView, []>('requestStoredUpdate');
export const requestCompletedSignal =
  defineSignal<[RequestCompletedPayload]>('requestCompletedSignal');

/** One workflow per request, keyed by org and request id. */
export function requestWorkflowId(orgId: string, requestId: string): string {
  return `request:${orgId}:${requestId}`;
}
