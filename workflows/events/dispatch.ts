/**
 * Running an event's agents: each attempt starts every remaining agent as a child agent
 * instance and waits for all; the failed ones are retried after the configured delays, until
 * all settle, one expires waiting for a slot, or a failure is final.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  ParentClosePolicy,
  sleep,
  startChild,
} from '@temporalio/workflow';
import {
  AGENT_RUN_WORKFLOW,
  CsAgentType,
  agentRunWorkflowId,
  type AgentRunResult,
} from '../agent-runs/contract';
import type { agentRunWorkflow } from '../agent-runs/workflow';
import { taskQueueOf } from '../domain-routing';
import { CsOrg, CsState } from '../search-attributes';
import type { EventResult } from './contract';
import type { DispatchPlan } from './activity-proxies';
import { durableStep } from './durable-step';
import { type EventRun, eventResult } from './run-state';
import { transition } from './transition';

type Agent = DispatchPlan['agents'][number];

/**
 * A run that asked a person (waiting_human) is done with this event: the request's callback
 * is a new event.
 */
const settled = (st: string | undefined) => st === 'completed' || st === 'waiting_human';

/** How a failed run reads: the application failure's message, not the wrapper's. */
const messageOf = (err: unknown): string => {
  if (
    (err instanceof ChildWorkflowFailure || err instanceof ActivityFailure) &&
    err.cause instanceof ApplicationFailure
  )
    return err.cause.message;
  return err instanceof Error ? err.message : String(err);
};

/** Attempts until the event ends: completed, expired or failed (its result). */
export async function dispatchAgents(run: EventRun, plan: DispatchPlan): Promise<EventResult> {
  const { input, envelope, eventId } = run;
  const deadline = input.acceptedAtMs + input.expireAfterMs;
  let remaining = [...plan.agents];
  for (let attempt = 1; ; attempt++) {
    run.attempts = attempt;
    const results = await runAttempt(run, plan, remaining, attempt, deadline);
    results.forEach((r, i) =>
      run.runs.push({
        agentType: remaining[i]?.agentType ?? '?',
        attempt,
        runId: r.runId,
        state: r.state,
        outcome: r.outcome,
        reason: r.reason,
      }),
    );
    const failed = remaining.filter((_, i) => !settled(results[i]?.state));
    const failedResults = results.filter((r) => !settled(r.state));
    if (failed.length === 0) {
      await transition(
        run,
        'completed',
        `${run.runs.filter((r) => settled(r.state)).length} run(s) completed`,
      );
      return eventResult(run, null);
    }
    if (failedResults.some((r) => r.outcome === 'expired')) {
      await transition(run, 'expired', 'no concurrency slot within the event lifetime');
      return eventResult(run, 'expired waiting for a concurrency slot');
    }
    const why = failedResults.map((r) => `${r.runId}: ${r.outcome} (${r.reason ?? ''})`).join('; ');
    const delay = input.retryDelaysMs[attempt - 1];
    if (failedResults.some((r) => !r.retryable) || delay === undefined) {
      await transition(run, 'failed', why);
      return eventResult(run, why);
    }
    const retrying = {
      orgId: envelope.orgId,
      eventId,
      seq: ++run.seq,
      state: 'processing' as const,
      detail: `attempt ${attempt} failed; retry in ${delay} ms: ${why}`,
      atMs: Date.now(),
      attempts: run.attempts,
    };
    await durableStep(run, 'transition:processing', (b) => b.eventTransition(retrying));
    await sleep(delay);
    remaining = failed;
  }
}

/**
 * One attempt: every agent started at once as a child agent instance (its id names the
 * attempt), each child's result in the agents' order; a child that fails or cannot start
 * is a retryable failed run.
 */
function runAttempt(
  run: EventRun,
  plan: DispatchPlan,
  agents: Agent[],
  attempt: number,
  deadline: number,
): Promise<AgentRunResult[]> {
  const { envelope, eventId } = run;
  return Promise.all(
    agents.map(async (agent): Promise<AgentRunResult> => {
      const runId = agentRunWorkflowId(envelope.orgId, agent.agentType, eventId, attempt);
      try {
        const child = await startChild<typeof agentRunWorkflow>(AGENT_RUN_WORKFLOW, {
          workflowId: runId,
          taskQueue: taskQueueOf('agents'),
          args: [
            {
              orgId: envelope.orgId,
              attempt,
              agent,
              trigger: {
                eventId,
                eventType: envelope.type,
                source: envelope.source,
                payload: envelope.payload,
                hop: envelope.causation?.hop ?? 0,
              },
              limits: plan.limits,
              slotDeadlineMs: deadline,
            },
          ],
          // A run waiting for an approval is the gateway's business: it must not be killed
          // with the event.
          parentClosePolicy: ParentClosePolicy.ABANDON,
          typedSearchAttributes: [
            { key: CsOrg, value: envelope.orgId },
            { key: CsAgentType, value: agent.agentType },
            { key: CsState, value: 'pending' },
          ],
        });
        return await child.result();
      } catch (err) {
        return {
          runId,
          state: 'failed',
          outcome: 'failed',
          reason: messageOf(err),
          output: null,
          submissions: [],
          toolCalls: 0,
          retryable: true,
        };
      }
    }),
  );
}
