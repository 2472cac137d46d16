// The workflow bundle's entry: every workflow the worker runs.
export { analysisWorkflow } from './analysis';
export { ingestionWorkflow } from './ingestion';
export { gatewayWorkflow } from './gateway';
export { eventWorkflow, scheduledEventWorkflow, outboxDispatchWorkflow } from './events';
export { agentRunWorkflow, slotsWorkflow } from './agent-runs';
export { requestWorkflow, delegationWatchWorkflow } from './requests';
export { auditAnchorWorkflow } from './audit/anchor';
