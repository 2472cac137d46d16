import { randomUUID } from 'node:crypto';
import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { Command } from 'commander';
import { z } from 'zod';
import { InvalidRequestError } from '../errors';
import type { Runner } from './context';
import { type CliContext, parseOptions } from './context';
import { requireOperator } from './operator';

const EventType = temporal.api.enums.v1.EventType;
type ResetRequest = temporal.api.workflowservice.v1.IResetWorkflowExecutionRequest;
const RUN_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A workflow id, or a run id found through visibility (`RunId = "…"`). */
export async function findExecution(
  client: Client,
  id: string,
): Promise<{ workflowId: string; runId?: string }> {
  if (RUN_ID.test(id)) {
    for await (const run of client.workflow.list({ query: `RunId = "${id}"` }))
      return { workflowId: run.workflowId, runId: run.runId };
  }
  return { workflowId: id };
}

function searchAttributesOf(desc: WorkflowExecutionDescription): Record<string, unknown> {
  return Object.fromEntries(
    desc.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value as unknown]),
  );
}

/**
 * A running workflow's live details (what it set with setCurrentDetails: its state and what it
 * waits for), from the SDK's built-in metadata query; null when closed or not answering.
 */
async function currentDetailsOf(client: Client, workflowId: string, runId: string) {
  try {
    // A query needs a worker: without one it would wait for the call's deadline, so 3 s.
    const meta = await client.withDeadline(Date.now() + 3000, () =>
      client.workflow
        .getHandle(workflowId, runId)
        .query<{ currentDetails?: unknown } | null>('__temporal_workflow_metadata'),
    );
    return typeof meta?.currentDetails === 'string' && meta.currentDetails
      ? meta.currentDetails
      : null;
  } catch {
    return null; // no worker polling its queue, or a workflow from an older SDK
  }
}

/** One run, as the operator needs it: where it is, what it waits for, how it is labelled. */
export async function runStatus(client: Client, id: string) {
  const { workflowId, runId } = await findExecution(client, id);
  let desc: WorkflowExecutionDescription;
  try {
    desc = await client.workflow.getHandle(workflowId, runId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError)
      throw new InvalidRequestError(`No workflow or run ${id}`, [
        { path: 'id', message: 'not found' },
      ]);
    throw err;
  }
  const raw = desc.raw;
  return {
    workflowId: desc.workflowId,
    runId: desc.runId,
    type: desc.type,
    status: desc.status.name,
    taskQueue: desc.taskQueue,
    startTime: desc.startTime,
    closeTime: desc.closeTime ?? null,
    historyLength: desc.historyLength,
    summary: (await desc.staticSummary()) ?? null,
    details: (await desc.staticDetails()) ?? null,
    currentDetails:
      desc.status.name === 'RUNNING'
        ? await currentDetailsOf(client, desc.workflowId, desc.runId)
        : null,
    searchAttributes: searchAttributesOf(desc),
    memo: desc.memo ?? {},
    parent: desc.parentExecution ?? null,
    pendingActivities: (raw.pendingActivities ?? []).map((a) => ({
      activityId: a.activityId,
      type: a.activityType?.name,
      state: a.state != null ? temporal.api.enums.v1.PendingActivityState[a.state] : undefined,
      attempt: a.attempt,
      lastFailure: a.lastFailure?.message ?? null,
    })),
    pendingChildren: (raw.pendingChildren ?? []).map((c) => ({
      workflowId: c.workflowId,
      runId: c.runId,
      type: c.workflowTypeName,
    })),
  };
}

export const RESET_POINTS = ['first-workflow-task', 'last-workflow-task'] as const;
const ResetTo = z.union([z.enum(RESET_POINTS), z.coerce.number().int().positive()]);

/**
 * The event a reset goes back to: a completed workflow task (the server's requirement). Named
 * points follow the temporal CLI: the first or the last completed workflow task.
 */
export async function resetEventId(
  client: Client,
  workflowId: string,
  runId: string | undefined,
  to: z.infer<typeof ResetTo>,
): Promise<number> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const completed = (history.events ?? [])
    .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
    .map((e) => Number(e.eventId));
  if (to === 'first-workflow-task' || to === 'last-workflow-task') {
    const id = to === 'first-workflow-task' ? completed[0] : completed[completed.length - 1];
    if (id === undefined)
      throw new InvalidRequestError(`${workflowId} has no completed workflow task to reset to`, [
        { path: 'to', message: 'no completed workflow task' },
      ]);
    return id;
  }
  if (!completed.includes(to)) {
    const event = (history.events ?? []).find((e) => Number(e.eventId) === to);
    throw new InvalidRequestError(
      `Event ${to} of ${workflowId} is ${event ? EventType[event.eventType ?? 0] : 'not in its history'}; a reset goes to a WorkflowTaskCompleted event (${completed.join(', ')})`,
      [{ path: 'to', message: 'not a completed workflow task' }],
    );
  }
  return to;
}

/** Resets a run with the server's ResetWorkflowExecution: a new run replays up to the point. */
export async function resetRun(
  ctx: CliContext,
  id: string,
  to: z.infer<typeof ResetTo>,
  reason: string,
): Promise<{ workflowId: string; fromRunId: string; newRunId: string; eventId: number }> {
  const client = await ctx.temporal();
  const found = await findExecution(client, id);
  const desc = await client.workflow.getHandle(found.workflowId, found.runId).describe();
  const eventId = await resetEventId(client, desc.workflowId, desc.runId, to);
  const res = await client.workflowService.resetWorkflowExecution({
    namespace: client.options.namespace,
    workflowExecution: { workflowId: desc.workflowId, runId: desc.runId },
    // protobufjs encodes a JS number into the int64 field; its type names only Long.
    workflowTaskFinishEventId: eventId as unknown as ResetRequest['workflowTaskFinishEventId'],
    reason,
    requestId: randomUUID(),
    // Signals and updates received after the reset point are applied to the new run.
    resetReapplyType: temporal.api.enums.v1.ResetReapplyType.RESET_REAPPLY_TYPE_ALL_ELIGIBLE,
  });
  return { workflowId: desc.workflowId, fromRunId: desc.runId, newRunId: res.runId ?? '', eventId };
}

/** status / reset: any run of any workflow, by workflow id or run id. */
export function registerRunsCommands(program: Command, run: Runner): void {
  program
    .command('status')
    .description('the status of any run: type, state, search attributes, pending work')
    .argument('<id>', 'a workflow id or a run id')
    .action(
      run(async (ctx, id: string) => {
        await requireOperator(ctx);
        ctx.out.print(await runStatus(await ctx.temporal(), id));
      }),
    );

  program
    .command('reset')
    .description(
      "reset a run to a completed workflow task with the server's reset; a new run continues from there",
    )
    .argument('<id>', 'a workflow id or a run id')
    .requiredOption(
      '--to <point>',
      `an event id (a WorkflowTaskCompleted) | ${RESET_POINTS.join(' | ')}`,
    )
    .option('--reason <text>', 'recorded on the reset', 'operator reset from the CLI')
    .action(
      run(async (ctx, id: string, raw: unknown) => {
        const o = parseOptions(z.object({ to: ResetTo, reason: z.string().min(1).max(500) }), raw);
        await requireOperator(ctx);
        ctx.out.print(await resetRun(ctx, id, o.to, o.reason));
      }),
    );
}
