import type { EventEnvelopeInput } from './contract';

/**
 * The events domain's entry point as other domains' activities call it: accept an event (start
 * its workflow). client/events-client.ts's EventsClient is the implementation; activities get
 * one injected by the process composing them (domains/), so they never import client/.
 */
export interface EventAcceptor {
  acceptEvent(raw: EventEnvelopeInput, opts?: AcceptOptions): Promise<Accepted>;
}

export interface Accepted {
  eventId: string;
  workflowId: string;
  status: 'accepted' | 'duplicate';
  /** For a duplicate: the active event it duplicates. */
  duplicateOf: string | null;
}

/**
 * For emitters that may retry (schedules, applied writes, agents): a deterministic event id,
 * and `once` — the event's workflow id can never start again, closed or not. A retried
 * emission then finds its own event and reports it accepted, so it is accepted exactly once.
 */
export interface AcceptOptions {
  eventId?: string;
  once?: boolean;
  /**
   * The outbox's hand-over: a running workflow under the event's id is this event (the id
   * derives from its payload, which names its origin), so it is used as it is (conflict
   * policy USE_EXISTING) instead of failing the start; a closed one is found by its memo.
   */
  ensure?: boolean;
}
