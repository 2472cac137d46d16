import {
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleOptionsStartWorkflowAction,
  type ScheduleSpec,
} from '@temporalio/client';
import type { AgentConfig } from '../../workflows/agent-runs/config';
import {
  SCHEDULED_EVENT_WORKFLOW,
  agentScheduleId,
  agentSchedulePrefix,
  type ScheduledFiringInput,
} from '../../workflows/events/schedules';
import { domainTaskQueue } from '../../workflows/task-queue';

export interface ScheduleSyncReport {
  created: string[];
  updated: string[];
  unchanged: string[];
  deleted: string[];
}

interface Desired {
  id: string;
  spec: ScheduleSpec;
  action: ScheduleOptionsStartWorkflowAction<never>;
  input: ScheduledFiringInput;
  cron: string;
}

function desiredSchedules(taskQueue: string, configs: readonly AgentConfig[]): Desired[] {
  return configs.flatMap((c) =>
    c.schedules.map((s): Desired => {
      const input: ScheduledFiringInput = {
        agentType: c.agent_type,
        scheduleId: s.id,
        eventType: s.event_type,
        payload: s.payload,
        orgs: s.orgs ?? null,
      };
      return {
        id: agentScheduleId(taskQueue, c.agent_type, s.id),
        cron: s.cron,
        input,
        spec: { cronExpressions: [s.cron], timezone: 'UTC' },
        action: {
          type: 'startWorkflow',
          workflowType: SCHEDULED_EVENT_WORKFLOW,
          // The schedule appends each firing's time: that id is the firing's identity.
          workflowId: `scheduled-event:${taskQueue}:${c.agent_type}:${s.id}`,
          // The firing is the events domain's workflow.
          taskQueue: domainTaskQueue(taskQueue, 'events'),
          args: [input] as never,
        },
      };
    }),
  );
}

/**
 * Makes the deployment's Temporal Schedules match the agents' `schedules:` — firing on the
 * events queue of the base `taskQueue`; created when missing, updated when the cron, the event
 * or the queue changed, deleted when no config declares them
 * any more (only ids under this task queue's prefix: the sync owns nothing else). Running it
 * twice changes nothing the second time.
 */
export async function syncAgentSchedules(
  client: Client,
  taskQueue: string,
  configs: readonly AgentConfig[],
): Promise<ScheduleSyncReport> {
  const report: ScheduleSyncReport = { created: [], updated: [], unchanged: [], deleted: [] };
  const desired = desiredSchedules(taskQueue, configs);
  for (const d of desired) {
    try {
      await client.schedule.create({
        scheduleId: d.id,
        spec: d.spec,
        action: d.action,
        policies: { overlap: ScheduleOverlapPolicy.BUFFER_ALL, catchupWindow: '1 day' },
        memo: { firing: JSON.stringify(d.input), cron: d.cron, taskQueue: d.action.taskQueue },
      });
      report.created.push(d.id);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      const handle = client.schedule.getHandle(d.id);
      const desc = await handle.describe();
      const memo = desc.memo as { firing?: string; cron?: string; taskQueue?: string } | undefined;
      if (
        memo?.firing === JSON.stringify(d.input) &&
        memo.cron === d.cron &&
        memo.taskQueue === d.action.taskQueue
      ) {
        report.unchanged.push(d.id);
        continue;
      }
      // The memo cannot be updated with the schedule: recreate it so it states what it runs.
      await handle.delete();
      await client.schedule.create({
        scheduleId: d.id,
        spec: d.spec,
        action: d.action,
        policies: { overlap: ScheduleOverlapPolicy.BUFFER_ALL, catchupWindow: '1 day' },
        memo: { firing: JSON.stringify(d.input), cron: d.cron, taskQueue: d.action.taskQueue },
      });
      report.updated.push(d.id);
    }
  }
  const prefix = agentSchedulePrefix(taskQueue);
  const wanted = new Set(desired.map((d) => d.id));
  for await (const scheduleId of scheduleIdsOf(client)) {
    if (scheduleId.startsWith(prefix) && !wanted.has(scheduleId)) {
      await client.schedule.getHandle(scheduleId).delete();
      report.deleted.push(scheduleId);
    }
  }
  return report;
}

/**
 * Every schedule id of the namespace, read raw: `client.schedule.list()` decodes each
 * schedule's memo, and one this process cannot decode (another installation's keys in a shared
 * namespace, a master key retired since) would stop the whole sync. Ids need no decoding.
 */
async function* scheduleIdsOf(client: Client): AsyncIterable<string> {
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.listSchedules({
      namespace: client.options.namespace,
      maximumPageSize: 500,
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    for (const s of page.schedules ?? []) if (s.scheduleId) yield s.scheduleId;
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
}
