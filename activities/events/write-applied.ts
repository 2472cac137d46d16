import { log } from '@temporalio/activity';
import type { Db } from '../../db/connection';
import { getSubmission } from '../../db/repositories/gateway';
import { getOutboxEvent, insertOutboxEvent } from '../../db/repositories/event-outbox';
import type { Effect } from '../../workflows/gateway.contract';
import { writeAppliedEvent } from './emit';
import type { OutboxRow } from '../../db/repositories/event-outbox';

type Apply<R> = (a: { submissionId: string }) => Promise<R>;
type HandOver = (row: OutboxRow) => Promise<unknown>;

/**
 * The gateway's apply activity, followed by the hand-over of its `write.applied` event. The
 * event is already in the outbox, committed with the write (applySubmission); here its
 * workflow is started at once, for latency. A hand-over that fails (an outage of Temporal or
 * of the database right after the commit) fails nothing: the row stays in the outbox and the
 * dispatcher starts it later. A write applied before the outbox existed (an apply retried
 * across the upgrade) gets its row here. The gateway workflow's commands are unchanged, so
 * its recorded histories still replay.
 */
export function withWriteAppliedEvent<R>(apply: Apply<R>, db: Db, handOver: HandOver): Apply<R> {
  return async (a) => {
    const r = await apply(a);
    const applied = r as { status?: string; effects?: Effect[]; entryIds?: string[] };
    if (applied.status !== 'applied') return r;
    try {
      const sub = await getSubmission(db, a.submissionId);
      if (!sub) return r;
      const { eventId, envelope } = writeAppliedEvent({
        orgId: sub.orgId,
        submissionId: a.submissionId,
        kind: sub.kind,
        effects: applied.effects ?? [],
        entryIds: applied.entryIds ?? [],
      });
      let row = await getOutboxEvent(db, sub.orgId, eventId);
      if (!row) {
        await insertOutboxEvent(db, { ...envelope, eventId, origin: a.submissionId });
        row = await getOutboxEvent(db, sub.orgId, eventId);
      }
      if (row && !row.handedOverAt) await handOver(row);
    } catch (err) {
      log.warn('write.applied not handed over yet; the outbox dispatcher will start it', {
        submissionId: a.submissionId,
        error: String(err),
      });
    }
    return r;
  };
}
