import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  getExternalWorkflowHandle,
  log,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { RequestsActivities } from '../../activities/requests';
import { ErrorType, NON_RETRYABLE_ERROR_TYPES } from '../errors';
import { humanWait } from '../human-wait';
import { checkAnswer, type Answer } from './answer-schema';
import {
  AnswerInputSchema,
  DAY_MS,
  answerRequestUpdate,
  failRequestUpdate,
  requestCompletedSignal,
  requestStateQuery,
  requestStoredUpdate,
  type AnswerAck,
  type RequestStatus,
  type RequestView,
  type RequestWorkflowInput,
  type Route,
} from './contract';
import { CsOrg, CsState } from '../search-attributes';

// Bookkeeping: quick idempotent rows keyed by request id and the workflow's own counter.
const book = proxyLocalActivities<RequestsActivities>({
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
const notify = proxyActivities<RequestsActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '5s',
    backoffCoefficient: 2,
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// Reading free text may call a small model: bounded, its reply stored per attempt key.
const reader = proxyActivities<RequestsActivities>({
  startToCloseTimeout: '2m',
  retry: {
    initialInterval: '2s',
    maximumAttempts: 3,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});
// The callback event goes through the events client (its own dedup makes a retry harmless).
const callback = proxyActivities<RequestsActivities>({
  startToCloseTimeout: '1m',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

const refusal = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true });

const messageOf = (err: unknown): string =>
  err instanceof ActivityFailure && err.cause instanceof ApplicationFailure
    ? err.cause.message
    : err instanceof Error
      ? err.message
      : String(err);

/**
 * One request to a person (or, for a delegation, an agent): stored and routed (assignee →
 * owner → admin, the route recorded), the assignee notified, reminded when due and then
 * every remindEveryDays, expired at expiresInDays. Answering is an Update checked against
 * the answer form and the answerer's org and role; free text is read strictly and an unclear
 * one re-asks. On completion the creating workflow is signalled and a callback event emitted
 * so the creating agent instance resumes.
 */
export async function requestWorkflow(input: RequestWorkflowInput): Promise<RequestView> {
  const { request: r } = input;
  // Due and expiry count from the workflow's own clock (the client's may differ, and on the
  // time-skipping server it does), so timers and stored times agree.
  const createdAtMs = Date.now();
  const workflowId = workflowInfo().workflowId;
  const dueAt = createdAtMs + r.dueInDays * DAY_MS;
  const expiresAt = createdAtMs + r.expiresInDays * DAY_MS;
  let status: RequestStatus = 'open';
  let seq = 0;
  let remindersSent = 0;
  let reasks = 0;
  let route: Route | null = null;
  let routeDetail: string | null = null;
  let assigneeUserId: string | null = null;
  let answer: Answer | null = null;
  let answeredBy: string | null = null;
  let answering = false;

  const view = (): RequestView => ({
    requestId: r.requestId,
    orgId: r.orgId,
    type: r.type,
    title: r.title,
    status,
    assigneeUserId,
    route,
    routeDetail,
    remindersSent,
    reasks,
    dueAt: new Date(dueAt).toISOString(),
    expiresAt: new Date(expiresAt).toISOString(),
    answer,
    answeredBy,
  });
  setHandler(requestStateQuery, view);
  setHandler(requestStoredUpdate, async () => {
    await condition(() => seq >= 1);
    return view();
  });

  const record = (kind: string, actor: string | null, detail: string | null, data?: unknown) =>
    book.requestAppendEvent({
      requestId: r.requestId,
      seq: ++seq,
      kind,
      actor,
      detail,
      data: data ?? null,
      atMs: Date.now(),
    });
  const setState = (s: RequestStatus, detail: string) => {
    status = s;
    upsertSearchAttributes([{ key: CsState, value: s }]);
    setCurrentDetails(`**${s}** — ${r.type}: ${r.title}${detail ? ` (${detail})` : ''}`);
  };

  setHandler(
    answerRequestUpdate,
    async (raw): Promise<AnswerAck> => {
      const a = AnswerInputSchema.parse(raw);
      answering = true;
      try {
        // The role is checked against the database (an activity): a viewer, or a user who
        // left the org since the request opened, is refused with a typed failure.
        try {
          await book.requestAuthorizeAnswerer({
            orgId: r.orgId,
            userId: a.answeredBy,
            delegateAgentType: r.delegateAgentType ?? null,
          });
        } catch (err) {
          throw refusal(ErrorType.AnswererNotAuthorized, messageOf(err));
        }
        let parsed: Answer;
        let parsedBy: AnswerAck['parsedBy'] = 'structured';
        if (a.answer !== undefined) {
          const check = checkAnswer(r.answerSchema, a.answer);
          if (!check.ok) throw refusal(ErrorType.InvalidAnswer, check.issues.join('; '));
          parsed = check.answer;
        } else {
          const read = await reader.requestReadFreeText({
            requestId: r.requestId,
            attempt: reasks + seq,
            type: r.type,
            title: r.title,
            question: r.question,
            evidence: r.evidence,
            answerSchema: r.answerSchema,
            text: a.text ?? '',
          });
          const check = read.status === 'parsed' ? checkAnswer(r.answerSchema, read.answer) : null;
          if (read.status === 'refused') {
            await record('refused', a.answeredBy, read.reason, { text: a.text });
            return {
              status: 'refused',
              requestId: r.requestId,
              answer: null,
              reason: read.reason,
              parsedBy: read.by,
            };
          }
          if (read.status === 'unclear' || !check?.ok) {
            // Never guessed: the request stays open and the person is asked again.
            reasks += 1;
            const reason =
              read.status === 'unclear'
                ? read.reason
                : `the reading did not fill the form: ${check && !check.ok ? check.issues.join('; ') : ''}`;
            await record('reasked', a.answeredBy, reason, { text: a.text, reasks });
            await book.requestSaveCounters({ requestId: r.requestId, remindersSent, reasks });
            return {
              status: 'unclear',
              requestId: r.requestId,
              answer: null,
              reason,
              parsedBy: read.by,
            };
          }
          parsed = check.answer;
          parsedBy = read.by;
        }
        answer = parsed;
        answeredBy = a.answeredBy;
        await record('answered', a.answeredBy, parsedBy, { answer: parsed, text: a.text ?? null });
        setState('completed', `answered by ${a.answeredBy}`);
        return {
          status: 'answered',
          requestId: r.requestId,
          answer: parsed,
          reason: null,
          parsedBy,
        };
      } finally {
        answering = false;
      }
    },
    {
      validator: (raw): void => {
        const a = AnswerInputSchema.safeParse(raw);
        if (!a.success)
          throw refusal(
            ErrorType.InvalidAnswer,
            a.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
          );
        if (a.data.requestId !== r.requestId)
          throw refusal(
            ErrorType.InvalidAnswer,
            `this is request ${r.requestId}, not ${a.data.requestId}`,
          );
        if (a.data.orgId !== r.orgId)
          throw refusal(
            ErrorType.AnswererNotAuthorized,
            `the answerer acts for org ${a.data.orgId}, not ${r.orgId}`,
          );
        if (status !== 'open')
          throw refusal(ErrorType.RequestNotOpen, `request ${r.requestId} is ${status}`);
        if (answering)
          throw refusal(ErrorType.RequestNotOpen, `an answer to ${r.requestId} is being read`);
        if (a.data.answer !== undefined) {
          const check = checkAnswer(r.answerSchema, a.data.answer);
          if (!check.ok) throw refusal(ErrorType.InvalidAnswer, check.issues.join('; '));
        }
      },
    },
  );

  setHandler(
    failRequestUpdate,
    async (f): Promise<RequestView> => {
      await record('failed', f.by, f.reason);
      setState('failed', f.reason);
      return view();
    },
    {
      validator: (f): void => {
        if (status !== 'open' || answering)
          throw refusal(ErrorType.RequestNotOpen, `request ${r.requestId} is ${status}`);
        if (!f || typeof f.reason !== 'string' || !f.reason || typeof f.by !== 'string' || !f.by)
          throw refusal(ErrorType.InvalidRequest, 'a failure names its reason and who closes it');
      },
    },
  );

  upsertSearchAttributes([
    { key: CsOrg, value: r.orgId },
    { key: CsState, value: status },
  ]);
  const routed = await book.requestOpen({
    request: r,
    workflowId,
    createdAtMs,
    dueAtMs: dueAt,
    expiresAtMs: expiresAt,
  });
  route = routed.route;
  routeDetail = routed.detail;
  assigneeUserId = routed.assigneeUserId;
  seq = 1; // requestOpen wrote event 1 (opened, with the route)
  setState('open', routed.detail);

  const sendNotice = async (purpose: string) => {
    try {
      await notify.requestNotify({ requestId: r.requestId, purpose });
    } catch (err) {
      log.error('request notification failed', {
        requestId: r.requestId,
        purpose,
        error: messageOf(err),
      });
    }
  };
  if (r.delegateAgentType) {
    // A delegation goes to its agent as an event; the person it was routed to sees it in the
    // inbox as the fallback, without a notice for every hand-off.
    await callback.requestEmitDelegation({
      requestId: r.requestId,
      orgId: r.orgId,
      delegateAgentType: r.delegateAgentType,
      hop: r.hop,
      createdByRunId: r.createdBy.runId ?? null,
      evidence: r.evidence,
    });
  } else if (assigneeUserId) await sendNotice('assigned');

  const settled = () => status !== 'open';
  const wait = humanWait({
    settled,
    times: { dueAt, expiresAt },
    remind: { everyMs: r.remindEveryDays * DAY_MS },
  });
  while (wait.open()) {
    if (await wait.sleep()) break;
    if (wait.takeReminder()) {
      remindersSent += 1;
      await record('reminded', null, `reminder ${remindersSent}`);
      await book.requestSaveCounters({ requestId: r.requestId, remindersSent, reasks });
      if (assigneeUserId) await sendNotice(`reminder-${remindersSent}`);
    }
  }
  // An answer already past its validator lands before the expiry is decided.
  await condition(() => !answering);
  if (status === 'open') {
    setState('expired', `no answer within ${r.expiresInDays} days`);
    await record('expired', null, `no answer within ${r.expiresInDays} days`);
  }
  await book.requestClose({
    requestId: r.requestId,
    status,
    answer,
    answeredBy,
    remindersSent,
    reasks,
    closedAtMs: Date.now(),
  });

  const payload = { requestId: r.requestId, orgId: r.orgId, status, answer, answeredBy };
  const target = r.callback.signalWorkflowId ?? r.createdBy.workflowId;
  if (target && target !== workflowId) {
    try {
      await getExternalWorkflowHandle(target).signal(requestCompletedSignal, payload);
    } catch (err) {
      // The creator may have closed; the callback event below still reaches its agent.
      log.warn('request callback signal not delivered', { target, error: messageOf(err) });
    }
  }
  if ((status as RequestStatus) === 'completed' && r.callback.eventType)
    await callback.requestEmitCallback({
      requestId: r.requestId,
      orgId: r.orgId,
      eventType: r.callback.eventType,
      hop: r.hop,
      createdBy: r.createdBy,
      type: r.type,
      answer,
      answeredBy,
    });
  return view();
}
