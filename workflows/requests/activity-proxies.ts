/**
 * The request workflow's activity proxies — bookkeeping, notices, the free-text reader and the
 * callback events, each with its own timeout and retry policy — and the message an activity
 * failure carries. Activities are imported as types only.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  proxyLocalActivities,
} from '@temporalio/workflow';
import type { RequestsActivities } from '../../activities/requests';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';

// Bookkeeping: quick idempotent rows keyed by request id and the workflow's own counter.
export const book = proxyLocalActivities<RequestsActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Notifications a person sees: few attempts; a broken channel never loses the request.
export const notify = proxyActivities<RequestsActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Reading free text may call a small model: bounded, its reply stored per attempt key.
export const reader = proxyActivities<RequestsActivities>({
  startToCloseTimeout: '2m',
  retry: {
    initialInterval: '2s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// The callback event goes through the events client (its own dedup makes a retry harmless).
export const callback = proxyActivities<RequestsActivities>({
  startToCloseTimeout: '1m',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

/** The failure's own message: an activity's application failure, not the wrapper's. */
export const messageOf = (err: unknown): string =>
  err instanceof ActivityFailure && err.cause instanceof ApplicationFailure
    ? err.cause.message
    : err instanceof Error
      ? err.message
      : String(err);
