import { log, patched, proxyActivities } from '@temporalio/workflow';
import type { RequestsActivities } from '../../activities/requests';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import type { RequestType } from './contract';
import { taskQueueOf } from '../domain-routing';

/**
 * One inbox: a gateway approval or an analysis review that starts waiting gets a request
 * record pointing at its workflow (answering it forwards to that workflow's own Update), and
 * its reminders reach the assignee through the requests notifier. Called from those
 * workflows behind patched('requests-inbox'), so histories recorded before the inbox existed
 * replay unchanged. A failing inbox write is logged, never allowed to block the decision.
 */
// The requests domain's activities, on its queue (the callers are gateway and analysis runs).
const inbox = () =>
  proxyActivities<RequestsActivities>({
    taskQueue: taskQueueOf('requests'),
    startToCloseTimeout: '30s',
    retry: {
      initialInterval: '1s',
      backoffCoefficient: 2,
      maximumAttempts: 5,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });

export const INBOX_PATCH = 'requests-inbox';

export type LinkKind = 'gateway_approval' | 'analysis_review';

export interface LinkedEntry {
  linkKind: LinkKind;
  workflowId: string;
  key: string;
  orgId: string;
  type: RequestType;
  title: string;
  question: string;
  evidence: Record<string, unknown>;
  createdAtMs: number;
  dueAtMs: number;
  expiresAtMs: number;
  createdBy: { userId?: string; runId?: string; agentType?: string };
}

const failed = (what: string, workflowId: string) => (err: unknown) =>
  log.error(`inbox ${what} failed`, {
    workflowId,
    error: err instanceof Error ? err.message : String(err),
  });

export async function openInboxEntry(e: LinkedEntry): Promise<void> {
  if (!patched(INBOX_PATCH)) return;
  await inbox().requestOpenLinked(e).catch(failed('open', e.workflowId));
}

export async function remindInboxEntry(
  linkKind: LinkKind,
  workflowId: string,
  reminderNumber: number,
): Promise<void> {
  if (!patched(INBOX_PATCH)) return;
  await inbox()
    .requestRemindLinked({ linkKind, workflowId, reminderNumber, atMs: Date.now() })
    .catch(failed('reminder', workflowId));
}

export async function closeInboxEntry(
  linkKind: LinkKind,
  workflowId: string,
  outcome: { status: 'completed' | 'expired' | 'cancelled'; detail: string; by: string | null },
): Promise<void> {
  if (!patched(INBOX_PATCH)) return;
  await inbox()
    .requestCloseLinked({ linkKind, workflowId, ...outcome, atMs: Date.now() })
    .catch(failed('close', workflowId));
}
