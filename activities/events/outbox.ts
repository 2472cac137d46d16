import { Context } from '@temporalio/activity';
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import {
  markOutboxHandedOver,
  outboxNotHandedOver,
  type OutboxRow,
} from '../../db/repositories/event-outbox';
import type { EventEnvelopeInput } from '../../workflows/events/contract';
import type { EventAcceptor } from '../../workflows/events/entry-point';
import { OUTBOX_DISPATCH_WORKFLOW, outboxScheduleId } from '../../workflows/events/outbox-contract';
import { domainTaskQueue } from '../../workflows/task-queue';

export interface OutboxDeps {
  db: Db;
  events: EventAcceptor;
}

/**
 * Starts (or finds started) the workflow of one outbox event, then marks the row handed over.
 * Idempotent: the event id is the row's and the start never runs an event twice (reuse
 * policy REJECT_DUPLICATE; a running one is used as it is), so the in-line hand-over after
 * the apply and the dispatcher may both reach the same row.
 */
export async function handOverOutboxEvent(
  deps: OutboxDeps,
  row: Pick<OutboxRow, 'orgId' | 'eventId' | 'type' | 'source' | 'payload'>,
): Promise<{ workflowId: string }> {
  const envelope = {
    orgId: row.orgId,
    type: row.type,
    source: row.source,
    payload: row.payload,
  } as EventEnvelopeInput;
  const a = await deps.events.acceptEvent(envelope, {
    eventId: row.eventId,
    once: true,
    ensure: true,
  });
  await markOutboxHandedOver(deps.db, {
    orgId: row.orgId,
    eventId: row.eventId,
    workflowId: a.workflowId,
  });
  return { workflowId: a.workflowId };
}

export interface OutboxDispatchReport {
  /** Rows found not handed over (older than the grace). */
  found: number;
  handedOver: number;
  /** Rows whose hand-over failed this time (left for the next round), with why. */
  failed: { eventId: string; error: string }[];
}

/**
 * One round of the dispatcher: every outbox event not handed over within `graceMs` (the
 * in-line hand-over after the apply normally does it at once) is started now. A failure
 * leaves the row for the next round; nothing is lost, nothing is started twice.
 */
export async function dispatchOutbox(
  deps: OutboxDeps,
  opts: { graceMs: number; limit: number; heartbeat?: () => void },
): Promise<OutboxDispatchReport> {
  const rows = await outboxNotHandedOver(deps.db, {
    before: new Date(Date.now() - opts.graceMs),
    limit: opts.limit,
  });
  const report: OutboxDispatchReport = { found: rows.length, handedOver: 0, failed: [] };
  for (const row of rows) {
    opts.heartbeat?.();
    try {
      await handOverOutboxEvent(deps, row);
      report.handedOver++;
    } catch (err) {
      report.failed.push({ eventId: row.eventId, error: String(err).slice(0, 500) });
    }
  }
  return report;
}

/** The dispatcher's activity: one round, heartbeating per row. */
export function createOutboxActivities(
  dispatch: (opts: {
    graceMs: number;
    limit: number;
    heartbeat?: () => void;
  }) => Promise<OutboxDispatchReport>,
) {
  return {
    async eventOutboxDispatch(opts: {
      graceMs: number;
      limit: number;
    }): Promise<OutboxDispatchReport> {
      const ctx = Context.current();
      const report = await dispatch({ ...opts, heartbeat: () => ctx.heartbeat() });
      if (report.found > 0) ctx.log.info('outbox dispatched', { ...report });
      return report;
    },
  };
}
export type OutboxActivities = ReturnType<typeof createOutboxActivities>;

/**
 * The dispatcher's Schedule on the events queue of the base `taskQueue`: a round every 30 s,
 * overlapping rounds skipped. Created once; an existing one is left as it is.
 */
export async function ensureOutboxSchedule(client: Client, taskQueue: string): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: outboxScheduleId(taskQueue),
      spec: { intervals: [{ every: '30s' }] },
      action: {
        type: 'startWorkflow',
        workflowType: OUTBOX_DISPATCH_WORKFLOW,
        workflowId: `event-outbox-dispatch:${taskQueue}`,
        taskQueue: domainTaskQueue(taskQueue, 'events'),
        args: [],
        workflowRunTimeout: '10m',
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
