import type { Worker, WorkerStatus } from '@temporalio/worker';

/**
 * The workers one process runs, started and stopped together: one per domain it serves (each
 * on its domain's queue, `<base>-<domain>`) and, with the agents domain, the concurrency-slot
 * worker on `<base>-slots`. The slot semaphores must never wait behind a burst's backlog —
 * each grant is one of their workflow tasks — so they get their own queue, pollers and task
 * slots. run and shutdown cover every worker; state and status are the group's.
 */
export class WorkerGroup {
  /** name (a domain, or `slots`) → its worker, in start order. */
  readonly workers: ReadonlyMap<string, Worker>;

  constructor(workers: Iterable<readonly [string, Worker]>) {
    this.workers = new Map(workers);
    if (this.workers.size === 0) throw new Error('WorkerGroup: no workers to run');
  }

  private all(): Worker[] {
    return [...this.workers.values()];
  }

  /** RUNNING while any worker runs; otherwise the common state (the first's if they differ). */
  getState(): ReturnType<Worker['getState']> {
    const states = this.all().map((w) => w.getState());
    if (states.includes('RUNNING')) return 'RUNNING';
    const first = states[0] ?? 'STOPPED';
    return first;
  }

  /** The group's status: counts summed over its workers, poller states of the first. */
  getStatus(): WorkerStatus {
    const statuses = this.all().map((w) => w.getStatus());
    const sum = (k: keyof WorkerStatus) =>
      statuses.reduce((n, s) => n + (typeof s[k] === 'number' ? (s[k] as number) : 0), 0);
    const first = statuses[0] as WorkerStatus;
    const out = { ...first, runState: this.getState() } as Record<string, unknown>;
    for (const k of Object.keys(first) as (keyof WorkerStatus)[])
      if (typeof first[k] === 'number') out[k] = sum(k);
    return out as unknown as WorkerStatus;
  }

  /** Workflows the group may keep cached, summed over its workers (the process's budget). */
  get maxCachedWorkflows(): number {
    return this.all().reduce((n, w) => n + (w.options.maxCachedWorkflows ?? 0), 0);
  }

  /** Runs every worker; if one stops (or fails), the others are shut down too. */
  async run(): Promise<void> {
    const stopOthers = () => {
      for (const w of this.all()) if (w.getState() === 'RUNNING') w.shutdown();
    };
    const results = await Promise.allSettled(this.all().map((w) => w.run().finally(stopOthers)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Runs the group while fn runs; then shuts it down and waits for it to drain. */
  async runUntil<R>(fn: () => Promise<R>): Promise<R> {
    const running = this.run();
    const stopped = running.then(() => {
      throw new Error('the workers stopped before the function completed');
    });
    try {
      return await Promise.race([fn(), stopped]);
    } finally {
      this.shutdown();
      await running;
    }
  }

  shutdown(): void {
    for (const w of this.all()) if (w.getState() === 'RUNNING') w.shutdown();
  }
}
