import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { connectClient } from '../client/temporal-connection';
import { parse, stringify } from 'yaml';
import type { Database } from '../db/connection';
import { createWorker } from '../worker';
import type { AgentRuntimeOptions } from '../domains/agent-runtime';
import { EventsClient, type EventsClientOptions } from '../client/events-client';
import { PROJECT_ROOT } from '../scripts/lib/temporal-binaries';
import { testConfig, workflowBundle } from './support/worker';

/**
 * The agent runtime's test harness: an agents/ folder written per test file (copies of the
 * shipped agents with overrides, plus fixture agents), and a real worker on its own task
 * queue with the runtime's options; faults are injected at the activity seam.
 */
export function agentsDirWith(
  agents: Record<string, { base?: string; config: Record<string, unknown>; prompt?: string }>,
): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'cs-agents-'));
  for (const [name, a] of Object.entries(agents)) {
    const target = join(dir, name);
    if (a.base) cpSync(join(PROJECT_ROOT, 'agents', a.base), target, { recursive: true });
    else mkdirSync(target);
    const baseConfig = a.base
      ? (parse(readFileSync(join(target, 'config.yaml'), 'utf8')) as Record<string, unknown>)
      : {};
    writeFileSync(join(target, 'config.yaml'), stringify({ ...baseConfig, ...a.config }));
    if (a.prompt || !a.base) writeFileSync(join(target, 'prompt.md'), a.prompt ?? `# ${name}\n`);
  }
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface RuntimeWorker {
  client: Client;
  taskQueue: string;
  events: EventsClient;
  stop(): Promise<void>;
}

export async function startRuntimeWorker(
  database: Database,
  opts: {
    agentRuntime: AgentRuntimeOptions;
    events?: EventsClientOptions;
    activityOverrides?: Record<string, (...args: never[]) => unknown>;
    env?: Record<string, string>;
  },
): Promise<RuntimeWorker> {
  const cfg = testConfig(database, opts.env ?? {});
  const taskQueue = `test-${randomBytes(4).toString('hex')}`;
  const { worker, connection } = await createWorker({
    cfg,
    database,
    taskQueue,
    workflowBundle: workflowBundle(),
    activityOverrides: opts.activityOverrides,
    agentRuntime: opts.agentRuntime,
  });
  const running = worker.run();
  const client = await connectClient(cfg, database.db);
  return {
    client,
    taskQueue,
    events: new EventsClient(client, database.db, { taskQueue, ...opts.events }),
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
      await client.connection.close();
    },
  };
}

/** Polls until fn returns a value (not undefined) or the time is up. */
export async function eventually<T>(fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('eventually: timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Most intervals open at once. */
export function maxOverlap(intervals: { start: number; end: number }[]): number {
  const points = intervals.flatMap((i) => [
    { t: i.start, d: 1 },
    { t: i.end, d: -1 },
  ]);
  // Ends before starts at the same instant: touching intervals do not overlap.
  points.sort((a, b) => a.t - b.t || a.d - b.d);
  let cur = 0;
  let max = 0;
  for (const p of points) {
    cur += p.d;
    max = Math.max(max, cur);
  }
  return max;
}
