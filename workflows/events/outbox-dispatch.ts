import { proxyActivities } from '@temporalio/workflow';
import type { OutboxActivities } from '../../activities/events/outbox';
import type { OutboxDispatchReport } from '../../activities/events/outbox';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import { OUTBOX_BATCH, OUTBOX_GRACE_MS } from './outbox-contract';

// A failed round is not retried for long: the next firing (every 30 s) is the retry.
const act = proxyActivities<OutboxActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '30s',
  retry: {
    initialInterval: '2s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

/**
 * One round of the outbox dispatcher, fired by its Schedule: starts the event workflow of
 * every outbox event nobody handed over (the apply's in-line hand-over failed, or its
 * process died right after the commit).
 */
export async function outboxDispatchWorkflow(): Promise<OutboxDispatchReport> {
  return act.eventOutboxDispatch({ graceMs: OUTBOX_GRACE_MS, limit: OUTBOX_BATCH });
}
