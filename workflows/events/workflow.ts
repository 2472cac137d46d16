import {
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  ParentClosePolicy,
  condition,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  startChild,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { EventsActivities } from '../../activities/events';
import { ErrorType, NON_RETRYABLE_ERROR_TYPES, permanentFailure } from '../errors';
import {
  AGENT_RUN_WORKFLOW,
  CsAgentType,
  agentRunWorkflowId,
  type AgentRunResult,
} from '../agent-runs/contract';
import type { agentRunWorkflow } from '../agent-runs/workflow';
import {
  CsEventType,
  EVENT_SUSPENDED,
  EventResumeRequestSchema,
  EventWorkflowInputSchema,
  eventResumeUpdate,
  eventStateQuery,
  type EventResult,
  type EventRunSummary,
  type EventState,
} from './contract';
import { callbackCreatorOf, isCallbackTrigger } from '../requests/loop-defences';
import { taskQueueOf } from '../domain-routing';
import type { DbRetrySettings } from '../gateway.contract';
import { CsOrg, CsState } from '../search-attributes';

// Bookkeeping rows are quick, idempotent database writes: local activities, so recording a
// state costs no round trip through the server (pickup latency and throughput both gain).
const book = proxyLocalActivities<EventsActivities>({
  startToCloseTimeout: '30s',
  retry: {
    initialInterval: '200ms',
    backoffCoefficient: 2,
    maximumInterval: '10s',
    maximumAttempts: 10,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

// The outage budget is read only once a step has failed: the usual path pays nothing for it.
const settings = proxyLocalActivities<EventsActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES },
});

/**
 * The same steps once the quick local retries are spent (an outage past ~45 s): activities
 * on the server that retry without an attempt limit for the gateway's whole budget (25
 * minutes by default), never more than the maximum interval apart, heartbeating so a killed
 * worker's attempt moves on within seconds. Visible in the UI as a pending activity.
 */
function durableBook(s: DbRetrySettings) {
  return proxyActivities<EventsActivities>({
    startToCloseTimeout: '60s',
    heartbeatTimeout: '10s',
    scheduleToCloseTimeout: s.budgetMs,
    retry: {
      initialInterval: Math.min(500, s.maximumIntervalMs),
      backoffCoefficient: 2,
      maximumInterval: s.maximumIntervalMs,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });
}

/** A refusal of ours (a verdict), as opposed to an outage that outlasted the retries. */
function isTypedRefusal(err: unknown): boolean {
  return (
    err instanceof ActivityFailure &&
    err.cause instanceof ApplicationFailure &&
    (NON_RETRYABLE_ERROR_TYPES as string[]).includes(err.cause.type ?? '')
  );
}

/** Every message down the cause chain: a timed-out retry budget carries the last failure. */
const chainOf = (err: unknown): string => {
  const out: string[] = [];
  for (let e: unknown = err; e instanceof Error && out.length < 5; e = e.cause)
    if (e.message && !out.includes(e.message)) out.push(e.message);
  return out.join(': ') || String(err);
};

const messageOf = (err: unknown): string => {
  if (
    (err instanceof ChildWorkflowFailure || err instanceof ActivityFailure) &&
    err.cause instanceof ApplicationFailure
  )
    return err.cause.message;
  return err instanceof Error ? err.message : String(err);
};

/**
 * One accepted event: record it, find the enabled agents subscribed to its type (none:
 * ignored), run each as a child agent instance, and retry the failed ones after the
 * configured delays (60 s, 300 s, 900 s by default). An agent that cannot get a concurrency
 * slot before the event's lifetime ends makes the event expired — it waited, it was not
 * dropped. Every state is stored with its time.
 */
export async function eventWorkflow(raw: unknown): Promise<EventResult> {
  const parsed = EventWorkflowInputSchema.safeParse(raw);
  if (!parsed.success)
    throw permanentFailure(
      ErrorType.InvalidRequest,
      `Invalid event: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  const input = parsed.data;
  const { envelope, eventId } = input;
  let state: EventState = 'pending';
  let seq = 0;
  let attempts = 0;
  const runs: EventRunSummary[] = [];
  let suspended: { step: string; error: string } | null = null;
  let resumeRequested = false;
  let durable: ReturnType<typeof durableBook> | undefined;
  setHandler(eventStateQuery, () => ({
    eventId,
    state,
    attempts,
    runs: [...runs],
    suspended,
  }));
  setHandler(
    eventResumeUpdate,
    (req) => {
      const step = suspended?.step ?? '';
      resumeRequested = true;
      log.info('event resumed by operator', { eventId, operator: req.operator, step });
      return Promise.resolve({ resumed: true as const, step });
    },
    {
      validator: (req): void => {
        if (!EventResumeRequestSchema.safeParse(req).success)
          throw ApplicationFailure.create({
            type: ErrorType.InvalidRequest,
            message: 'A resume names its operator',
            nonRetryable: true,
          });
        if (!suspended)
          throw ApplicationFailure.create({
            type: ErrorType.NotSuspended,
            message: `Event ${eventId} is ${state}, not suspended`,
            nonRetryable: true,
          });
      },
    },
  );

  /**
   * One idempotent database step: quick local retries first (~45 s, the usual path), then the
   * gateway's outage budget on the server, then suspended until an operator resumes it.
   * Runs recorded before the budget existed fail as they did (no marker, no second phase).
   */
  async function step<T>(name: string, call: (b: typeof book) => Promise<T>): Promise<T> {
    try {
      return await call(book);
    } catch (err) {
      if (isTypedRefusal(err) || !patched('event-outage-budget')) throw err;
    }
    durable ??= durableBook(await settings.eventRetrySettings());
    for (;;) {
      try {
        return await call(durable);
      } catch (err) {
        if (isTypedRefusal(err)) throw err;
        suspended = { step: name, error: chainOf(err).slice(0, 4000) };
        log.error('event database step outlasted its outage budget; waiting for resume', {
          eventId,
          step: name,
        });
        upsertSearchAttributes([{ key: CsState, value: EVENT_SUSPENDED }]);
        setCurrentDetails(
          `**${EVENT_SUSPENDED}** — ${envelope.type}: ${name} failed after the outage budget; send eventResumeUpdate`,
        );
        await condition(() => resumeRequested);
        resumeRequested = false;
        suspended = null;
        upsertSearchAttributes([{ key: CsState, value: state }]);
        setCurrentDetails(`**${state}** — ${envelope.type}: resumed ${name}`);
      }
    }
  }

  const transition = async (s: EventState, detail: string | null) => {
    state = s;
    upsertSearchAttributes([{ key: CsState, value: s }]);
    setCurrentDetails(`**${s}** — ${envelope.type}${detail ? `: ${detail}` : ''}`);
    const t = {
      orgId: envelope.orgId,
      eventId,
      seq: ++seq,
      state: s,
      detail,
      atMs: Date.now(),
      attempts,
    };
    await step(`transition:${s}`, (b) => b.eventTransition(t));
  };
  const done = (detail: string | null): EventResult => ({
    eventId,
    state,
    attempts,
    runs: [...runs],
    detail,
  });

  upsertSearchAttributes([
    { key: CsOrg, value: envelope.orgId },
    { key: CsEventType, value: envelope.type },
    { key: CsState, value: state },
  ]);
  const accepted = {
    eventId,
    envelope,
    dedupKey: input.dedupKey,
    workflowId: workflowInfo().workflowId,
    acceptedAtMs: input.acceptedAtMs,
  };
  const planQuery = {
    orgId: envelope.orgId,
    type: envelope.type,
    callback: isCallbackTrigger({ payload: envelope.payload }),
    callbackFor: callbackCreatorOf(envelope.payload),
  };
  const [, plan] = await Promise.all([
    step('record accepted', (b) => b.eventRecordAccepted(accepted)),
    step('plan dispatch', (b) => b.eventPlanDispatch(planQuery)),
  ]);
  seq = 1; // the accepted row carries transition 1 (pending) at the acceptance time
  if (plan.blocked) {
    // A request-callback loop: stopped, recorded, left for a person to look at.
    await transition('failed', plan.blocked);
    return done(plan.blocked);
  }
  if (plan.agents.length === 0) {
    await transition('ignored', `no enabled agent subscribes to ${envelope.type}`);
    return done(`no enabled agent subscribes to ${envelope.type}`);
  }

  await transition('processing', plan.agents.map((a) => a.agentType).join(', '));
  const deadline = input.acceptedAtMs + input.expireAfterMs;
  let remaining = [...plan.agents];
  for (let attempt = 1; ; attempt++) {
    attempts = attempt;
    const results = await Promise.all(
      remaining.map(async (agent): Promise<AgentRunResult> => {
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
    results.forEach((r, i) =>
      runs.push({
        agentType: remaining[i]?.agentType ?? '?',
        attempt,
        runId: r.runId,
        state: r.state,
        outcome: r.outcome,
        reason: r.reason,
      }),
    );
    // A run that asked a person (waiting_human) is done with this event: the request's
    // callback is a new event.
    const settled = (st: string | undefined) => st === 'completed' || st === 'waiting_human';
    const failed = remaining.filter((_, i) => !settled(results[i]?.state));
    const failedResults = results.filter((r) => !settled(r.state));
    if (failed.length === 0) {
      await transition(
        'completed',
        `${runs.filter((r) => settled(r.state)).length} run(s) completed`,
      );
      return done(null);
    }
    if (failedResults.some((r) => r.outcome === 'expired')) {
      await transition('expired', 'no concurrency slot within the event lifetime');
      return done('expired waiting for a concurrency slot');
    }
    const why = failedResults.map((r) => `${r.runId}: ${r.outcome} (${r.reason ?? ''})`).join('; ');
    const delay = input.retryDelaysMs[attempt - 1];
    if (failedResults.some((r) => !r.retryable) || delay === undefined) {
      await transition('failed', why);
      return done(why);
    }
    const retrying = {
      orgId: envelope.orgId,
      eventId,
      seq: ++seq,
      state: 'processing' as const,
      detail: `attempt ${attempt} failed; retry in ${delay} ms: ${why}`,
      atMs: Date.now(),
      attempts,
    };
    await step('transition:processing', (b) => b.eventTransition(retrying));
    await sleep(delay);
    remaining = failed;
  }
}
