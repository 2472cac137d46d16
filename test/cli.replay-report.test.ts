import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { mismatchOf, reasonOf, sinceToDate } from '../client/commands/replay';
import { InvalidRequestError } from '../client/errors';

/** How `countersign replay` names a violation and reads --since; pure (CS_UNIT_ONLY=1). */
const history = historyFromJSON(
  JSON.parse(readFileSync(join(__dirname, 'histories', 'gateway-low-applied.json'), 'utf8')),
);
const CORE = (inner: string) =>
  `Replay failed with a nondeterminism error. Details: Workflow activation completion failed: Failure { failure: Some(Failure { message: "${inner}", source: "" }) }`;

describe('replay report', () => {
  it('names the recorded event by the id core gives', () => {
    const firstCommand = (history.events ?? []).find((e) => e.activityTaskScheduledEventAttributes);
    const id = Number(firstCommand?.eventId);
    const msg = CORE(
      `[TMPRL1100] Nondeterminism error: Timer machine does not handle this event: HistoryEvent(id: ${id}, ActivityTaskScheduled)`,
    );
    expect(mismatchOf(msg, history)).toEqual({
      eventId: id,
      eventType: 'ACTIVITY_TASK_SCHEDULED',
      detail: firstCommand?.activityTaskScheduledEventAttributes?.activityType?.name,
    });
    expect(reasonOf(msg)).toBe(
      `[TMPRL1100] Nondeterminism error: Timer machine does not handle this event: HistoryEvent(id: ${id}, ActivityTaskScheduled)`,
    );
  });

  it('finds a changed activity by the type the history scheduled', () => {
    const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes);
    const second = scheduled[1];
    const name = second?.activityTaskScheduledEventAttributes?.activityType?.name ?? '';
    const msg = CORE(
      `[TMPRL1100] Nondeterminism error: Activity type of scheduled event '${name}' does not match activity type of activity command 'other'`,
    );
    expect(mismatchOf(msg, history)).toMatchObject({
      detail: name,
      eventType: 'ACTIVITY_TASK_SCHEDULED',
    });
    expect(mismatchOf(CORE('something else entirely'), history)).toBeUndefined();
  });

  it('reads --since as a duration before now or a date, and refuses anything else', () => {
    const now = new Date('2026-12-03T12:00:00Z');
    expect(sinceToDate('90m', now).toISOString()).toBe('2026-12-03T10:30:00.000Z');
    expect(sinceToDate('7d', now).toISOString()).toBe('2026-11-26T12:00:00.000Z');
    expect(sinceToDate('2026-12-01', now).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(() => sinceToDate('last tuesday', now)).toThrow(InvalidRequestError);
  });
});
