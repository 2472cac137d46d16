import { createHash, randomUUID } from 'node:crypto';
import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Db } from '../db/connection';
import { insertDuplicateEvent } from '../db/repositories/events';
import {
  CsEventType,
  DEFAULT_EXPIRE_AFTER_MS,
  DEFAULT_RETRY_DELAYS_MS,
  EVENT_WORKFLOW,
  EventEnvelopeSchema,
  eventStateQuery,
  eventWorkflowId,
  type EventResult,
  type EventStateView,
  type EventWorkflowInput,
} from '../workflows/events/contract';
import { InvalidRequestError } from './errors';
import {
  checkInputBounds,
  DEFAULT_INPUT_BOUNDS,
  type InputBounds,
} from '../workflows/input-bounds';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../workflows/task-queue';
import { canonicalJson } from '../workflows/canonical-json';
import { CsOrg, CsState } from '../workflows/search-attributes';

/** The event's dedup key: a SHA-256 of its payload as canonical JSON (keys sorted at every level). */
export function dedupKeyOf(payload: unknown): string {
  return createHash('sha256').update(canonicalJson(payload)).digest('hex');
}

/**
 * What an event must be to be stored: the input bounds (no NUL or lone surrogate, which jsonb
 * cannot hold; no prototype keys; finite numbers; depth and keys per object), but sized for
 * payloads that carry a whole statement file or an email's text — their importers bound those.
 */
export const EVENT_BOUNDS: InputBounds = {
  ...DEFAULT_INPUT_BOUNDS,
  maxNodes: 5_000_000,
  maxStringLength: 50_000_000,
};

// The entry point's result and options are the events domain's contract (activities use them).
export type { Accepted, AcceptOptions } from '../workflows/events/entry-point';
import type { Accepted, AcceptOptions } from '../workflows/events/entry-point';

export interface EventsClientOptions {
  /** The deployment's base task queue; events run on its events queue. */
  taskQueue?: string;
  retryDelaysMs?: number[];
  expireAfterMs?: number;
}

/**
 * The one entry point for events, used by the API, connectors, schedules, rules and agents.
 * An event is an eventWorkflow whose id is its (org, type, dedup key): while one is active a
 * second start fails, and the second is recorded as `duplicate` pointing at the first —
 * never silently dropped. A closed event (failed included) does not block its payload.
 */
export class EventsClient {
  constructor(
    private readonly client: Client,
    private readonly db: Db,
    private readonly opts: EventsClientOptions = {},
  ) {}

  async acceptEvent(raw: unknown, opts: AcceptOptions = {}): Promise<Accepted> {
    // Before the schema, as the gateway client and the API do: a payload with a NUL reached
    // the event's workflow, whose jsonb insert cannot store it (found by fuzzing).
    const bounds = checkInputBounds(raw, EVENT_BOUNDS);
    if (!bounds.ok)
      throw new InvalidRequestError(
        `Invalid event: ${bounds.issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
        bounds.issues,
      );
    const parsed = EventEnvelopeSchema.safeParse(raw);
    if (!parsed.success) throw InvalidRequestError.fromZod('event', parsed.error);
    const envelope = parsed.data;
    const dedupKey = dedupKeyOf(envelope.payload);
    const workflowId = eventWorkflowId(envelope.orgId, envelope.type, dedupKey);
    const eventId = opts.eventId ?? `evt_${randomUUID().replace(/-/g, '')}`;
    const acceptedAtMs = Date.now();
    const input: EventWorkflowInput = {
      eventId,
      envelope,
      dedupKey,
      acceptedAtMs,
      retryDelaysMs: this.opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
      expireAfterMs: this.opts.expireAfterMs ?? DEFAULT_EXPIRE_AFTER_MS,
    };
    try {
      await this.client.workflow.start(EVENT_WORKFLOW, {
        args: [input],
        taskQueue: domainTaskQueue(this.opts.taskQueue ?? DEFAULT_TASK_QUEUE, 'events'),
        workflowId,
        // Only an active event blocks its duplicate (FAIL while running); any closed one —
        // completed, ignored, expired or failed — lets the same payload in again, so a
        // failed event can be retried by sending it again.
        workflowIdConflictPolicy: opts.ensure ? 'USE_EXISTING' : 'FAIL',
        workflowIdReusePolicy: opts.once ? 'REJECT_DUPLICATE' : 'ALLOW_DUPLICATE',
        memo: { eventId },
        // Orgs share the queues fairly (server fairness, temporal-dev.yaml): the run tree of
        // this event — its agent runs, their activities — inherits the org as fairness key.
        priority: { fairnessKey: envelope.orgId.slice(0, 64) },
        staticSummary: `${envelope.type} · ${envelope.orgId} · from ${envelope.source}`,
        staticDetails: `**Event** ${eventId}${envelope.causation ? `\n\n**Caused by** ${envelope.causation.agentInstanceId} (hop ${envelope.causation.hop})` : ''}`,
        typedSearchAttributes: [
          { key: CsOrg, value: envelope.orgId },
          { key: CsEventType, value: envelope.type },
          { key: CsState, value: 'pending' },
        ],
      });
      return { eventId, workflowId, status: 'accepted', duplicateOf: null };
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      const desc = await this.client.workflow.getHandle(workflowId).describe();
      const original = String(
        (desc.memo as { eventId?: unknown } | undefined)?.eventId ?? desc.runId,
      );
      // The emitter's own retry: its event exists already, nothing more to record.
      if (opts.eventId && original === opts.eventId)
        return { eventId, workflowId, status: 'accepted', duplicateOf: null };
      await insertDuplicateEvent(this.db, {
        id: eventId,
        orgId: envelope.orgId,
        type: envelope.type,
        source: envelope.source,
        payload: envelope.payload,
        dedupKey,
        workflowId,
        duplicateOf: original,
        causation: envelope.causation ?? null,
        acceptedAt: new Date(acceptedAtMs),
      });
      return { eventId, workflowId, status: 'duplicate', duplicateOf: original };
    }
  }

  /** The event's result once terminal (its state, attempts and agent runs). */
  async result(workflowId: string): Promise<EventResult> {
    return (await this.client.workflow.getHandle(workflowId).result()) as EventResult;
  }

  async state(workflowId: string): Promise<EventStateView> {
    return this.client.workflow.getHandle(workflowId).query(eventStateQuery);
  }
}

/** Functional form of EventsClient.acceptEvent, for callers that hold a client and db. */
export function acceptEvent(
  deps: { client: Client; db: Db } & EventsClientOptions,
  raw: unknown,
): Promise<Accepted> {
  return new EventsClient(deps.client, deps.db, deps).acceptEvent(raw);
}
