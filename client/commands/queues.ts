import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Command } from 'commander';
import { z } from 'zod';
import { deploymentQueues } from '../../workflows/task-queue';
import type { Runner } from './context';
import { parseOptions } from './context';
import { requireOperator } from './operator';

const { TaskQueueType } = temporal.api.enums.v1;
const durationSeconds = (d: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  d ? Number(d.seconds ?? 0) + (d.nanos ?? 0) / 1e9 : 0;

/** Backlog and pollers of one task queue, workflow and activity sides (DescribeTaskQueue). */
export async function queueStats(client: Client, name: string) {
  const side = async (type: temporal.api.enums.v1.TaskQueueType) => {
    const r = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: type,
      reportStats: true,
    });
    return {
      backlog: Number(r.stats?.approximateBacklogCount ?? 0),
      backlogAgeSeconds: durationSeconds(r.stats?.approximateBacklogAge),
      addRate: r.stats?.tasksAddRate ?? 0,
      dispatchRate: r.stats?.tasksDispatchRate ?? 0,
      pollers: (r.pollers ?? []).map((p) => ({
        identity: p.identity,
        lastAccessTime: p.lastAccessTime
          ? new Date(durationSeconds(p.lastAccessTime) * 1000).toISOString()
          : null,
      })),
    };
  };
  return {
    taskQueue: name,
    workflow: await side(TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW),
    activity: await side(TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
  };
}

/** queues: what is waiting and who is polling. */
export function registerQueuesCommand(program: Command, run: Runner): void {
  program
    .command('queues')
    .description('task queue statistics: backlog, its age, rates and pollers')
    .option(
      '--queue <name...>',
      "task queues (default: the configured base's domain and slot queues)",
    )
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ queue: z.array(z.string().min(1)).optional() }), raw);
        await requireOperator(ctx);
        const client = await ctx.temporal();
        const names = o.queue ?? deploymentQueues(ctx.config().TEMPORAL_TASK_QUEUE);
        const out = [];
        for (const name of names) out.push(await queueStats(client, name));
        ctx.out.print(out);
      }),
    );
}
