/**
 * HUMAN_REVIEW: the review opens (stored as pending, with an inbox entry), the run waits for
 * a reviewer's decision with reminders until it expires, and the decision (or the expiry)
 * becomes the run's outcome.
 */
import { allHandlersFinished, condition, log } from '@temporalio/workflow';
import type { AnalysisResult } from '../analysis.contract';
import { humanWait } from '../human-wait';
import { closeInboxEntry, openInboxEntry, remindInboxEntry } from '../requests/inbox-link';
import {
  DEFAULT_REVIEW_DUE_MS,
  DEFAULT_REVIEW_EXPIRE_MS,
  DEFAULT_REVIEW_REMIND_EVERY_MS,
} from './review';
import type { AnalysisRunState } from './run-state';
import type { ValidatedOutput } from './validate-output';
import { bookkeeping, messageOf, notify } from './activity-proxies';
import { finishRun, moveTo } from './run-progress';
import { applyCorrections } from './answer';

/**
 * Opens the review and waits for it to close. Everything from opening the review until it
 * closes stays in this one function: a reviewer's update may run alongside it, so its awaits
 * are kept exactly as they were.
 */
export async function reviewAndSettle(
  state: AnalysisRunState,
  validated: ValidatedOutput,
): Promise<AnalysisResult> {
  const { request, workflowId } = state;
  const { plan, answer: proposed, validation, confidence } = validated;
  moveTo(state, 'HUMAN_REVIEW', validation.reasons.join('; '));
  // Times first, so no query ever shows an open review without its due and expiry times.
  const startedAt = Date.now();
  const dueAt = startedAt + (request.review.dueAfterMs ?? DEFAULT_REVIEW_DUE_MS);
  state.dueAt = dueAt;
  const expiresAt = startedAt + (request.review.expireAfterMs ?? DEFAULT_REVIEW_EXPIRE_MS);
  state.expiresAt = expiresAt;
  const remindEvery = request.review.remindEveryMs ?? DEFAULT_REVIEW_REMIND_EVERY_MS;
  state.status = 'awaiting_review';
  // While the review is open nothing is delivered: the stored result says so.
  const pending: AnalysisResult = {
    requestId: request.requestId,
    orgId: request.orgId,
    workflowId,
    outcome: 'awaiting_review',
    answer: proposed,
    confidence,
    path: plan.path,
    validation,
    reviewedBy: null,
    reviewNote: null,
    remindersSent: 0,
  };
  await bookkeeping.storeResult({ result: pending, outcome: 'awaiting_review' });

  // One inbox: the open review is a request record too (patched inside).
  await openInboxEntry({
    linkKind: 'analysis_review',
    workflowId,
    key: request.requestId,
    orgId: request.orgId,
    type: 'review',
    title: `Review ${request.queryType}: ${request.queryText.slice(0, 200)}`,
    question: `${request.queryText}\nSent to review: ${validation.reasons.join('; ')}`,
    evidence: { requestId: request.requestId, reasons: validation.reasons, confidence },
    createdAtMs: startedAt,
    dueAtMs: dueAt,
    expiresAtMs: expiresAt,
    createdBy: { userId: request.requestedBy },
  });
  const wait = humanWait({
    settled: () => state.decision !== undefined,
    times: { dueAt, expiresAt },
    remind: { everyMs: remindEvery },
  });
  while (wait.open()) {
    if (await wait.sleep()) break;
    if (wait.takeReminder()) {
      state.remindersSent += 1;
      try {
        await notify.sendReviewReminder({
          orgId: request.orgId,
          requestId: request.requestId,
          workflowId,
          reminderNumber: state.remindersSent,
          dueAt: new Date(dueAt).toISOString(),
        });
      } catch (err) {
        // A broken notification channel must not lose the pending review: keep waiting.
        log.error('review reminder failed', {
          workflowId,
          reminder: state.remindersSent,
          error: messageOf(err),
        });
      }
      await remindInboxEntry('analysis_review', workflowId, state.remindersSent);
    }
  }
  // A decision whose authorization is still running when the review expires wins; once no
  // decision is in flight, the review closes and the validator refuses late decisions.
  await condition(() => !state.decisionInProgress || state.decision !== undefined);
  state.status = 'running';
  return settleReview(state, validated);
}

/** The decision (or its absence at expiry) becomes the outcome; the inbox entry closes. */
async function settleReview(
  state: AnalysisRunState,
  validated: ValidatedOutput,
): Promise<AnalysisResult> {
  const { workflowId } = state;
  const { answer: proposed, confidence } = validated;
  let final: AnalysisResult;
  if (state.decision === undefined) {
    log.info('review expired', { workflowId, remindersSent: state.remindersSent });
    final = await finishRun(state, confidence, 'expired', null, undefined);
  } else if (state.decision.decision === 'approve') {
    final = await finishRun(state, confidence, 'approved', proposed, state.decision);
  } else if (state.decision.decision === 'reject') {
    final = await finishRun(state, confidence, 'rejected', null, state.decision);
  } else {
    final = await finishRun(
      state,
      confidence,
      'corrected',
      applyCorrections(proposed, state.decision),
      state.decision,
    );
  }
  await closeInboxEntry('analysis_review', workflowId, {
    status: state.decision === undefined ? 'expired' : 'completed',
    detail: state.decision === undefined ? 'no review before expiry' : state.decision.decision,
    by: state.decision?.reviewer.userId ?? null,
  });
  await condition(allHandlersFinished);
  return final;
}
