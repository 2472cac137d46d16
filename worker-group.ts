import type { Worker, WorkerStatus } from '@temporalio/worker';

/**
 * The workers one process runs, started and stopped together: the main worker (every domain
 * on the main task queue) and the concurrency-slot worker on its own queue. The slot
 * semaphores must never wait behind a burst's backlog on the main queue — each grant is one of
 * their workflow tasks — so they get their own queue, pollers and task slots. Exposes the
 * main worker's state, status and options; run and shutdown cover both.
 */
export class WorkerGroup {
  constructor(
    readonly main: Worker,
    readonly slots: Worker,
  ) {}

  get options(): Worker['options'] {
    return this.main.options;
  }

  getState(): ReturnType<Worker['getState']> {
    return this.main.getState();
  }

  getStatus(): WorkerStatus {
    return this.main.getStatus();
  }

  /** Runs both; if either stops (or fails), the other is shut down too. */
  async run(): Promise<void> {
    const stopOther = (w: Worker) => {
      if (w.getState() === 'RUNNING') w.shutdown();
    };
    const results = await Promise.allSettled([
      this.main.run().finally(() => stopOther(this.slots)),
      this.slots.run().finally(() => stopOther(this.main)),
    ]);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  shutdown(): void {
    for (const w of [this.main, this.slots]) if (w.getState() === 'RUNNING') w.shutdown();
  }
}
