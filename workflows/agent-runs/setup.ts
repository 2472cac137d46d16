// The run's message handlers, registered before its first await: slot grants (signal) and
// the state query. They read and write the run object, so the query always sees the latest.
import { setHandler } from '@temporalio/workflow';
import { agentRunStateQuery, slotGrantedSignal } from './contract';
import type { AgentRun } from './run-state';

/** Registers every handler of an agent run, in the order the run has always registered them. */
export function setupAgentRun(run: AgentRun): void {
  setHandler(slotGrantedSignal, ({ requestId }) => void run.grantedSlots.add(requestId));
  setHandler(agentRunStateQuery, () => ({
    runId: run.runId,
    orgId: run.orgId,
    agentType: run.agent.agentType,
    state: run.state,
    progress: [...run.progress],
    submissions: run.submissions.map((p) => ({ ...p.link })),
    result: run.result,
  }));
}
