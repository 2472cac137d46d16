/**
 * The analysis workflow's activity proxies, each with its own timeout and retry policy, and
 * the message an activity failure carries. Workflow code calls activities only through these;
 * activities are imported as types only.
 */
import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { createAnalysisActivities } from '../../activities/analysis';
import type { IdentityActivities } from '../../activities/identity';
import { TOOL_POLICIES, type ToolName } from './tool-registry';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';

type AnalysisActivities = ReturnType<typeof createAnalysisActivities>;

// Bookkeeping (request row, audit rows, results, reviewer checks): quick, idempotent, and
// retried long enough to ride out a database restart.
// A reviewer's decision proof is checked where the signing secret lives: in an activity.
export const identity = proxyActivities<IdentityActivities>({
  startToCloseTimeout: '10s',
  retry: {
    initialInterval: '200ms',
    maximumAttempts: 5,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
export const bookkeeping = proxyActivities<AnalysisActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '30s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

// Notifications a person sees: few attempts, so a broken channel cannot spam.
export const notify = proxyActivities<AnalysisActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

// Each tool gets its own timeout and retry limit from the registry.
function toolActivity<T extends ToolName>(tool: T): (input: unknown) => Promise<unknown> {
  const policy = TOOL_POLICIES[tool];
  const proxies = proxyActivities<AnalysisActivities>({
    startToCloseTimeout: policy.startToCloseTimeoutMs,
    retry: {
      initialInterval: '1s',
      backoffCoefficient: 2,
      maximumInterval: '20s',
      maximumAttempts: policy.retryLimit + 1,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });
  return proxies[tool] as (input: unknown) => Promise<unknown>;
}

export const TOOLS: Record<ToolName, (input: unknown) => Promise<unknown>> = {
  retrieve_context: toolActivity('retrieve_context'),
  extract_metric: toolActivity('extract_metric'),
  compare_frameworks: toolActivity('compare_frameworks'),
  flag_disclosure: toolActivity('flag_disclosure'),
  generate_summary: toolActivity('generate_summary'),
  validate_citation: toolActivity('validate_citation'),
};

/** The failure's own message: an activity failure's cause, not the wrapper's. */
export function messageOf(err: unknown): string {
  if (err instanceof ActivityFailure && err.cause) return err.cause.message;
  return err instanceof Error ? err.message : String(err);
}
