import { globalHandlers } from '@temporalio/worker/lib/workflow/vm-shared';

/**
 * Makes the test file's Temporal workers run their workflows in the test process instead of
 * one worker thread per Temporal worker (support/worker.ts workflowBundle() calls it, so every
 * worker a test builds on the shared bundle does).
 *
 * Each worker group is six Temporal workers (one per domain queue, plus the slot queue), and
 * each worker otherwise starts a thread that loads the SDK and the workflow bundle again:
 * about 0.6 s of CPU per worker, some 4 s per group, paid by every test file that starts one.
 * The SDK's debug mode (TEMPORAL_DEBUG) runs the same bundle in the same reusable V8 context
 * and sandbox on the main thread. It also lifts the 5 s deadlock timeout, which no test uses.
 *
 * Debug mode installs process-wide hooks for workflow stack traces (a promise hook that
 * compiles a function for every promise the process creates, and an Error.prepareStackTrace
 * override). Jest loads the SDK afresh for each test file, so the hooks would pile up, one set
 * per file, on every promise of the jest worker: they are marked installed here, so they never
 * are. Workflow failures keep their messages and types; only the __stack_trace query and
 * source-mapped workflow stacks are lost, which no test reads.
 *
 * Processes a test spawns with its env (the CLI, the domain worker, the lifecycle parent)
 * inherit TEMPORAL_DEBUG once set and run their workflows on their main thread too, with the
 * SDK's hooks (one set per process, as debug mode always has).
 * CS_TEST_WORKFLOW_THREADS=1 keeps the worker threads (and the deadlock timeout).
 */
export function runWorkflowsInProcess(): void {
  if (process.env.CS_TEST_WORKFLOW_THREADS === '1') return;
  process.env.TEMPORAL_DEBUG = '1';
  globalHandlers.installed = true;
}
