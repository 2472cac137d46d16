/**
 * Closing the vote once the wait is over: votes already past their validator land first,
 * then the verdict — rejected (a single rejection vetoes), expired (too few approvals) or
 * approved — is recorded on the database and on the inbox entry.
 */
import { condition, log } from '@temporalio/workflow';
import type { RiskAssessmentView } from '../gateway.contract';
import { closeInboxEntry } from '../requests/inbox-link';
import type { GatewayProxy } from './activity-proxies';
import { durable } from './durable-step';
import type { GatewayRunState } from './run-state';
import { setStatus } from './status';
import { approvalCount, hasRejection, votesNow } from './votes';

export type Verdict = 'approved' | 'rejected' | 'expired';

export async function closeVote(
  state: GatewayRunState,
  db: GatewayProxy,
  r: RiskAssessmentView,
): Promise<Verdict> {
  const { write, submissionId, workflowId } = state;
  // Close the vote, then let votes already past their validator land: none is lost, and
  // a rejection that arrives with the last approval still vetoes the write.
  setStatus(state, 'applying', 'closing the vote');
  await condition(() => state.inFlight.size === 0);
  if (hasRejection(state)) {
    const by = votesNow(state).find((v) => v.decision === 'reject');
    await durable(state, db, 'finish', () =>
      db.gatewayFinish({
        submissionId,
        orgId: write.orgId,
        status: 'rejected',
        actor: `user:${by?.userId ?? 'unknown'}`,
      }),
    );
    await closeInboxEntry('gateway_approval', workflowId, {
      status: 'completed',
      detail: 'rejected',
      by: by?.userId ?? null,
    });
    return 'rejected';
  }
  if (approvalCount(state) < r.requiredApprovals) {
    log.info('approval expired', {
      submissionId,
      approvals: approvalCount(state),
      required: r.requiredApprovals,
    });
    await durable(state, db, 'finish', () =>
      db.gatewayFinish({
        submissionId,
        orgId: write.orgId,
        status: 'expired',
        actor: 'workflow',
      }),
    );
    await closeInboxEntry('gateway_approval', workflowId, {
      status: 'expired',
      detail: 'no approval before expiry',
      by: null,
    });
    return 'expired';
  }
  await closeInboxEntry('gateway_approval', workflowId, {
    status: 'completed',
    detail: 'approved',
    by: votesNow(state)
      .filter((v) => v.decision === 'approve')
      .map((v) => v.userId)
      .join(','),
  });
  return 'approved';
}
