import { proxyActivities } from '@temporalio/workflow';
import type { AuditActivities } from '../../activities/audit';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';

// A failed round is retried a little; the next firing is the real retry.
const act = proxyActivities<AuditActivities>({
  startToCloseTimeout: '5m',
  heartbeatTimeout: '30s',
  retry: {
    initialInterval: '5s',
    maximumAttempts: 5,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

/** One round of the audit anchor recorder, fired by its Schedule. */
export async function auditAnchorWorkflow(): Promise<{
  recorded: string[];
  unchanged: number;
  rejectedLines: number;
}> {
  return act.auditRecordAnchors();
}
