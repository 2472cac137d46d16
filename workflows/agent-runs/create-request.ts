// A handler's ctx.request: a human request (or a delegation to another agent) created by the
// run under the loop defences — a callback run may not delegate again, and past the hop cap
// a delegation becomes a question to a person.
import { nextHop } from '../requests/loop-defences';
import { requestActivities } from './activity-proxies';
import { logProgress } from './bookkeeping';
import type { AgentRequestInput } from './context';
import { RequestRefused } from './run-errors';
import type { AgentRun } from './run-state';

/** Creates the request; its id, whether it joined an identical one, and who it goes to. */
export async function createRequest(
  run: AgentRun,
  req: AgentRequestInput,
): Promise<{ requestId: string; deduplicated: boolean; to: 'agent' | 'human' }> {
  const { runId, orgId, agent, trigger } = run;
  if (req.type === 'delegation' && run.callbackRun)
    throw new RequestRefused(
      'a run triggered by a request callback may not delegate again (loop breaker)',
    );
  let input = {
    ...req,
    orgId,
    hop: trigger.hop,
    createdBy: { runId, agentType: agent.agentType, workflowId: runId },
  };
  let to: 'agent' | 'human' = 'human';
  if (req.type === 'delegation') {
    const next = nextHop(trigger.hop);
    if (next.to === 'agent') {
      to = 'agent';
      input = { ...input, hop: next.hop };
    } else {
      // Past the hop cap the hand-off becomes a question to a person.
      const { delegateAgentType, ...rest } = input;
      input = {
        ...rest,
        type: 'verification',
        title: `Hop limit reached: ${req.title}`,
        evidence: { ...(req.evidence ?? {}), delegateAgentType, hopLimit: true },
      };
      await logProgress(
        run,
        `delegation to ${delegateAgentType ?? '?'} past the hop cap: asking a person`,
      );
    }
  }
  const n = ++run.requestCalls;
  const created = await requestActivities().requestCreate({
    input: {
      ...input,
      // Without a dedup key the id is the run's and the call's, so a retry joins it; with
      // one, the client derives it from the key (identical requests are one).
      ...(input.dedupKey
        ? {}
        : { requestId: `hr_${runId.replace(/[^A-Za-z0-9._:-]/g, '_').slice(-150)}.r${n}` }),
    },
  });
  await logProgress(
    run,
    `request ${created.requestId} (${input.type})${created.deduplicated ? ', deduplicated' : ''}`,
    {
      requestId: created.requestId,
      to,
    },
  );
  return { requestId: created.requestId, deduplicated: created.deduplicated, to };
}
