// The activities an agent run calls, one proxy per kind of call with its own timeouts and
// retries. Every call site uses the proxy named here: a call's options are part of history.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { AgentRunsActivities } from '../../activities/agent-runs';
import type { RequestsActivities } from '../../activities/requests';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import { taskQueueOf } from '../domain-routing';

// Run bookkeeping: quick, idempotent database writes (keyed by run id and the workflow's own
// counters), run as local activities so a state change costs no round trip via the server.
export const book = proxyLocalActivities<AgentRunsActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Read tools: bounded; a failing tool is reported to the agent, not retried forever.
export const toolActivities = proxyActivities<AgentRunsActivities>({
  startToCloseTimeout: '2m',
  // The activity heartbeats while it waits: a dead worker's call moves on within seconds.
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '1s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// The analysis pipeline settles within minutes (delivered, or waiting for a reviewer).
export const analysisActivities = proxyActivities<AgentRunsActivities>({
  startToCloseTimeout: '10m',
  // The activity heartbeats while it waits: a dead worker's call moves on within seconds.
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '2s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Model calls: few attempts (each is money); the activity returns a stored reply on retry.
export const modelActivities = proxyActivities<AgentRunsActivities>({
  startToCloseTimeout: '5m',
  // The activity heartbeats while it waits: a dead worker's call moves on within seconds.
  heartbeatTimeout: '10s',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

// Creating a request: one quick start of the request workflow, joined again on retry. The
// requests domain's activity, on its queue.
export const requestActivities = () =>
  proxyActivities<RequestsActivities>({
    taskQueue: taskQueueOf('requests'),
    startToCloseTimeout: '1m',
    retry: {
      initialInterval: '1s',
      maximumAttempts: 5,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });
