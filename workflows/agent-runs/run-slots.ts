// The run's side of the slot semaphores (slots.ts): asking for a slot and waiting for its
// grant, releasing it, and the run's first phase — its agent slot, then its org slot.
import {
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log as wfLog,
} from '@temporalio/workflow';
import { baseQueue } from '../domain-routing';
import { book } from './activity-proxies';
import { finish } from './bookkeeping';
import { releaseSlotSignal, slotsWorkflowId, type AgentRunResult } from './contract';
import { messageOf } from './run-errors';
import type { AgentRun } from './run-state';

/** Releases one slot (or withdraws the request for it); a lost signal is logged, not thrown. */
export async function releaseSlot(run: AgentRun, scope: string, requestId: string): Promise<void> {
  const i = run.heldSlots.findIndex((h) => h.requestId === requestId);
  if (i >= 0) run.heldSlots.splice(i, 1);
  try {
    await getExternalWorkflowHandle(slotsWorkflowId(baseQueue(), scope)).signal(releaseSlotSignal, {
      requestId,
    });
  } catch (err) {
    wfLog.warn('slot release not delivered', { scope, requestId, error: messageOf(err) });
  }
}

/**
 * Asks for a slot of `scope` and waits for its grant; the request id, or null (the request
 * withdrawn) when `deadlineMs` passes first.
 */
export async function acquireSlot(
  run: AgentRun,
  scope: string,
  capacity: number,
  deadlineMs?: number,
): Promise<string | null> {
  const requestId = `${run.runId}#${scope}#${++run.slotAcquisitions}`;
  run.heldSlots.push({ scope, requestId });
  await book.agentRequestSlot({
    scope,
    request: { taskQueue: baseQueue(), holder: run.runId, requestId, capacity },
  });
  const got = () => run.grantedSlots.has(requestId);
  const ok =
    deadlineMs === undefined
      ? (await condition(got), true)
      : await condition(got, Math.max(1, deadlineMs - Date.now()));
  if (!ok) {
    await CancellationScope.nonCancellable(() => releaseSlot(run, scope, requestId));
    return null;
  }
  return requestId;
}

/** Releases every slot still held, last asked for first, even when the run is cancelled. */
export function releaseAllSlots(run: AgentRun): Promise<void> {
  return CancellationScope.nonCancellable(async () => {
    for (const h of [...run.heldSlots].reverse()) await releaseSlot(run, h.scope, h.requestId);
  });
}

/**
 * The run's agent slot, then its org slot (always in that order, so waits cannot deadlock),
 * before the event expires. Null when both are held; else the run's finished result.
 */
export async function acquireRunSlots(run: AgentRun): Promise<AgentRunResult | null> {
  const { orgId, agent, limits } = run;
  try {
    const agentSlot = await acquireSlot(
      run,
      `agent:${orgId}:${agent.agentType}`,
      agent.maxConcurrentRuns,
      run.input.slotDeadlineMs,
    );
    const orgSlot = agentSlot
      ? await acquireSlot(
          run,
          `org:${orgId}`,
          limits.orgMaxConcurrentRuns,
          run.input.slotDeadlineMs,
        )
      : null;
    if (!agentSlot || !orgSlot) {
      await releaseAllSlots(run);
      return await finish(
        run,
        'cancelled',
        'expired',
        'no concurrency slot before the event expired',
        null,
        false,
      );
    }
  } catch (err) {
    await releaseAllSlots(run);
    if (isCancellation(err))
      return await finish(
        run,
        'cancelled',
        'cancelled',
        'cancelled while waiting for a slot',
        null,
        false,
      );
    throw err;
  }
  return null;
}
