// A delegate run's last step: it closes the delegation it worked for (delegation-answer.ts
// reads which one, and the answer). The runtime answers it, never the handler.
import { patched } from '@temporalio/workflow';
import { requestActivities } from './activity-proxies';
import { logProgress } from './bookkeeping';
import { delegationToClose } from './delegation-answer';
import type { AgentRun } from './run-state';

/**
 * Answers the delegation the run's trigger names (an activity checks the named entity really
 * exists), or fails it when the output gives no answer; runs recorded before this step
 * replay without it.
 */
export async function closeDelegation(
  run: AgentRun,
  output: { summary: string; data: unknown },
): Promise<void> {
  const delegation = delegationToClose(run.trigger.payload, output.data);
  if (delegation && patched('agent-run-completes-delegation')) {
    const closed = await requestActivities().requestCompleteDelegation({
      orgId: run.orgId,
      requestId: delegation.requestId,
      agentType: run.agent.agentType,
      answer: delegation.answer,
    });
    await logProgress(
      run,
      closed.status === 'completed'
        ? `delegation ${closed.requestId} answered: ${closed.entity!.kind} ${closed.entity!.id}`
        : `delegation ${closed.requestId} not answered (${closed.status}): ${closed.reason ?? ''}`,
      closed,
    );
  }
}
