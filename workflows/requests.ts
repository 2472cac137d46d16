// The requests domain's workflow entry: one workflow per human request.
export { requestWorkflow } from './requests/workflow';
export { delegationWatchWorkflow } from './requests/watch';
