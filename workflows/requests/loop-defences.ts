import type { CreatedBy, RequestStatus } from './contract';

/**
 * The loop defences around requests and delegation, as small pure decisions; the events
 * dispatch, the agent run and the request client call them where the loop would close.
 */

/** A triage agent only routes: past this many agent-to-agent hops a person decides. */
export const MAX_TRIAGE_HOPS = 2;
/** At most this many completed callback-triggered runs per org in the window. */
export const CALLBACK_RUN_LIMIT = 50;
export const CALLBACK_WINDOW_MS = 30 * 60_000;
/** Identical configuration requests within this window are one request. */
export const CONFIGURATION_DEDUP_WINDOW_MS = 60 * 60_000;
/** A delegation with no open request and none completed this recently lost its callback. */
export const LOST_DELEGATION_QUIET_MS = 30 * 60_000;

/** The payload of a callback event; `requestCallback: true` marks what the breakers count. */
export function callbackPayload(c: {
  requestId: string;
  type: string;
  hop: number;
  createdBy: CreatedBy;
  answer: Record<string, unknown> | null;
  answeredBy: string | null;
}): Record<string, unknown> {
  return {
    requestCallback: true,
    requestId: c.requestId,
    requestType: c.type,
    hop: c.hop,
    createdByRunId: c.createdBy.runId ?? null,
    createdByAgentType: c.createdBy.agentType ?? null,
    answer: c.answer,
    answeredBy: c.answeredBy,
  };
}

/** Whether an agent run's trigger is a request callback (its payload says so). */
export function isCallbackTrigger(trigger: { payload: Record<string, unknown> }): boolean {
  return trigger.payload.requestCallback === true;
}

/**
 * The agent type a request callback resumes (the request's creator), or null: a callback is
 * dispatched to its creator only, so other subscribers of request.completed neither run nor
 * count against the callback breaker.
 */
export function callbackCreatorOf(payload: Record<string, unknown>): string | null {
  if (!isCallbackTrigger({ payload })) return null;
  const t = payload.createdByAgentType;
  return typeof t === 'string' && t.length > 0 ? t : null;
}

/** The next hop of an agent-to-agent hand-off, or a person once the cap is reached. */
export function nextHop(hop: number): { to: 'agent'; hop: number } | { to: 'human'; hop: number } {
  return hop + 1 > MAX_TRIAGE_HOPS ? { to: 'human', hop } : { to: 'agent', hop: hop + 1 };
}

/** The callback breaker: another callback-triggered run would pass the limit. */
export function callbackLimitReached(
  completedInWindow: number,
  limit: number = CALLBACK_RUN_LIMIT,
): boolean {
  return completedInWindow >= limit;
}

/** How far back an identical request of this type is the same request (null: open ones only). */
export function dedupWindowMs(type: string): number | null {
  return type === 'configuration' ? CONFIGURATION_DEDUP_WINDOW_MS : null;
}

/**
 * A run waiting on delegations whose callback never came: nothing is open and nothing
 * completed in the last 30 minutes (a recent completion's callback may still be on its way).
 */
export function delegationLost(
  requests: { status: RequestStatus | string; closedAtMs: number | null }[],
  nowMs: number,
): boolean {
  if (requests.length === 0) return false;
  if (requests.some((r) => r.status === 'open')) return false;
  return !requests.some(
    (r) =>
      r.status === 'completed' &&
      r.closedAtMs !== null &&
      nowMs - r.closedAtMs < LOST_DELEGATION_QUIET_MS,
  );
}

/**
 * A delegation the delegate agent forgot to close: completed with the entity's real id only
 * when the entity really exists; otherwise failed (never completed on a claim).
 */
export function forgottenDelegationOutcome(
  found: { id: string } | null,
): { status: 'completed'; answer: { entityId: string } } | { status: 'failed'; reason: string } {
  return found
    ? { status: 'completed', answer: { entityId: found.id } }
    : { status: 'failed', reason: 'the delegated entity does not exist' };
}

/** The event a delegation is sent as: its delegate agent subscribes to delegation.<type>. */
export function delegationEventType(delegateAgentType: string): string {
  return `delegation.${delegateAgentType}`;
}
