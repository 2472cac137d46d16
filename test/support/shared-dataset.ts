import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The evaluation data beside the project (`../shared/datasets`), read in place by some tests. */
export const SHARED_DATASETS = resolve(__dirname, '..', '..', '..', 'shared', 'datasets');

/**
 * A path under `../shared/datasets` that a test reads, and whether that test can run:
 * - the path is there: it runs;
 * - no `../shared/datasets` at all (a clone without the evaluation data): it is skipped, and
 *   says so on the console;
 * - `../shared/datasets` is there but not this path: the suite fails — a dataset that moved
 *   or was renamed must not turn a test into a silent skip.
 */
export function sharedDataset(...parts: string[]): { path: string; present: boolean } {
  const path = join(SHARED_DATASETS, ...parts);
  if (existsSync(path)) return { path, present: true };
  if (existsSync(SHARED_DATASETS))
    throw new Error(
      `${path} is missing although ${SHARED_DATASETS} is there: the dataset moved or was renamed`,
    );
  console.warn(`skipped: ${path} is not present (no ../shared/datasets beside the project)`);
  return { path, present: false };
}
