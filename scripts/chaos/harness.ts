import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { CHAOS_AGENT, LOOP_AGENT, startChaosModel } from './fake-model';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { connectClient } from '../../client/temporal-connection';
import { parseConfig, type AppConfig } from '../../config/env';
import { openDatabase, type Database } from '../../db/connection';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../db/embedded-postgres';
import { runMigrations } from '../../db/migrate';
import { portOpen, startDevServer, type RunningDevServer } from '../lib/dev-server';
import { PROJECT_ROOT } from '../lib/temporal-binaries';
import { spawnWorkerProcess } from '../lib/worker-process';

/**
 * What a fault scenario runs against: its own dev server, its own embedded PostgreSQL (full
 * durability: faults must not be hidden by a relaxed fsync), and a worker in a separate
 * process that the scenario may SIGKILL and restart at will. Loopback only.
 */
export interface ChaosPlatform {
  cfg: AppConfig;
  database: Database;
  client: Client;
  taskQueue: string;
  postgres: EmbeddedPostgres;
  devServer: RunningDevServer;
  worker: WorkerProcess;
  /** Model calls the loopback Messages-API server answered (the chaos agent's). */
  modelCalls(): number;
  /** Stop the dev server and start it again on the same SQLite file (history survives). */
  restartTemporal(downMs: number): Promise<void>;
  /** Fast-shutdown PostgreSQL and start it again on the same data folder; `whileDown` runs in the outage. */
  restartPostgres(downMs: number, whileDown?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface WorkerProcess {
  /** SIGKILL the worker (no drain, no goodbye) and start a new one at once. */
  killAndRestart(): Promise<void>;
  kills: number;
  /** Exits nobody asked for (a crash): each is restarted after 1 s, as a supervisor would. */
  crashes: { at: string; exit: string; lastLine: string }[];
  stop(): Promise<void>;
}

const TEMPORAL_PORT = Number(process.env.CS_CHAOS_TEMPORAL_PORT ?? 17_950);
// Below the kernel's ephemeral range (32768–60999 here): while PostgreSQL is down for the outage
// scenarios, clients retrying it must not be able to take its port as their own local end.
const PG_PORT = Number(process.env.CS_CHAOS_PG_PORT ?? 25_950);

function startWorkerProcess(env: Record<string, string>, log: (s: string) => void): WorkerProcess {
  let child: ChildProcess | undefined;
  let stopping = false;
  // A crashed worker is restarted after 1 s; a kill in that second must not start a second one
  // (two workers, one of them orphaned: it kept this process alive after the run, until CI's
  // time limit).
  let pendingRestart: NodeJS.Timeout | undefined;
  // The last lines the worker wrote: a crash is reported with its stack, not only its first line.
  let tail: string[] = [];
  const crashes: WorkerProcess['crashes'] = [];
  const launch = () => {
    if (pendingRestart) clearTimeout(pendingRestart);
    pendingRestart = undefined;
    tail = [];
    const c = spawnWorkerProcess({
      env: { ...process.env, ...env },
      stdout: 'ignore',
      stderr: 'pipe',
    });
    c.stderr?.on('data', (b: Buffer) => {
      const lines = b.toString().trim().split('\n');
      if (!lines[0]) return;
      tail = [...tail, ...lines].slice(-30);
      log(lines[0]);
    });
    c.once('exit', (code, signal) => {
      if (stopping || signal === 'SIGKILL' || c !== child) return;
      crashes.push({
        at: new Date().toISOString(),
        exit: String(code ?? signal),
        lastLine: tail.at(-1) ?? '',
      });
      log(
        `worker crashed (${code ?? signal}); restarting in 1 s. Its last lines:\n  ${tail.join('\n  ')}`,
      );
      pendingRestart = setTimeout(() => {
        pendingRestart = undefined;
        if (!stopping) launch();
      }, 1000);
    });
    child = c;
  };
  launch();
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((res) => c.once('exit', () => res()));
  const proc: WorkerProcess = {
    kills: 0,
    crashes,
    async killAndRestart() {
      const c = child;
      if (!c || stopping) return;
      c.kill('SIGKILL');
      await exited(c);
      proc.kills++;
      if (!stopping) launch();
    },
    async stop() {
      stopping = true;
      if (pendingRestart) clearTimeout(pendingRestart);
      const c = child;
      if (!c) return;
      c.kill('SIGTERM');
      const timer = setTimeout(() => c.kill('SIGKILL'), 25_000);
      await exited(c);
      clearTimeout(timer);
    },
  };
  return proc;
}

export async function bringUpChaosPlatform(log: (s: string) => void): Promise<ChaosPlatform> {
  const stops: (() => Promise<void>)[] = [];
  // Once only: the run's end and a signal may both ask (a second pass would end the pool twice).
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      for (const s of [...stops].reverse())
        await s().catch((e: unknown) => log(`stop failed: ${e}`));
    })());
  try {
    if (await portOpen('127.0.0.1', TEMPORAL_PORT))
      throw new Error(`port ${TEMPORAL_PORT} is busy: is another chaos run going?`);
    const dir = mkdtempSync(join(tmpdir(), 'cs-chaos-'));
    chmodSync(dir, 0o755);
    stops.push(async () => rmSync(dir, { recursive: true, force: true }));
    // Persistent (SQLite) so that a restarted dev server still knows every run.
    const startTemporal = () =>
      startDevServer(
        {
          port: TEMPORAL_PORT,
          uiPort: TEMPORAL_PORT + 1000,
          dbFilename: join(dir, 'temporal.sqlite'),
          namespace: 'countersign-chaos',
          headless: true,
          logLevel: 'error',
        },
        join(PROJECT_ROOT, '.data', 'chaos-temporal.log'),
      );
    let devServer = await startTemporal();
    stops.push(() => devServer.stop());
    const startPostgres = () => startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: PG_PORT });
    let postgres = await startPostgres();
    stops.push(() => postgres.stop());
    // The worker's agents: the shipped ones plus chaos_echo, an llm agent whose model is a
    // loopback Messages-API server (no internet, no key of anyone's).
    const agentsDir = join(dir, 'agents');
    mkdirSync(agentsDir);
    cpSync(join(PROJECT_ROOT, 'agents'), agentsDir, { recursive: true });
    for (const [agent, prompt] of [
      [CHAOS_AGENT, 'Look the cash account up and report.\n'],
      [LOOP_AGENT, 'Pass the event on.\n'],
    ] as const) {
      mkdirSync(join(agentsDir, agent.agent_type));
      writeFileSync(join(agentsDir, agent.agent_type, 'config.yaml'), stringify(agent));
      writeFileSync(join(agentsDir, agent.agent_type, 'prompt.md'), prompt);
    }
    const model = await startChaosModel();
    stops.push(model.close);
    const taskQueue = 'chaos';
    const env = {
      AGENTS_DIR: agentsDir,
      ANTHROPIC_API_KEY: 'chaos-loopback',
      ANTHROPIC_BASE_URL: model.url,
      DATABASE_URL: postgres.url,
      TEMPORAL_ADDRESS: devServer.address,
      TEMPORAL_NAMESPACE: devServer.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      LOG_LEVEL: 'ERROR',
      // Decision proofs: the worker verifies what the scenario's client signs, per run.
      DECISION_SIGNING_SECRET: randomBytes(32).toString('hex'),
      // Audit anchors of this throwaway platform stay in its own folder.
      AUDIT_ANCHOR_SECRET: randomBytes(32).toString('hex'),
      AUDIT_ANCHORS_FILE: join(dir, 'audit-anchors.jsonl'),
    };
    const cfg = parseConfig({ ...env, DB_POOL_SIZE: '16' });
    const database = await openDatabase(cfg);
    stops.push(database.close);
    await runMigrations(database);
    // The same payload codec as the worker process (same master key file, same database).
    const client = await connectClient(cfg, database.db);
    stops.push(() => client.connection.close());
    const worker = startWorkerProcess(env, (s) => log(`[worker] ${s}`));
    stops.push(worker.stop);
    return {
      cfg,
      database,
      client,
      taskQueue,
      postgres,
      devServer,
      worker,
      modelCalls: model.calls,
      async restartTemporal(downMs) {
        await devServer.stop();
        await new Promise((r) => setTimeout(r, downMs));
        devServer = await startTemporal();
      },
      async restartPostgres(downMs, whileDown) {
        await postgres.stop();
        const back = Date.now() + downMs;
        await whileDown?.();
        await new Promise((r) => setTimeout(r, Math.max(0, back - Date.now())));
        postgres = await startPostgres();
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Bounded concurrency over a list. */
export async function inPool<T>(
  items: T[],
  size: number,
  fn: (t: T) => Promise<void>,
): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (i < items.length) await fn(items[i++] as T);
    }),
  );
}

/**
 * SIGKILLs (and restarts) the worker `kills` times, each after a random pause in
 * [minMs, minMs + spanMs), until the kills are done or `stop()` is called; `stop()` resolves
 * once the loop has ended (a kill in progress completes first).
 */
export function killWorkerAtRandom(
  p: ChaosPlatform,
  opts: { kills: number; minMs: number; spanMs: number },
  log: (s: string) => void,
): { stop(): Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    for (let k = 0; k < opts.kills && !stopped; k++) {
      await new Promise((r) => setTimeout(r, opts.minMs + Math.random() * opts.spanMs));
      if (stopped) break;
      await p.worker.killAndRestart();
      log(`  worker killed and restarted (${k + 1}/${opts.kills})`);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
    },
  };
}
