import { log as wfLog, proxyActivities } from '@temporalio/workflow';
import type { EventEmitActivities } from '../../activities/events/emit';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import { MAX_EVENT_HOPS } from '../events/contract';
import { taskQueueOf } from '../domain-routing';
import type { ToolInput, ToolOutput } from './tools';

// The events domain's emitter, on its queue.
const emit = () =>
  proxyActivities<EventEmitActivities>({
    taskQueue: taskQueueOf('events'),
    startToCloseTimeout: '1m',
    retry: {
      initialInterval: '1s',
      backoffCoefficient: 2,
      maximumInterval: '30s',
      maximumAttempts: 10,
      nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
    },
  });

/**
 * The emit_event tool of one run. The event carries the run as its cause and the chain's hop
 * count (the triggering event's plus one); past MAX_EVENT_HOPS it is refused — a loop of
 * agents triggering each other (or one triggering itself) stops there, and the refusal is
 * in the run's progress log and the tool result, not silently dropped.
 */
export function emitEventTool(run: {
  runId: string;
  orgId: string;
  agentType: string;
  triggerHop: number;
  log: (message: string, data?: unknown) => Promise<void>;
}) {
  let calls = 0;
  return async (input: ToolInput<'emit_event'>): Promise<ToolOutput<'emit_event'>> => {
    const hop = run.triggerHop + 1;
    if (hop > MAX_EVENT_HOPS) {
      const detail = `loop breaker: ${input.type} would be hop ${hop} of a chain capped at ${MAX_EVENT_HOPS}; not emitted`;
      wfLog.warn('event chain capped', { runId: run.runId, type: input.type, hop });
      await run.log(detail, { type: input.type, hop, cap: MAX_EVENT_HOPS });
      return { eventId: null, status: 'refused', hop, detail };
    }
    const r = await emit().agentEmitEvent({
      runId: run.runId,
      callSeq: ++calls,
      orgId: run.orgId,
      type: input.type,
      payload: input.payload,
      hop,
    });
    await run.log(`emitted ${input.type} (hop ${hop}): ${r.status}`, { eventId: r.eventId });
    return { eventId: r.eventId, status: r.status, hop, detail: null };
  };
}
