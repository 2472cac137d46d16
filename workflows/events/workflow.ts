import { ErrorType, permanentFailure } from '../errors';
import { acceptEvent } from './accept';
import { EventWorkflowInputSchema, type EventResult, type EventWorkflowInput } from './contract';
import { dispatchAgents } from './dispatch';
import { setupEventHandlers } from './handlers';
import { eventResult, newEventRun } from './run-state';
import { transition } from './transition';

/**
 * One accepted event: record it, find the enabled agents subscribed to its type (none:
 * ignored), run each as a child agent instance, and retry the failed ones after the
 * configured delays (60 s, 300 s, 900 s by default). An agent that cannot get a concurrency
 * slot before the event's lifetime ends makes the event expired — it waited, it was not
 * dropped. Every state is stored with its time.
 *
 * The run reads as its state machine: pending (accepted, dispatch planned) → failed (a
 * request-callback loop) | ignored (no agent) | processing → the agents' attempts. Its state
 * is one object (events/run-state.ts), which the handlers read live; each phase is in events/.
 */
export async function eventWorkflow(raw: unknown): Promise<EventResult> {
  const run = newEventRun(parseEventInput(raw));
  setupEventHandlers(run);

  const plan = await acceptEvent(run);
  if (plan.blocked) {
    // A request-callback loop: stopped, recorded, left for a person to look at.
    await transition(run, 'failed', plan.blocked);
    return eventResult(run, plan.blocked);
  }
  if (plan.agents.length === 0) {
    await transition(run, 'ignored', `no enabled agent subscribes to ${run.envelope.type}`);
    return eventResult(run, `no enabled agent subscribes to ${run.envelope.type}`);
  }

  await transition(run, 'processing', plan.agents.map((a) => a.agentType).join(', '));
  return await dispatchAgents(run, plan);
}

function parseEventInput(raw: unknown): EventWorkflowInput {
  const parsed = EventWorkflowInputSchema.safeParse(raw);
  if (!parsed.success)
    throw permanentFailure(
      ErrorType.InvalidRequest,
      `Invalid event: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}
