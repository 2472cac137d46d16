/**
 * The event's first phase: tagged for search, then recorded as accepted while its dispatch
 * is planned (the enabled agents subscribed to its type, or why it is blocked) — the two
 * database steps in parallel. The accepted row carries transition 1.
 */
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { callbackCreatorOf, isCallbackTrigger } from '../requests/loop-defences';
import { CsOrg, CsState } from '../search-attributes';
import { CsEventType } from './contract';
import type { DispatchPlan } from './activity-proxies';
import { durableStep } from './durable-step';
import type { EventRun } from './run-state';

export async function acceptEvent(run: EventRun): Promise<DispatchPlan> {
  const { input, envelope, eventId } = run;
  upsertSearchAttributes([
    { key: CsOrg, value: envelope.orgId },
    { key: CsEventType, value: envelope.type },
    { key: CsState, value: run.state },
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
    durableStep(run, 'record accepted', (b) => b.eventRecordAccepted(accepted)),
    durableStep(run, 'plan dispatch', (b) => b.eventPlanDispatch(planQuery)),
  ]);
  run.seq = 1; // the accepted row carries transition 1 (pending) at the acceptance time
  return plan;
}
