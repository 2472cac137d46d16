/**
 * Waiting for people: the approval opens (status, inbox entry), then the run waits until the
 * vote settles or the window expires, reminding the approvers once when the approval is due.
 * A wait that grows the history past the worker's limit hands over to a new run.
 */
import { allHandlersFinished, condition, log, patched, workflowInfo } from '@temporalio/workflow';
import type { RiskAssessmentView } from '../gateway.contract';
import { humanWait } from '../human-wait';
import { openInboxEntry, remindInboxEntry } from '../requests/inbox-link';
import { type GatewaySteps, notify } from './activity-proxies';
import { handOverToNextRun } from './handover';
import type { GatewayRunState } from './run-state';
import { setStatus } from './status';
import { voteSettled } from './votes';

/** The approval is open: its status, and (unless a continued run resumes it) its inbox entry. */
export async function openApproval(state: GatewayRunState, r: RiskAssessmentView): Promise<void> {
  const { write, revision } = state;
  setStatus(
    state,
    'awaiting_approval',
    `${r.lane} risk (${r.score}), ${r.requiredApprovals} approval(s)${revision > 0 ? `, plan revision ${revision}` : ''}: ${r.rules.map((x) => x.rule).join(', ')}`,
  );
  // One inbox: the waiting approval is a request record too (patched inside).
  if (!state.resuming)
    await openInboxEntry({
      linkKind: 'gateway_approval',
      workflowId: state.workflowId,
      key: write.idempotencyKey,
      orgId: write.orgId,
      type: 'approval',
      title: `Approve ${write.kind} (${r.lane} risk)`,
      question: `Approve ${write.kind} ${write.idempotencyKey}: ${r.lane} risk (score ${r.score}), ${r.requiredApprovals} approval(s) needed; rules ${r.rules.map((x) => x.rule).join(', ') || 'none'}.`,
      evidence: {
        submissionId: state.submissionId,
        kind: write.kind,
        lane: r.lane,
        score: r.score,
        rules: r.rules.map((x) => x.rule),
        revision: state.revision,
      },
      createdAtMs: state.startedAt,
      dueAtMs: state.dueAt,
      expiresAtMs: state.expiresAt,
      createdBy:
        write.submitter.kind === 'user'
          ? { userId: write.submitter.userId }
          : { runId: write.submitter.instanceId, agentType: write.submitter.agentType },
    });
}

/** Past the worker's limit of history events (or when the server suggests it). */
function historyFull(state: GatewayRunState): boolean {
  return (
    state.historyLimit !== null &&
    (workflowInfo().historyLength >= state.historyLimit || workflowInfo().continueAsNewSuggested)
  );
}

/** Waits until the vote settles or the approval expires; may continue as new meanwhile. */
export async function waitForVotes(
  state: GatewayRunState,
  steps: GatewaySteps,
  r: RiskAssessmentView,
): Promise<void> {
  const settled = () => voteSettled(state, r);
  const wait = humanWait({
    settled,
    times: state, // dueAt and expiresAt, read live
    // A continued run resumes its predecessor's wait: the reminder it sent is not sent again.
    remind: { once: true, alreadySent: state.resuming && (state.carry?.reminded ?? false) },
    alsoWakeWhen: () => historyFull(state),
  });
  state.resuming = false;
  // Long waits do not grow one history without bound (votes refused past the validator
  // still add events): past the worker's limit the run continues as new, state carried.
  if (state.historyLimit === null && patched('gateway-continue-as-new'))
    state.historyLimit = (await steps.settings.gatewayRunSettings()).historyEventsPerRun;
  while (wait.open()) {
    if (await wait.sleep()) {
      if (settled()) break;
      // Let the votes already accepted land, so none is lost with this run; new ones are
      // refused (RunHandover: send again) until the next run takes them.
      state.handingOver = true;
      await condition(() => state.inFlight.size === 0 && allHandlersFinished());
      state.handingOver = false;
      if (settled()) break;
      await handOverToNextRun(state, steps.db, r, wait.reminded);
    }
    if (wait.takeReminder()) await remind(state);
  }
}

/** The one reminder, once the approval is due. */
async function remind(state: GatewayRunState): Promise<void> {
  state.remindersSent += 1;
  try {
    await notify.gatewayRemind({
      submissionId: state.submissionId,
      orgId: state.write.orgId,
      reminderNumber: state.remindersSent,
      dueAt: new Date(state.dueAt).toISOString(),
    });
  } catch (err) {
    // A broken notification channel must not lose the pending approval: keep waiting.
    log.error('approval reminder failed', {
      submissionId: state.submissionId,
      error: err instanceof Error ? err.message : String(err),
    });
  }
  await remindInboxEntry('gateway_approval', state.workflowId, state.remindersSent);
}
