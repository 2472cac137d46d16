import { z } from 'zod';
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../task-queue';

/**
 * The events domain's contract: the event envelope, the event workflow's wire names, input,
 * result, task queue and id builder. client/, activities/ and test/ import this file.
 */
/** The domain's queue under the default base (clients take a base and derive it). */
export const EVENTS_TASK_QUEUE = domainTaskQueue(DEFAULT_TASK_QUEUE, 'events');
export const EVENT_WORKFLOW = 'eventWorkflow';

export const EVENT_SOURCES = ['email', 'schedule', 'connector', 'rule', 'agent'] as const;
export const EVENT_STATES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'ignored',
  'expired',
  'duplicate',
] as const;
export type EventState = (typeof EVENT_STATES)[number];
export const TERMINAL_EVENT_STATES: readonly EventState[] = [
  'completed',
  'failed',
  'ignored',
  'expired',
  'duplicate',
];

/** Agent-to-agent chains carry their hop count; past MAX_EVENT_HOPS a person decides. */
export const MAX_EVENT_HOPS = 2;

export const EventTypeSchema = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/,
    'a dotted lower-case event type such as document.received',
  )
  .max(100);

export const EventEnvelopeSchema = z
  .object({
    orgId: z.string().min(1).max(128),
    type: EventTypeSchema,
    source: z.enum(EVENT_SOURCES),
    payload: z.record(z.string(), z.unknown()),
    causation: z
      .object({
        agentInstanceId: z.string().min(1).max(300),
        hop: z.number().int().min(1).max(MAX_EVENT_HOPS),
      })
      .strict()
      .optional(),
  })
  .strict();
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;
export type EventEnvelopeInput = z.input<typeof EventEnvelopeSchema>;

/** Default retry schedule of a failed agent run: 60 s, 300 s, 900 s. */
export const DEFAULT_RETRY_DELAYS_MS = [60_000, 300_000, 900_000];
/** An event that cannot start its agent runs within this time expires. */
export const DEFAULT_EXPIRE_AFTER_MS = 7 * 24 * 60 * 60 * 1000;

export const EventWorkflowInputSchema = z
  .object({
    eventId: z.string().min(1),
    envelope: EventEnvelopeSchema,
    dedupKey: z.string().regex(/^[0-9a-f]{64}$/),
    acceptedAtMs: z.number().int().nonnegative(),
    retryDelaysMs: z.array(z.number().int().nonnegative()).max(10),
    expireAfterMs: z.number().int().positive(),
  })
  .strict();
export type EventWorkflowInput = z.infer<typeof EventWorkflowInputSchema>;

export interface EventRunSummary {
  agentType: string;
  attempt: number;
  runId: string;
  state: string;
  outcome: string | null;
  reason: string | null;
}
export interface EventResult {
  eventId: string;
  state: EventState;
  attempts: number;
  runs: EventRunSummary[];
  detail: string | null;
}
export interface EventStateView {
  eventId: string;
  state: EventState;
  attempts: number;
  runs: EventRunSummary[];
  /**
   * A database step that outlasted the outage budget (the gateway's, DB_RETRY_BUDGET_MS):
   * the event waits, visible as CsState `suspended`, until an operator resumes it.
   */
  suspended?: { step: string; error: string } | null;
}

export const eventStateQuery = defineQuery<EventStateView>('eventStateQuery');

/** The search-attribute state of an event waiting for an operator after an outage. */
export const EVENT_SUSPENDED = 'suspended';

export const EventResumeRequestSchema = z
  .object({ operator: z.string().min(1).max(128), note: z.string().max(4000).optional() })
  .strict();
export type EventResumeRequest = z.infer<typeof EventResumeRequestSchema>;
/**
 * An operator resumes an event suspended by an outage: the failed step (idempotent) runs
 * again with a fresh budget. An Update, so the operator learns at once whether it applied.
 */
export const eventResumeUpdate = defineUpdate<
  { resumed: true; step: string },
  [EventResumeRequest]
>('eventResumeUpdate');

/**
 * One open event per (org, type, dedup key): the id is the dedup key. The client starts it
 * with conflict policy FAIL (an active event blocks its duplicate) and reuse policy
 * ALLOW_DUPLICATE (a closed one — failed included — does not).
 */
export function eventWorkflowId(orgId: string, type: string, dedupKey: string): string {
  return `event:${orgId}:${type}:${dedupKey}`;
}

export const CsEventType = defineSearchAttributeKey('CsEventType', SearchAttributeType.KEYWORD);
