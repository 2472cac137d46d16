import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { loadConfig } from '../config/env';
import { connectClient } from '../client/temporal-connection';
import { createPayloadCodec, dataConverterOf } from '../client/codec/payload-codec';
import { openDatabase, type Database } from '../db/connection';

/**
 * Replays histories against the current workflow code: the operator's check before a deploy
 * (and after a failure), and CI's determinism guard. Histories come from files exported with
 * `temporal workflow show --output json`, from runs on the cluster by id, or by a List
 * Workflows query (e.g. all failed analyses of an org).
 *
 *   npm run replay -- [--bundle FILE] HISTORY.json ...
 *   npm run replay -- --workflow-id ID [--workflow-id ID ...]
 *   npm run replay -- --query 'CsOrg="demo" AND ExecutionStatus="Failed"' [--limit 100]
 *
 * Prints one JSON line per history; exits 1 when any fails to replay. Encrypted histories are
 * decrypted with the installation's payload codec (its data keys from the database, opened only
 * when a history holds an encrypted payload); clear ones, from before the codec, pass through.
 */
/**
 * The id the run had: its started event carries it (server 1.27+). Without it the replayer
 * would make one up ('fake', or the file's name), and workflowInfo().workflowId would lie.
 */
export function recordedWorkflowId(history: unknown): string | undefined {
  const events = (history as { events?: unknown[] } | null)?.events;
  const started = (events?.[0] as { workflowExecutionStartedEventAttributes?: unknown } | undefined)
    ?.workflowExecutionStartedEventAttributes as { workflowId?: unknown } | null | undefined;
  return typeof started?.workflowId === 'string' && started.workflowId !== ''
    ? started.workflowId
    : undefined;
}

async function main(argv: string[]): Promise<void> {
  // stdout carries one JSON line per history; the replay worker's own logs stay quiet.
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      bundle: { type: 'string' },
      'workflow-id': { type: 'string', multiple: true },
      query: { type: 'string' },
      limit: { type: 'string' },
    },
  });
  const cfg = loadConfig();
  let database: Promise<Database> | undefined;
  const db = async () => (await (database ??= openDatabase(cfg))).db;
  // Decode only: a replayer's completions go nowhere, so it never needs to create a data key.
  const dataConverter = dataConverterOf(createPayloadCodec(cfg, db, { encode: false }));
  const code: { workflowBundle: { code: string } } | { workflowsPath: string } = values.bundle
    ? { workflowBundle: { code: readFileSync(values.bundle, 'utf8') } }
    : { workflowsPath: require.resolve('../workflow-bundle') };
  const source = { ...code, dataConverter };

  const histories: { name: string; history: unknown }[] = positionals.map((file) => ({
    name: basename(file),
    history: JSON.parse(readFileSync(file, 'utf8')),
  }));
  const ids = values['workflow-id'] ?? [];
  if (ids.length > 0 || values.query) {
    const client = await connectClient(cfg, db);
    try {
      for (const id of ids)
        histories.push({ name: id, history: await client.workflow.getHandle(id).fetchHistory() });
      if (values.query) {
        const limit = Number(values.limit ?? 100);
        for await (const run of client.workflow.list({ query: values.query })) {
          if (histories.length >= limit + ids.length + positionals.length) break;
          histories.push({
            name: run.workflowId,
            history: await client.workflow.getHandle(run.workflowId, run.runId).fetchHistory(),
          });
        }
      }
    } finally {
      await client.connection.close();
    }
  }

  let failed = 0;
  for (const { name, history } of histories) {
    try {
      // A workflow may derive names from its own id (the agent run's slot request ids are);
      // replayed under another id, it waits for signals that name the real one and diverges.
      await Worker.runReplayHistory(source, history, recordedWorkflowId(history) ?? name);
      console.log(JSON.stringify({ file: name, ok: true }));
    } catch (err) {
      failed++;
      const kind =
        err instanceof DeterminismViolationError
          ? 'DeterminismViolationError'
          : err instanceof Error
            ? err.name
            : 'Error';
      console.log(
        JSON.stringify({
          file: name,
          ok: false,
          error: kind,
          message: err instanceof Error ? err.message : String(err),
        }),
      );
    }
  }
  if (database) await (await database).close();
  process.exitCode = failed > 0 ? 1 : 0;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
