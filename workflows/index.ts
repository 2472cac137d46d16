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
 * Every workflow the worker runs, each loading its own modules when a run of it starts. The
 * bundle's entry (workflow-bundle.ts) re-exports them, with the agents' handlers installed.
 *
 * With the reusable V8 context every workflow run evaluates the modules it requires in its own
 * module cache (shared modules would be frozen, and our zod schemas cannot be). Importing every
 * workflow here made each run of any type evaluate all 91 modules — 48–75 ms of module bodies
 * per new run, the first task's cost under a burst, and memory held per cached run. Each export
 * is a function named as its workflow type (clients and child starts take the type from the
 * name) that requires its implementation when called, so an event run evaluates the event
 * modules and a gateway run the gateway's. Module evaluation issues no commands: replay is
 * unchanged. (`require` with a literal path: webpack bundles the module and runs it on call.)
 */
function lazy<F extends (...args: never[]) => unknown>(type: string, load: () => F): F {
  const run = (...args: Parameters<F>) => load()(...args);
  Object.defineProperty(run, 'name', { value: type });
  return run as F;
}

export const analysisWorkflow = lazy(
  'analysisWorkflow',
  () => (require('./analysis') as typeof Analysis).analysisWorkflow,
);
export const ingestionWorkflow = lazy(
  'ingestionWorkflow',
  () => (require('./ingestion') as typeof Ingestion).ingestionWorkflow,
);
export const gatewayWorkflow = lazy(
  'gatewayWorkflow',
  () => (require('./gateway') as typeof Gateway).gatewayWorkflow,
);
export const eventWorkflow = lazy(
  'eventWorkflow',
  () => (require('./events/workflow') as typeof EventRun).eventWorkflow,
);
export const scheduledEventWorkflow = lazy(
  'scheduledEventWorkflow',
  () => (require('./events/scheduled') as typeof ScheduledEvent).scheduledEventWorkflow,
);
export const outboxDispatchWorkflow = lazy(
  'outboxDispatchWorkflow',
  () => (require('./events/outbox-dispatch') as typeof OutboxDispatch).outboxDispatchWorkflow,
);
export const agentRunWorkflow = lazy(
  'agentRunWorkflow',
  () => (require('./agent-runs/workflow') as typeof AgentRun).agentRunWorkflow,
);
export const slotsWorkflow = lazy(
  'slotsWorkflow',
  () => (require('./agent-runs/slots') as typeof Slots).slotsWorkflow,
);
export const requestWorkflow = lazy(
  'requestWorkflow',
  () => (require('./requests/workflow') as typeof Request).requestWorkflow,
);
export const delegationWatchWorkflow = lazy(
  'delegationWatchWorkflow',
  () => (require('./requests/watch') as typeof DelegationWatch).delegationWatchWorkflow,
);
export const auditAnchorWorkflow = lazy(
  'auditAnchorWorkflow',
  () => (require('./audit/anchor') as typeof AuditAnchor).auditAnchorWorkflow,
);
