import { Context } from '@temporalio/activity';
import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import { auditedOrgs } from '../../db/repositories/audit';
import { AUDIT_ANCHOR_WORKFLOW, auditAnchorScheduleId } from '../../workflows/audit/contract';
import { domainTaskQueue } from '../../workflows/task-queue';
import { appendAnchors, readAnchors, signedHeadOf, type AnchorLine } from './anchors';

/**
 * Records every org's signed chain head in the anchors file when it moved since the last
 * anchor there. The file is only appended to; shipping it to a sink outside this machine
 * (README: "Audit anchors") is what makes a rewrite of the database detectable.
 */
export async function recordAuditAnchors(
  db: Db,
  opts: { secret: string; file: string; heartbeat?: () => void },
): Promise<{ recorded: string[]; unchanged: number; rejectedLines: number }> {
  const before = readAnchors(opts.file, opts.secret);
  const lines: AnchorLine[] = [];
  let unchanged = 0;
  for (const org of await auditedOrgs(db)) {
    opts.heartbeat?.();
    const line = await signedHeadOf(db, opts.secret, org);
    const last = before.latest.get(org);
    if (last && last.orgSeq === line.orgSeq && last.hash === line.hash) unchanged++;
    else lines.push(line);
  }
  appendAnchors(opts.file, lines);
  return {
    recorded: lines.map((l) => l.orgId),
    unchanged,
    rejectedLines: before.rejected.length,
  };
}

/** The anchor activity, over the worker's key and file. */
export function createAuditActivities(deps: { db: Db; secret: string; file: string }) {
  return {
    async auditRecordAnchors(): Promise<{
      recorded: string[];
      unchanged: number;
      rejectedLines: number;
    }> {
      const ctx = Context.current();
      const r = await recordAuditAnchors(deps.db, {
        secret: deps.secret,
        file: deps.file,
        heartbeat: () => ctx.heartbeat(),
      });
      if (r.rejectedLines > 0)
        ctx.log.warn('the anchors file holds lines that are not signed heads under our key', {
          file: deps.file,
          rejectedLines: r.rejectedLines,
        });
      return r;
    },
  };
}
export type AuditActivities = ReturnType<typeof createAuditActivities>;

/** The anchor Schedule on the gateway queue: every `minutes`, overlapping rounds skipped. */
export async function ensureAuditAnchorSchedule(
  client: Client,
  taskQueue: string,
  minutes: number,
): Promise<void> {
  if (minutes <= 0) return;
  try {
    await client.schedule.create({
      scheduleId: auditAnchorScheduleId(taskQueue),
      spec: { intervals: [{ every: `${minutes}m` }] },
      action: {
        type: 'startWorkflow',
        workflowType: AUDIT_ANCHOR_WORKFLOW,
        workflowId: `audit-anchor:${taskQueue}`,
        taskQueue: domainTaskQueue(taskQueue, 'gateway'),
        args: [],
        workflowRunTimeout: '10m',
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
    });
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
}
