// The agent-runs domain's workflow entry: agent instances and their concurrency slots.
export { agentRunWorkflow } from './agent-runs/workflow';
export { slotsWorkflow } from './agent-runs/slots';
