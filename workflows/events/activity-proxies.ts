/**
 * The event workflow's activity proxies: the quick local bookkeeping steps, the settings read
 * once a step has failed, and the server-side steps that outlast an outage under the
 * gateway's budget. Activities are imported as types only.
 */
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { EventsActivities } from '../../activities/events';
import type { DbRetrySettings } from '../gateway.contract';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';

// Bookkeeping rows are quick, idempotent database writes: local activities, so recording a
// state costs no round trip through the server (pickup latency and throughput both gain).
export const book = proxyLocalActivities<EventsActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

/** The events activities as a database step calls them (locally or on the server). */
export type EventsBook = typeof book;

// The outage budget is read only once a step has failed: the usual path pays nothing for it.
export const settings = proxyLocalActivities<EventsActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

/**
 * The same steps once the quick local retries are spent (an outage past ~45 s): activities
 * on the server that retry without an attempt limit for the gateway's whole budget (25
 * minutes by default), never more than the maximum interval apart, heartbeating so a killed
 * worker's attempt moves on within seconds. Visible in the UI as a pending activity.
 */
export function durableBook(s: DbRetrySettings) {
  return proxyActivities<EventsActivities>({
    startToCloseTimeout: '60s',
    heartbeatTimeout: '10s',
    scheduleToCloseTimeout: s.budgetMs,
    retry: {
      initialInterval: Math.min(500, s.maximumIntervalMs),
      backoffCoefficient: 2,
      maximumInterval: s.maximumIntervalMs,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });
}

/** What the plan-dispatch step answers: the agents to run, their limits, or why none may. */
export type DispatchPlan = Awaited<ReturnType<EventsActivities['eventPlanDispatch']>>;
