/**
 * The activities the gateway workflow calls, each proxy with its timeouts and retry policy,
 * and how a run picks the retry budget of its database steps: read once per run from the
 * worker (a recorded activity result, so replay-safe).
 */
import { patched, proxyActivities } from '@temporalio/workflow';
import type { GatewayActivities } from '../../activities/gateway';
import type { IdentityActivities } from '../../activities/identity';
import { type DbRetrySettings, DEFAULT_DB_RETRY } from '../gateway.contract';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';

// The worker's retry budget, read once per run (a recorded activity result, so replay-safe).
const settingsActivity = proxyActivities<GatewayActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});
// Decision proofs are checked where the signing secret lives: in an activity.
export const identity = proxyActivities<IdentityActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    maximumAttempts: 5,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Reminders a person sees: few attempts.
export const notify = proxyActivities<GatewayActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

/**
 * Database bookkeeping and the apply: idempotent, so they retry without an attempt limit
 * for the whole budget (an outage of 25 minutes by default), never more than the maximum
 * interval apart; typed refusals are non-retryable. They heartbeat, so a killed worker's
 * attempt is retried elsewhere within seconds, not after the 60 s start-to-close timeout.
 */
function dbActivities(s: DbRetrySettings) {
  return proxyActivities<GatewayActivities>({
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

/** The gateway's activities as one run calls them. */
export type GatewayProxy = ReturnType<typeof dbActivities>;

/** What a run reaches the database through, once its retry budget is known. */
export interface GatewaySteps {
  /** The database steps, under the worker's retry budget. */
  db: GatewayProxy;
  /** Where the run reads the worker's settings (its history limit, later). */
  settings: GatewayProxy;
}

/**
 * Picks the settings activity and reads the retry budget (the run's first await); the steps
 * are also left on the state for the approval handler, registered before this.
 */
export async function connectDatabaseSteps(state: {
  db: GatewayProxy | null;
}): Promise<GatewaySteps> {
  // Runs recorded before the retry budget came from the worker keep the old fixed policy.
  // Since the payload codec, even a settings result is encrypted under a data key kept in
  // PostgreSQL: a worker that starts during an outage holds no key yet, and five quick
  // attempts failed the run. New runs ask for the settings like a database step.
  const settings = patched('gateway-settings-outlast-outage')
    ? dbActivities(DEFAULT_DB_RETRY)
    : settingsActivity;
  const retrySettings = patched('gateway-db-retry-settings')
    ? await settings.gatewayRetrySettings()
    : DEFAULT_DB_RETRY;
  const db = dbActivities(retrySettings);
  state.db = db;
  return { db, settings };
}
