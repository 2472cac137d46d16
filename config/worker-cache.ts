import { getHeapStatistics } from 'node:v8';

/**
 * How many workflows a worker may keep cached. The SDK's default assumes ~1.7 MiB per cached
 * workflow (2,430 on a 4 GiB heap); ours measure 3.7 MiB of RSS each (`npm run bench --
 * events` prints rssMiBPerCachedWorkflow), so a burst of 1,000 events (2,000 open workflows)
 * grew the worker to 4.2 GB at 1,200 cached and it stalled. A bounded cache costs a replay
 * when an evicted workflow wakes; an unbounded one costs the process.
 */
export const HEAP_MIB_PER_CACHED_WORKFLOW = 4;
export const HEAP_MIB_RESERVED = 1024;

export function defaultMaxCachedWorkflows(
  heapLimitMiB = getHeapStatistics().heap_size_limit / 1024 / 1024,
): number {
  const n = Math.floor((heapLimitMiB - HEAP_MIB_RESERVED) / HEAP_MIB_PER_CACHED_WORKFLOW);
  return Math.min(1000, Math.max(50, n));
}
