import type { Db } from '../../db/connection';
import { getSubmission } from '../../db/repositories/gateway';
import type { Effect } from '../../workflows/gateway.contract';
import type { WriteApplied } from './emit';

type Apply<R> = (a: { submissionId: string }) => Promise<R>;

/**
 * The gateway's apply activity, followed by its downstream-rule event: once the write is
 * applied (or found applied by a retry), `write.applied` is announced before the activity
 * completes. A failed announcement fails the activity, whose retry re-applies idempotently
 * and announces again — the event's derived id makes that exactly one event. The gateway
 * workflow's commands are unchanged, so its recorded histories still replay.
 */
export function withWriteAppliedEvent<R>(
  apply: Apply<R>,
  db: Db,
  announce: (w: WriteApplied) => Promise<void>,
): Apply<R> {
  return async (a) => {
    const r = await apply(a);
    const applied = r as { status?: string; effects?: Effect[]; entryIds?: string[] };
    if (applied.status !== 'applied') return r;
    const row = await getSubmission(db, a.submissionId);
    if (!row) return r;
    await announce({
      orgId: row.orgId,
      submissionId: a.submissionId,
      kind: row.kind,
      effects: applied.effects ?? [],
      entryIds: applied.entryIds ?? [],
    });
    return r;
  };
}
