import { cpus } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import * as floorActivities from './floor/activities';
import { benchPorts } from './lib/bench-platform';
import { percentiles, round1, type Percentiles } from './lib/bench-stats';
import { portOpen, startDevServer } from './lib/dev-server';
import { PROJECT_ROOT } from './lib/temporal-binaries';

/**
 * `npm run bench -- floor [--n 300] [--concurrency 20]`: bare Temporal on this machine — a
 * workflow of one and of three activities that do nothing, on a dev server of its own and a
 * worker with the SDK's default settings (as Countersign's workers, which set only their cache
 * size and shutdown grace). `bench all` runs it first and prints every suite's figure beside it
 * as a ratio, so "how close to the floor" is measured in one run, never quoted from elsewhere.
 */
export interface FloorBench {
  suite: 'floor';
  cores: number;
  /** One workflow at a time, start → result. */
  sequential: { runs: number; oneActivityMs: Percentiles; threeActivitiesMs: Percentiles };
  /** Three-activity workflows with `concurrency` in flight. */
  concurrent: {
    workflows: number;
    concurrency: number;
    workflowsPerSecond: number;
    latencyMs: Percentiles;
  };
}

async function pool<T>(items: T[], size: number, fn: (t: T) => Promise<void>): Promise<void> {
  let i = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (i < items.length) await fn(items[i++] as T);
    }),
  );
}

export async function benchFloor(opts: {
  n: number;
  concurrency: number;
  sequential?: number;
}): Promise<FloorBench> {
  const { temporalPort } = benchPorts(60, { temporal: 17_960, pg: 25_488 });
  if (await portOpen('127.0.0.1', temporalPort))
    throw new Error(`port ${temporalPort} is busy: another bench running?`);
  const stops: (() => Promise<void>)[] = [];
  try {
    const server = await startDevServer(
      {
        port: temporalPort,
        uiPort: temporalPort + 1000,
        dbFilename: undefined,
        namespace: 'countersign-bench',
        headless: true,
        logLevel: 'error',
      },
      join(PROJECT_ROOT, '.data', 'bench-floor-temporal.log'),
    );
    stops.push(server.stop);
    const workerConnection = await NativeConnection.connect({ address: server.address });
    stops.push(() => workerConnection.close());
    const taskQueue = `floor-${Date.now().toString(36)}`;
    const worker = await Worker.create({
      connection: workerConnection,
      namespace: server.namespace,
      taskQueue,
      workflowsPath: require.resolve('./floor/workflows'),
      activities: floorActivities,
      shutdownGraceTime: '20s',
    });
    const running = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await running;
    });
    const connection = await Connection.connect({ address: server.address });
    stops.push(() => connection.close());
    const client = new Client({ connection, namespace: server.namespace });

    let seq = 0;
    const once = async (type: 'floorOneActivity' | 'floorThreeActivities'): Promise<number> => {
      const t0 = performance.now();
      await client.workflow.execute(type, {
        taskQueue,
        workflowId: `${type}-${taskQueue}-${++seq}`,
        args: ['x'],
      });
      return performance.now() - t0;
    };
    // Warm the worker's bundle, cache and connections before anything is timed.
    for (let i = 0; i < 5; i++) await once('floorThreeActivities');

    const runs = opts.sequential ?? 30;
    const one: number[] = [];
    const three: number[] = [];
    for (let i = 0; i < runs; i++) {
      one.push(await once('floorOneActivity'));
      three.push(await once('floorThreeActivities'));
    }

    const latencies: number[] = [];
    const t0 = performance.now();
    await pool(
      Array.from({ length: opts.n }, (_, i) => i),
      opts.concurrency,
      async () => {
        latencies.push(await once('floorThreeActivities'));
      },
    );
    const seconds = (performance.now() - t0) / 1000;
    return {
      suite: 'floor',
      cores: cpus().length,
      sequential: {
        runs,
        oneActivityMs: percentiles(one),
        threeActivitiesMs: percentiles(three),
      },
      concurrent: {
        workflows: opts.n,
        concurrency: opts.concurrency,
        workflowsPerSecond: round1(opts.n / seconds),
        latencyMs: percentiles(latencies),
      },
    };
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}
