// The events domain's workflow entry (STYLE: workflows/<domain>.ts stays a thin entry).
export { eventWorkflow } from './events/workflow';
export { scheduledEventWorkflow } from './events/scheduled';
export { outboxDispatchWorkflow } from './events/outbox-dispatch';
