/**
 * Answering a request (answerRequestUpdate): the validator refuses what can be refused before
 * anything reaches history; the handler checks the answerer's role, reads free text strictly
 * (an unclear one re-asks, one that decides something else is refused) and completes the
 * request. The handler's awaits are exactly the commands it issues: it runs alongside the wait.
 */
import { ErrorType, permanentFailure } from '../errors';
import { checkAnswer, type Answer, type AnswerCheck } from './answer-schema';
import { book, messageOf, reader } from './activity-proxies';
import { AnswerInputSchema, type AnswerAck, type AnswerInput } from './contract';
import { recordEvent, saveCounters, setStatus } from './run-progress';
import type { RequestRun } from './run-state';

/** The update's handler; the request is `answering` (no other answer) until it returns. */
export async function answerRequest(run: RequestRun, raw: AnswerInput): Promise<AnswerAck> {
  const r = run.request;
  const a = AnswerInputSchema.parse(raw);
  run.answering = true;
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
      throw permanentFailure(ErrorType.AnswererNotAuthorized, messageOf(err));
    }
    let parsed: Answer;
    let parsedBy: AnswerAck['parsedBy'] = 'structured';
    if (a.answer !== undefined) {
      const check = checkAnswer(r.answerSchema, a.answer);
      if (!check.ok) throw permanentFailure(ErrorType.InvalidAnswer, check.issues.join('; '));
      parsed = check.answer;
    } else {
      const read = await readFreeText(run, a.text ?? '');
      const check = read.status === 'parsed' ? checkAnswer(r.answerSchema, read.answer) : null;
      if (read.status === 'refused') {
        await recordEvent(run, 'refused', a.answeredBy, read.reason, { text: a.text });
        return ack(run, 'refused', null, read.reason, read.by);
      }
      if (read.status === 'unclear' || !check?.ok) {
        // Never guessed: the request stays open and the person is asked again.
        run.reasks += 1;
        const reason = read.status === 'unclear' ? read.reason : notFilled(check);
        await recordEvent(run, 'reasked', a.answeredBy, reason, {
          text: a.text,
          reasks: run.reasks,
        });
        await saveCounters(run);
        return ack(run, 'unclear', null, reason, read.by);
      }
      parsed = check.answer;
      parsedBy = read.by;
    }
    run.answer = parsed;
    run.answeredBy = a.answeredBy;
    await recordEvent(run, 'answered', a.answeredBy, parsedBy, {
      answer: parsed,
      text: a.text ?? null,
    });
    setStatus(run, 'completed', `answered by ${a.answeredBy}`);
    return ack(run, 'answered', parsed, null, parsedBy);
  } finally {
    run.answering = false;
  }
}

/** Refuses an answer before it is accepted: malformed, another request or org, not open. */
export function validateAnswer(run: RequestRun, raw: unknown): void {
  const r = run.request;
  const a = AnswerInputSchema.safeParse(raw);
  if (!a.success)
    throw permanentFailure(
      ErrorType.InvalidAnswer,
      a.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '),
    );
  if (a.data.requestId !== r.requestId)
    throw permanentFailure(
      ErrorType.InvalidAnswer,
      `this is request ${r.requestId}, not ${a.data.requestId}`,
    );
  if (a.data.orgId !== r.orgId)
    throw permanentFailure(
      ErrorType.AnswererNotAuthorized,
      `the answerer acts for org ${a.data.orgId}, not ${r.orgId}`,
    );
  if (run.status !== 'open')
    throw permanentFailure(ErrorType.RequestNotOpen, `request ${r.requestId} is ${run.status}`);
  if (run.answering)
    throw permanentFailure(ErrorType.RequestNotOpen, `an answer to ${r.requestId} is being read`);
  if (a.data.answer !== undefined) {
    const check = checkAnswer(r.answerSchema, a.data.answer);
    if (!check.ok) throw permanentFailure(ErrorType.InvalidAnswer, check.issues.join('; '));
  }
}

/** Reads free text into the form (rules, then a small model), keyed by this attempt. */
function readFreeText(run: RequestRun, text: string) {
  const r = run.request;
  return reader.requestReadFreeText({
    requestId: r.requestId,
    attempt: run.reasks + run.seq,
    type: r.type,
    title: r.title,
    question: r.question,
    evidence: r.evidence,
    answerSchema: r.answerSchema,
    text,
  });
}

/** Why a parsed reading still re-asks: the form's own issues with it. */
function notFilled(check: AnswerCheck | null): string {
  return `the reading did not fill the form: ${check && !check.ok ? check.issues.join('; ') : ''}`;
}

function ack(
  run: RequestRun,
  status: AnswerAck['status'],
  answer: Answer | null,
  reason: string | null,
  parsedBy: AnswerAck['parsedBy'],
): AnswerAck {
  return { status, requestId: run.request.requestId, answer, reason, parsedBy };
}
