/**
 * An event's move to a new state: the search attribute and the current details at once,
 * then the stored transition row (the next sequence number, its time, the attempt count),
 * written as a database step.
 */
import { setCurrentDetails, upsertSearchAttributes } from '@temporalio/workflow';
import { CsState } from '../search-attributes';
import type { EventState } from './contract';
import { durableStep } from './durable-step';
import type { EventRun } from './run-state';

export async function transition(run: EventRun, s: EventState, detail: string | null) {
  const { envelope, eventId } = run;
  run.state = s;
  upsertSearchAttributes([{ key: CsState, value: s }]);
  setCurrentDetails(`**${s}** — ${envelope.type}${detail ? `: ${detail}` : ''}`);
  const t = {
    orgId: envelope.orgId,
    eventId,
    seq: ++run.seq,
    state: s,
    detail,
    atMs: Date.now(),
    attempts: run.attempts,
  };
  await durableStep(run, `transition:${s}`, (b) => b.eventTransition(t));
}
