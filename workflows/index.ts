/* eslint-disable @typescript-eslint/no-require-imports -- lazy on purpose, see below */
import type * as Analysis from './analysis';
import type * as Ingestion from './ingestion';
import type * as Gateway from './gateway';
import type * as EventRun from './events/workflow';
import type * as ScheduledEvent from './events/scheduled';
import type * as OutboxDispatch from './events/outbox-dispatch';
import type * as AgentRun from './agent-runs/workflow';
import type * as Slots from './agent-runs/slots';
import type * as Request from './requests/workflow';
import type * as DelegationWatch from './requests/watch';
import type * as AuditAnchor from './audit/anchor';

/**
 * The workflow bundle's entry: every workflow the worker runs, each loading its own modules when
 * a run of it starts.
 *
 * With the reusable V8 context every workflow run evaluates the modules it requires in its own
 * module cache (shared modules would be frozen, and our zod schemas cannot be). Importing every
 * workflow here made each run of any type evaluate all 91 modules — ~75 ms of module bodies per
 * new run, the first task's cost under a burst, and memory held per cached run. Each export is
 * a function of the workflow's own name (the name is the workflow type: clients and child starts
 * use it) that requires its implementation on first call, so an event run evaluates the event
 * modules, a gateway run the gateway's. Module evaluation issues no commands: replay is
 * unchanged.
 */

export function analysisWorkflow(
  ...args: Parameters<typeof Analysis.analysisWorkflow>
): ReturnType<typeof Analysis.analysisWorkflow> {
  return (require('./analysis') as typeof Analysis).analysisWorkflow(...args);
}

export function ingestionWorkflow(
  ...args: Parameters<typeof Ingestion.ingestionWorkflow>
): ReturnType<typeof Ingestion.ingestionWorkflow> {
  return (require('./ingestion') as typeof Ingestion).ingestionWorkflow(...args);
}

export function gatewayWorkflow(
  ...args: Parameters<typeof Gateway.gatewayWorkflow>
): ReturnType<typeof Gateway.gatewayWorkflow> {
  return (require('./gateway') as typeof Gateway).gatewayWorkflow(...args);
}

export function eventWorkflow(
  ...args: Parameters<typeof EventRun.eventWorkflow>
): ReturnType<typeof EventRun.eventWorkflow> {
  return (require('./events/workflow') as typeof EventRun).eventWorkflow(...args);
}

export function scheduledEventWorkflow(
  ...args: Parameters<typeof ScheduledEvent.scheduledEventWorkflow>
): ReturnType<typeof ScheduledEvent.scheduledEventWorkflow> {
  return (require('./events/scheduled') as typeof ScheduledEvent).scheduledEventWorkflow(...args);
}

export function outboxDispatchWorkflow(
  ...args: Parameters<typeof OutboxDispatch.outboxDispatchWorkflow>
): ReturnType<typeof OutboxDispatch.outboxDispatchWorkflow> {
  return (require('./events/outbox-dispatch') as typeof OutboxDispatch).outboxDispatchWorkflow(
    ...args,
  );
}

export function agentRunWorkflow(
  ...args: Parameters<typeof AgentRun.agentRunWorkflow>
): ReturnType<typeof AgentRun.agentRunWorkflow> {
  return (require('./agent-runs/workflow') as typeof AgentRun).agentRunWorkflow(...args);
}

export function slotsWorkflow(
  ...args: Parameters<typeof Slots.slotsWorkflow>
): ReturnType<typeof Slots.slotsWorkflow> {
  return (require('./agent-runs/slots') as typeof Slots).slotsWorkflow(...args);
}

export function requestWorkflow(
  ...args: Parameters<typeof Request.requestWorkflow>
): ReturnType<typeof Request.requestWorkflow> {
  return (require('./requests/workflow') as typeof Request).requestWorkflow(...args);
}

export function delegationWatchWorkflow(
  ...args: Parameters<typeof DelegationWatch.delegationWatchWorkflow>
): ReturnType<typeof DelegationWatch.delegationWatchWorkflow> {
  return (require('./requests/watch') as typeof DelegationWatch).delegationWatchWorkflow(...args);
}

export function auditAnchorWorkflow(
  ...args: Parameters<typeof AuditAnchor.auditAnchorWorkflow>
): ReturnType<typeof AuditAnchor.auditAnchorWorkflow> {
  return (require('./audit/anchor') as typeof AuditAnchor).auditAnchorWorkflow(...args);
}
