import { proxyActivities } from '@temporalio/workflow';
import type * as activities from './activities';

/**
 * The floor of the benches: bare Temporal workflows with one and three activities that do no
 * work, so `npm run bench -- floor` measures what the dev server and the SDK cost on this
 * machine — the figure every Countersign suite is compared with in the same run.
 */
const { floorStep } = proxyActivities<typeof activities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 3 },
});

export async function floorOneActivity(input: string): Promise<string> {
  return floorStep(input);
}

export async function floorThreeActivities(input: string): Promise<string> {
  const a = await floorStep(input);
  const b = await floorStep(a);
  return floorStep(b);
}
