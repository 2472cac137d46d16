import { z } from '@hono/zod-openapi';
import { EVENT_SOURCES, EventTypeSchema } from '../workflows/events/contract';
import { DateSchema } from '../workflows/gateway/writes';
import { ORG_ID_PATTERN } from '../workflows/org-id';

/**
 * The API's request and response schemas: the single source of validation and of the
 * OpenAPI document at /openapi.json. Bodies the workflows own (a write's payload, an
 * analysis request) are checked again, in full, by the gateway and the analysis client.
 */
const Id = z.string().min(1).max(200);

export const OrgParams = z.object({
  org: z
    .string()
    .regex(ORG_ID_PATTERN, 'an org id is 1–64 of a-z, 0-9, _ and -')
    .openapi({ param: { name: 'org', in: 'path' }, example: 'acme' }),
});
export const WriteParams = OrgParams.extend({
  key: Id.openapi({ param: { name: 'key', in: 'path' }, example: 'inv-2026-0042' }),
});
export const AnalysisParams = OrgParams.extend({
  requestId: Id.openapi({ param: { name: 'requestId', in: 'path' } }),
});
export const EventParams = OrgParams.extend({
  eventId: Id.openapi({ param: { name: 'eventId', in: 'path' } }),
});
export const RunParams = OrgParams.extend({
  runId: Id.openapi({ param: { name: 'runId', in: 'path' } }),
});

export const WriteBody = z
  .object({
    idempotencyKey: z.string(),
    kind: z.string().openapi({ example: 'journal.post' }),
    payload: z.unknown(),
    source: z.unknown().optional(),
    approval: z.unknown().optional(),
    /** For an agent key: the run that makes this write (attribution), chosen by the agent. */
    agentInstanceId: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,200}$/)
      .optional(),
  })
  .strict()
  .openapi('WriteSubmission');

export const WriteQuery = z.object({
  dryRun: z.enum(['true', 'false']).optional(),
});

export const DecisionBody = z
  .object({
    decision: z.enum(['approve', 'reject']),
    note: z.string().max(4000).optional(),
    /** The plan the decision is about, as shown (the write's state: `revision`, `planHash`). */
    revision: z.number().int().min(0),
    planHash: z.string().regex(/^[0-9a-f]{64}$/, 'a plan hash (64 hex digits)'),
  })
  .strict()
  .openapi('ApprovalDecision');

export const AnalysisBody = z
  .object({ request: z.record(z.string(), z.unknown()) })
  .strict()
  .openapi('AnalysisSubmission');

export const ReviewBody = z
  .object({
    decision: z.enum(['approve', 'reject', 'correct']),
    note: z.string().max(4000).optional(),
    corrections: z
      .array(
        z.object({ claimId: z.string(), value: z.string(), unit: z.string().optional() }).strict(),
      )
      .optional(),
  })
  .strict()
  .openapi('ReviewDecision');

export const EventBody = z
  .object({
    type: EventTypeSchema,
    source: z.enum(EVENT_SOURCES),
    payload: z.record(z.string(), z.unknown()),
  })
  .strict()
  .openapi('EventSubmission');

/** A calendar date (the database refused 2026-13-45 with a 500 until fuzzing found it). */
export const TrialBalanceQuery = z.object({
  asOf: DateSchema.optional(),
});

export const WriteListQuery = z.object({
  status: z
    .enum(['awaiting_approval', 'approved', 'applied', 'rejected', 'expired', 'failed'])
    .optional(),
  limit: z.coerce.number().int().min(1).max(500).optional(),
});

export const CostQuery = z.object({
  by: z.enum(['run', 'agent', 'month']).default('agent'),
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .optional(),
});

export const LoginBody = z
  .object({ apiKey: z.string().min(1).max(300) })
  .strict()
  .openapi('Login');

/** A response whose shape is the workflow's own view (documented by its TypeScript type). */
export const AnyObject = z.record(z.string(), z.unknown());

export const SubmitResponse = z
  .object({
    submissionId: z.string(),
    workflowId: z.string(),
    started: z.boolean(),
    joined: z.boolean(),
    /** The submission's state once it awaits approval or is finished; null if still evaluating. */
    state: AnyObject.nullable(),
  })
  .openapi('SubmitResponse');

export const AnalysisStartResponse = z
  .object({ workflowId: z.string(), started: z.boolean(), state: AnyObject.nullable() })
  .openapi('AnalysisStartResponse');

export const EventAcceptedResponse = z
  .object({
    eventId: z.string(),
    workflowId: z.string(),
    status: z.enum(['accepted', 'duplicate']),
    duplicateOf: z.string().nullable(),
  })
  .openapi('EventAccepted');

export const QueueStatsResponse = z
  .object({
    orgId: z.string(),
    taskQueue: z.string(),
    /** Tasks waiting in the Temporal task queue (null when the server does not report it). */
    backlog: z.object({ workflow: z.number().nullable(), activity: z.number().nullable() }),
    /** The same per queue: each domain's (`<base>-<domain>`) and the slots'. */
    queues: z.record(
      z.string(),
      z.object({ workflow: z.number().nullable(), activity: z.number().nullable() }),
    ),
    submissions: z.record(z.string(), z.number()),
    analyses: z.record(z.string(), z.number()),
    events: z.record(z.string(), z.number()),
    agentRuns: z.record(z.string(), z.number()),
  })
  .openapi('QueueStats');

export const CostRow = z.object({
  key: z.string(),
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cacheCreationTokens: z.number(),
  cacheReadTokens: z.number(),
  /** Micro-dollars as a decimal string (never a float). */
  costMicroUsd: z.string(),
  costUsd: z.string(),
});
export const CostResponse = z
  .object({
    orgId: z.string(),
    by: z.string(),
    month: z.string().nullable(),
    rows: z.array(CostRow),
  })
  .openapi('CostRollup');

export const RequestParams = OrgParams.extend({
  requestId: Id.openapi({ param: { name: 'requestId', in: 'path' } }),
});

/** An answer fills the request's form (`answer`) or is free text the request reads (`text`). */
export const AnswerBody = z
  .object({
    answer: z.record(z.string(), z.unknown()).optional(),
    text: z.string().min(1).max(10_000).optional(),
  })
  .strict()
  .refine((a) => (a.answer === undefined) !== (a.text === undefined), {
    message: 'an answer is either structured (answer) or free text (text), exactly one',
    path: ['answer'],
  })
  .openapi('RequestAnswer');

/** Who delivered a statement file, and its name (used in every error message). */
export const StatementQuery = z.object({
  connector: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'a connector id such as bank-a'),
  file: z.string().min(1).max(200),
});
