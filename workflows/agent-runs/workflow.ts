import { isCancellation } from '@temporalio/workflow';
import type { AgentRunInput, AgentRunResult } from './contract';
import { finish, recordRunStart, transition } from './bookkeeping';
import { closeDelegation } from './close-delegation';
import { messageOf } from './run-errors';
import { newAgentRun } from './run-state';
import { acquireRunSlots } from './run-slots';
import { setupAgentRun } from './setup';
import { awaitGatewayDecisions } from './submissions';
import { runWorkUnderTimeout } from './work';

export { RequestRefused, ToolRefused } from './run-errors';

/**
 * One agent instance: wait for its slots (agent, then org — always in that order, so waits
 * cannot deadlock), run the handler or the model loop under timeout_minutes, release the
 * slots, then wait — as waiting_approval — for the gateway to decide the writes it submitted.
 * Every state is stored with its time; nothing is dropped while it waits.
 */
export async function agentRunWorkflow(input: AgentRunInput): Promise<AgentRunResult> {
  const run = newAgentRun(input);
  setupAgentRun(run);
  await recordRunStart(run);

  // ---- slots ---------------------------------------------------------------------------
  const noSlot = await acquireRunSlots(run);
  if (noSlot) return noSlot;
  await transition(run, 'running', `${run.agent.executionMode} mode`);

  // ---- run under timeout_minutes, then release the slots ----------------------------------
  const work = await runWorkUnderTimeout(run);
  if (work.kind === 'timeout')
    return await finish(
      run,
      'timeout',
      'timeout',
      `no result within ${run.agent.timeoutMinutes} minute(s)`,
      null,
      true,
    );
  if (work.kind === 'error') {
    if (isCancellation(work.e))
      return await finish(run, 'cancelled', 'cancelled', 'cancelled by an operator', null, false);
    return await finish(run, 'failed', 'failed', messageOf(work.e), null, true);
  }
  const r = work.r;
  if (r.status === 'needs_human')
    return await finish(run, 'failed', 'needs_human', r.summary, r.data ?? null, false);
  if (r.status === 'failed')
    return await finish(run, 'failed', 'failed', r.summary, r.data ?? null, true);

  // ---- the gateway decides the writes ----------------------------------------------------
  const output = { summary: r.summary, data: r.data ?? null };
  const rejected = await awaitGatewayDecisions(run, output);
  if (rejected) return rejected;
  if (r.status === 'waiting_human')
    return await finish(run, 'waiting_human', 'needs_human', r.summary, output, false);

  // ---- a delegate closes the delegation it worked for ---------------------------------------
  await closeDelegation(run, output);
  return await finish(run, 'completed', 'succeeded', null, output, false);
}
