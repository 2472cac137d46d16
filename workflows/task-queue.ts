/**
 * Task queues. A deployment names one base queue (`TEMPORAL_TASK_QUEUE`, default
 * `countersign`); each domain's workflows and activities live on `<base>-<domain>`, and the
 * concurrency semaphores on `<base>-slots`. Callers (clients, workflows) pass or derive the
 * base and ask here for a domain's queue, so which process serves a domain is the worker's
 * business (`WORKER_DOMAINS`), not theirs. Pure: imported by workflows and by node code.
 */
export const DEFAULT_TASK_QUEUE = 'countersign';

/** The domains a worker can serve, each on its own task queue. */
export const DOMAINS = ['analysis', 'gateway', 'events', 'agents', 'requests'] as const;
export type Domain = (typeof DOMAINS)[number];

/** Suffixes a base queue may not end with: the base would be ambiguous with a derived queue. */
export const RESERVED_QUEUE_SUFFIXES: readonly string[] = [...DOMAINS, 'slots'];

export function isDomain(name: string): name is Domain {
  return (DOMAINS as readonly string[]).includes(name);
}

/** The queue a domain's workflows and activities run on. */
export function domainTaskQueue(base: string, domain: Domain): string {
  return `${base}-${domain}`;
}

/**
 * The semaphores run on their own queue, `<base>-slots` (served by the slot worker of each
 * process running the agents domain): a grant must not wait behind a burst's backlog of new
 * workflows.
 */
export function slotsTaskQueue(baseQueue: string): string {
  return `${baseQueue}-slots`;
}

/** The queues of a deployment's base: each domain's, and the slots'. */
export function deploymentQueues(baseQueue: string): string[] {
  return [...DOMAINS.map((d) => domainTaskQueue(baseQueue, d)), slotsTaskQueue(baseQueue)];
}

/**
 * The base a queue derives from: `<base>-<domain>` gives `<base>`; any other queue (a base
 * itself, or a queue from before the split into domains) is its own base.
 */
export function baseTaskQueue(taskQueue: string): string {
  for (const d of DOMAINS) {
    const suffix = `-${d}`;
    if (taskQueue.length > suffix.length && taskQueue.endsWith(suffix))
      return taskQueue.slice(0, -suffix.length);
  }
  return taskQueue;
}
