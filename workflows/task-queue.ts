/**
 * The one task queue the worker serves (analysis, ingestion, gateway). Splitting a capability
 * onto its own queue later is a change here and in worker.ts, not in callers.
 */
export const DEFAULT_TASK_QUEUE = 'countersign';
