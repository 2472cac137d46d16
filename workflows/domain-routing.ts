import { workflowInfo } from '@temporalio/workflow';
import { baseTaskQueue, domainTaskQueue, type Domain } from './task-queue';

/**
 * Inside a workflow: the deployment's base queue, derived from the queue this workflow runs
 * on (`<base>-<domain>`). Deterministic — a run's task queue never changes — and it needs no
 * configuration inside the sandbox.
 */
export function baseQueue(): string {
  return baseTaskQueue(workflowInfo().taskQueue);
}

/** Inside a workflow: the queue of a domain it calls (a child workflow, an activity). */
export function taskQueueOf(domain: Domain): string {
  return domainTaskQueue(baseQueue(), domain);
}
