import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Client } from '@temporalio/client';
import { historyFromJSON, type History } from '@temporalio/common/lib/proto-utils';
import { temporal } from '@temporalio/proto';
import {
  DefaultLogger,
  makeTelemetryFilterString,
  Runtime,
  Worker,
  type ReplayWorkerOptions,
} from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { z } from 'zod';
import { InvalidRequestError } from '../errors';
import type { Runner } from './context';
import { parseOptions } from './context';
import { createPayloadCodec, dataConverterOf } from '../codec/payload-codec';
import { requireOperator } from './operator';

const { EventType } = temporal.api.enums.v1;

/** `10m`, `6h`, `7d`, `2w` before now, or an ISO date/time. */
export function sinceToDate(since: string, now = new Date()): Date {
  const rel = /^(\d+)(s|m|h|d|w)$/.exec(since);
  if (rel) {
    const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 604800e3 }[rel[2] as 's'];
    return new Date(now.getTime() - Number(rel[1]) * unit);
  }
  const d = new Date(since);
  if (Number.isNaN(d.getTime()))
    throw new InvalidRequestError(
      `--since ${since} is neither a duration (10m, 6h, 7d) nor a date`,
      [{ path: 'since', message: 'a duration such as 7d, or an ISO date' }],
    );
  return d;
}

/** The history event a determinism violation names, described for a person. */
export interface MismatchedEvent {
  eventId: number;
  eventType: string;
  /** The activity type, timer id, child workflow type … the recorded command carried. */
  detail: string | null;
}

export interface ReplayOutcome {
  name: string;
  workflowId: string;
  runId: string;
  ok: boolean;
  error?: 'DeterminismViolationError' | 'ReplayError' | string;
  message?: string;
  /** For a determinism violation: the recorded event the current code did not reproduce. */
  mismatch?: MismatchedEvent;
}

function describeEvent(e: temporal.api.history.v1.IHistoryEvent): MismatchedEvent {
  const detail =
    e.activityTaskScheduledEventAttributes?.activityType?.name ??
    e.timerStartedEventAttributes?.timerId ??
    e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowType?.name ??
    e.markerRecordedEventAttributes?.markerName ??
    e.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName ??
    (e.upsertWorkflowSearchAttributesEventAttributes
      ? Object.keys(
          e.upsertWorkflowSearchAttributesEventAttributes.searchAttributes?.indexedFields ?? {},
        )
          .sort()
          .join(', ')
      : null);
  return {
    eventId: Number(e.eventId),
    eventType: EventType[e.eventType ?? 0]?.replace(/^EVENT_TYPE_/, '') ?? String(e.eventType),
    detail: detail ?? null,
  };
}

/** Core's own sentence ("[TMPRL1100] Nondeterminism error: …") out of the wrapped message. */
export function reasonOf(message: string): string {
  const m = /\[TMPRL\d+\][^"]*/.exec(message);
  return m ? m[0] : message;
}

/**
 * The recorded event a violation is about. Core names it by id ("HistoryEvent(id: 12, …)")
 * or, for a changed activity, by the activity type the history scheduled ("scheduled event
 * 'x' does not match … command 'y'"): then it is the first such scheduled activity.
 */
export function mismatchOf(message: string, history: History): MismatchedEvent | undefined {
  const events = history.events ?? [];
  const byId = /HistoryEvent\(id: (\d+)/.exec(message) ?? /event[ _]id:? (\d+)/i.exec(message);
  if (byId) {
    const e = events.find((x) => Number(x.eventId) === Number(byId[1]));
    if (e) return describeEvent(e);
  }
  const activity = /scheduled event '([^']+)'/.exec(message);
  if (activity) {
    const e = events.find(
      (x) => x.activityTaskScheduledEventAttributes?.activityType?.name === activity[1],
    );
    if (e) return describeEvent(e);
  }
  return undefined;
}

interface Source {
  name: string;
  load(): Promise<History>;
}

function workflowIdOf(history: History, fallback: string): { workflowId: string; runId: string } {
  const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
  return {
    workflowId: started?.workflowId ?? fallback,
    runId: started?.originalExecutionRunId ?? '',
  };
}

/**
 * Replays each history against the workflow code (the worker's own, or another bundle or
 * module to compare), one replay worker for all of them. A failure never stops the rest.
 */
export async function replayHistories(
  code: ReplayWorkerOptions,
  sources: Source[],
  onEach: (o: ReplayOutcome) => void = () => undefined,
): Promise<ReplayOutcome[]> {
  const loaded: { name: string; history: History }[] = [];
  async function* histories() {
    for (const s of sources) {
      const history = await s.load();
      loaded.push({ name: s.name, history });
      // The run's own id, unaltered: a workflow may derive names from it (the agent run's
      // slot request ids are), and under another id its replay waits for signals in vain.
      yield { workflowId: workflowIdOf(history, s.name).workflowId, history };
    }
  }
  const out: ReplayOutcome[] = [];
  // The replay worker replays one history at a time and reports in the order given: the
  // n-th result is the n-th source (two runs of one id stay apart without renaming them).
  for await (const r of Worker.runReplayHistories(code, histories())) {
    const entry = loaded[out.length];
    const history = entry?.history ?? {};
    const ids = workflowIdOf(history, r.workflowId);
    const outcome: ReplayOutcome = { name: entry?.name ?? r.workflowId, ...ids, ok: !r.error };
    if (r.error) {
      outcome.error =
        r.error instanceof DeterminismViolationError ? 'DeterminismViolationError' : r.error.name;
      outcome.message = reasonOf(r.error.message);
      const mismatch = mismatchOf(r.error.message, history);
      if (mismatch) outcome.mismatch = mismatch;
    }
    out.push(outcome);
    onEach(outcome);
  }
  return out;
}

const ReplayOptions = z.object({
  file: z.array(z.string().min(1)).optional(),
  all: z.boolean().optional(),
  type: z.string().min(1).optional(),
  since: z.string().optional(),
  query: z.string().optional(),
  limit: z.coerce.number().int().min(1).max(10_000),
  bundle: z.string().optional(),
  workflows: z.string().optional(),
});

/** The runs `replay --all` replays: a type's runs started since a time, newest first. */
async function listRuns(client: Client, o: z.infer<typeof ReplayOptions>): Promise<Source[]> {
  const type = parseOptions(z.string({ error: '--all needs --type <WorkflowType>' }), o.type);
  const since = sinceToDate(o.since ?? '1d');
  const query = [`WorkflowType = "${type}"`, `StartTime >= "${since.toISOString()}"`, o.query]
    .filter(Boolean)
    .map((q) => `(${q})`)
    .join(' AND ');
  const sources: Source[] = [];
  for await (const run of client.workflow.list({ query })) {
    if (sources.length >= o.limit) break;
    sources.push({
      name: `${run.workflowId} (${run.runId})`,
      load: () => client.workflow.getHandle(run.workflowId, run.runId).fetchHistory(),
    });
  }
  return sources;
}

/** replay: does the current code reproduce recorded runs? */
export function registerReplayCommand(program: Command, run: Runner): void {
  program
    .command('replay')
    .description(
      'replay recorded histories against the current workflow code; a determinism violation names the recorded event the code no longer produces (exit 1)',
    )
    .argument('[workflowIds...]', 'workflow ids (their latest runs) or run ids')
    .option('--file <history.json...>', 'exported histories (temporal workflow show --output json)')
    .option('--all', 'replay recent runs of --type (CI and after a deploy)')
    .option('--type <WorkflowType>', 'with --all: the workflow type')
    .option(
      '--since <duration|date>',
      'with --all: runs started since (10m, 6h, 7d, or a date)',
      '1d',
    )
    .option('--query <visibility>', 'with --all: an extra List Workflows filter')
    .option('--limit <n>', 'with --all: at most this many runs', '200')
    .option(
      '--bundle <file>',
      'replay against this workflow bundle instead of ./workflow-bundle.ts',
    )
    .option(
      '--workflows <path>',
      'replay against this workflows module instead of ./workflow-bundle.ts',
    )
    .action(
      run(async (ctx, ids: string[], raw: unknown) => {
        const o = parseOptions(ReplayOptions, raw);
        // Fetching any org's histories from the cluster is an operator's command. Replaying
        // exported files (--file) reads only what the caller already holds; decoding them
        // still needs the installation's codec keys.
        if (ids.length > 0 || o.all) await requireOperator(ctx);
        // Results go to stdout; the replay worker's own logs would only hide them.
        Runtime.install({
          logger: new DefaultLogger('ERROR'),
          telemetryOptions: {
            logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }), forward: {} },
          },
        });
        const sources: Source[] = (o.file ?? []).map((f) => ({
          name: basename(f),
          load: () => Promise.resolve(historyFromJSON(JSON.parse(readFileSync(f, 'utf8')))),
        }));
        if (ids.length > 0 || o.all) {
          const client = await ctx.temporal();
          const { findExecution } = await import('./runs');
          for (const id of ids) {
            const found = await findExecution(client, id);
            sources.push({
              name: id,
              load: () => client.workflow.getHandle(found.workflowId, found.runId).fetchHistory(),
            });
          }
          if (o.all) sources.push(...(await listRuns(client, o)));
        }
        if (sources.length === 0)
          throw new InvalidRequestError(
            'Nothing to replay: give workflow ids, --file or --all --type',
            [{ path: 'workflowIds', message: 'none given' }],
          );
        // Encrypted histories decode with the installation's codec (decode only: a replay's
        // completions go nowhere); clear ones from before the codec pass through.
        const dataConverter = dataConverterOf(
          createPayloadCodec(ctx.config(), () => ctx.db(), { encode: false }),
        );
        const code: ReplayWorkerOptions = o.bundle
          ? { workflowBundle: { code: readFileSync(o.bundle, 'utf8') }, dataConverter }
          : {
              workflowsPath: o.workflows ?? require.resolve('../../workflow-bundle'),
              dataConverter,
            };

        const bar =
          !ctx.out.json && sources.length > 1
            ? new SingleBar({
                stream: process.stderr,
                format: 'replay [{bar}] {value}/{total} {name}',
              })
            : undefined;
        bar?.start(sources.length, 0, { name: '' });
        const results = await replayHistories(code, sources, (r) =>
          bar?.increment({ name: r.name }),
        );
        bar?.stop();
        const failed = results.filter((r) => !r.ok);
        ctx.out.print({ replayed: results.length, failed: failed.length, results });
        for (const f of failed)
          ctx.out.note(
            `✗ ${f.name}: ${f.error}${f.mismatch ? ` at event ${f.mismatch.eventId} ${f.mismatch.eventType}${f.mismatch.detail ? ` (${f.mismatch.detail})` : ''}` : ''} — ${f.message}`,
          );
        if (failed.length > 0) process.exitCode = 1;
      }),
    );
}
