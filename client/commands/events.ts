import type { Command } from 'commander';
import { z } from 'zod';
import { runsOfEvent } from '../../db/repositories/agent-runs';
import { eventTransitionsOf, failedEvents, getEvent } from '../../db/repositories/events';
import {
  EVENT_SUSPENDED,
  EVENT_WORKFLOW,
  EventEnvelopeSchema,
  eventResumeUpdate,
  type EventResult,
} from '../../workflows/events/contract';
import { requireAdmin } from './gateway';
import { dispatchOutbox } from '../../activities/events/outbox';
import { InvalidRequestError } from '../errors';
import { type Accepted, EventsClient } from '../events-client';
import type { Runner } from './context';
import { type CliContext, parseOptions } from './context';
import { baseTaskQueue } from '../../workflows/task-queue';
import { requireOperator } from './operator';
import { CsOrg } from '../../workflows/search-attributes';

/** The states an operator may retry: the event ran and gave up (or never got a slot). */
const RETRYABLE_STATES = ['failed', 'expired'];

export interface RetriedEvent extends Accepted {
  retryOf: string;
  /** With --wait: the new event's outcome. */
  result?: EventResult;
}

/**
 * Retries a failed (or expired) event: its envelope is accepted again as a new event with the
 * same workflow id — the failed run is closed, so the id is free — on the task queue the
 * failed run used. The failed event's row stays as it was (its history is evidence); the new
 * event points back at it in the output and supersedes it in `events failed`.
 */
export async function retryEvent(
  ctx: CliContext,
  orgId: string,
  eventId: string,
  opts: { wait?: boolean } = {},
): Promise<RetriedEvent> {
  const db = await ctx.db();
  const row = await getEvent(db, orgId, eventId);
  if (!row)
    throw new InvalidRequestError(`No event ${eventId}`, [
      { path: 'id', message: 'unknown event' },
    ]);
  if (!RETRYABLE_STATES.includes(row.state))
    throw new InvalidRequestError(
      `Event ${eventId} is ${row.state}; only failed or expired events are retried`,
      [{ path: 'id', message: `state ${row.state}` }],
    );
  const envelope = EventEnvelopeSchema.parse({
    orgId: row.orgId,
    type: row.type,
    source: row.source,
    payload: row.payload,
    ...(row.causation ? { causation: row.causation } : {}),
  });
  const client = await ctx.temporal();
  const failedRun = await client.workflow.getHandle(row.workflowId).describe();
  const events = new EventsClient(client, db, { taskQueue: baseTaskQueue(failedRun.taskQueue) });
  const accepted = await events.acceptEvent(envelope);
  const retried: RetriedEvent = { ...accepted, retryOf: eventId };
  if (opts.wait && accepted.status === 'accepted')
    retried.result = await events.result(accepted.workflowId);
  return retried;
}

/**
 * Resumes an event an outage suspended (its database step outlasted DB_RETRY_BUDGET_MS): the
 * operator is an admin or owner of the event's org; the failed step runs again.
 */
export async function resumeEvent(
  ctx: CliContext,
  workflowId: string,
  note?: string,
): Promise<{ workflowId: string; resumed: true; step: string }> {
  const client = await ctx.temporal();
  const handle = client.workflow.getHandle(workflowId);
  const desc = await handle.describe();
  const org = desc.typedSearchAttributes.get(CsOrg);
  if (desc.type !== EVENT_WORKFLOW || !org)
    throw new InvalidRequestError(`${workflowId} is not an event`, [
      { path: 'workflowId', message: 'not an event workflow' },
    ]);
  const operator = await requireAdmin(ctx, org);
  const r = await handle.executeUpdate(eventResumeUpdate, {
    args: [{ operator, ...(note ? { note } : {}) }],
  });
  return { workflowId, ...r };
}

/** events send / show / failed / retry / suspended / resume / dispatch-outbox. */
export function registerEventsCommands(program: Command, run: Runner): void {
  const events = program.command('events').description('events that trigger agents');

  events
    .command('send')
    .description('accept an event (deduplicated by its payload while one is active)')
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--type <type>', 'dotted event type, e.g. document.received')
    .requiredOption('--source <source>', 'email | schedule | connector | rule | agent')
    .option('--payload <json>', 'the payload as a JSON object', '{}')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({ org: z.string(), type: z.string(), source: z.string(), payload: z.string() }),
          raw,
        );
        await requireOperator(ctx, o.org);
        let payload: unknown;
        try {
          payload = JSON.parse(o.payload);
        } catch {
          throw new InvalidRequestError('--payload is not JSON', [
            { path: 'payload', message: 'not JSON' },
          ]);
        }
        const events = new EventsClient(await ctx.temporal(), await ctx.db(), {
          taskQueue: ctx.config().TEMPORAL_TASK_QUEUE,
        });
        ctx.out.print(
          await events.acceptEvent({ orgId: o.org, type: o.type, source: o.source, payload }),
        );
      }),
    );

  events
    .command('show')
    .description('one event: its row, every state it passed through, its agent runs')
    .argument('[eventId]', 'event id (or --id)')
    .option('--id <eventId>', 'event id')
    .requiredOption('--org <org>', 'organization id')
    .action(
      run(async (ctx, arg: string | undefined, raw: { id?: string; org: string }) => {
        const id = parseOptions(z.string({ error: 'give the event id' }).min(1), arg ?? raw.id);
        const org = parseOptions(z.string().min(1), raw.org);
        await requireOperator(ctx, org);
        const db = await ctx.db();
        const event = await getEvent(db, org, id);
        if (!event)
          throw new InvalidRequestError(`No event ${id}`, [
            { path: 'id', message: 'unknown event' },
          ]);
        ctx.out.print({
          event,
          transitions: await eventTransitionsOf(db, org, id),
          runs: await runsOfEvent(db, org, id),
        });
      }),
    );

  events
    .command('failed')
    .description('failed and expired events not yet retried, newest first')
    .option('--org <org>', 'only this org')
    .option('--limit <n>', 'at most this many', '100')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: z.string().min(1).optional(),
            limit: z.coerce.number().int().min(1).max(10_000),
          }),
          raw,
        );
        await requireOperator(ctx, o.org);
        const rows = await failedEvents(await ctx.db(), { orgId: o.org, limit: o.limit });
        ctx.out.print(
          rows.map((e) => ({
            id: e.id,
            orgId: e.orgId,
            type: e.type,
            state: e.state,
            attempts: e.attempts,
            detail: e.detail,
            acceptedAt: e.acceptedAt,
            workflowId: e.workflowId,
          })),
        );
      }),
    );

  events
    .command('retry')
    .description('retry a failed or expired event: its envelope is accepted again')
    .argument('<eventId>', 'the failed event')
    .requiredOption('--org <org>', 'organization id')
    .option('--wait', 'wait for the retried event to finish and print its outcome')
    .action(
      run(async (ctx, id: string, raw: { wait?: boolean; org: string }) => {
        const org = parseOptions(z.string().min(1), raw.org);
        await requireOperator(ctx, org);
        const retried = await retryEvent(ctx, org, id, { wait: raw.wait === true });
        ctx.out.print(retried);
        if (retried.result && retried.result.state !== 'completed') process.exitCode = 1;
      }),
    );

  events
    .command('suspended')
    .description('events waiting for an operator after an outage outlasted their retry budget')
    .option('--limit <n>', 'at most this many', '100')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({ limit: z.coerce.number().int().min(1).max(10_000) }),
          raw,
        );
        await requireOperator(ctx);
        const client = await ctx.temporal();
        const out: { workflowId: string; orgId: string | undefined; startTime: Date }[] = [];
        for await (const w of client.workflow.list({
          query: `WorkflowType = '${EVENT_WORKFLOW}' AND ExecutionStatus = 'Running' AND CsState = '${EVENT_SUSPENDED}'`,
        })) {
          out.push({
            workflowId: w.workflowId,
            orgId: w.typedSearchAttributes.get(CsOrg),
            startTime: w.startTime,
          });
          if (out.length >= o.limit) break;
        }
        ctx.out.print(out);
      }),
    );

  events
    .command('resume')
    .description('resume an event suspended by an outage (admin/owner of its org)')
    .argument('<workflowId>', "the event's workflow id (events suspended lists them)")
    .option('--note <text>', 'note')
    .action(
      run(async (ctx, workflowId: string, raw: { note?: string }) => {
        const note = parseOptions(z.string().max(4000).optional(), raw.note);
        ctx.out.print(await resumeEvent(ctx, workflowId, note));
      }),
    );

  events
    .command('dispatch-outbox')
    .description(
      'one round of the outbox dispatcher now: start the event of every applied write not handed over',
    )
    .option(
      '--grace-ms <n>',
      'skip rows younger than this (an in-line hand-over may be under way)',
      '0',
    )
    .option('--limit <n>', 'at most this many rows', '1000')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            graceMs: z.coerce.number().int().min(0),
            limit: z.coerce.number().int().min(1).max(100_000),
          }),
          raw,
        );
        await requireOperator(ctx);
        const db = await ctx.db();
        const events = new EventsClient(await ctx.temporal(), db, {
          taskQueue: ctx.config().TEMPORAL_TASK_QUEUE,
        });
        const report = await dispatchOutbox({ db, events }, o);
        ctx.out.print(report);
        if (report.failed.length > 0) process.exitCode = 1;
      }),
    );
}
