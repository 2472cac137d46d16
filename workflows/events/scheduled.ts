import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { EventEmitActivities } from '../../activities/events/emit';
import { NON_RETRYABLE_ERROR_TYPES } from '../errors';
import type { ScheduledFiringInput } from './schedules';

const emit = proxyActivities<EventEmitActivities>({
  startToCloseTimeout: '1m',
  retry: {
    initialInterval: '1s',
    backoffCoefficient: 2,
    maximumInterval: '1m',
    maximumAttempts: 20,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

/**
 * One firing of an agent's schedule: the `schedule.*` event goes through the normal event
 * path (dedup, dispatch, caps) for each target org. The firing's identity is its workflow
 * id (the schedule appends the scheduled time), so a retried firing accepts its events once.
 */
export async function scheduledEventWorkflow(
  input: ScheduledFiringInput,
): Promise<{ orgId: string; eventId: string; status: string }[]> {
  return emit.eventAcceptScheduled({
    firingId: workflowInfo().workflowId,
    agentType: input.agentType,
    scheduleId: input.scheduleId,
    eventType: input.eventType,
    payload: input.payload,
    orgs: input.orgs,
  });
}
