/**
 * Every handler of a gateway run — the state query, the settled update, the operator's
 * resume and the approval update — registered on the run's state, in this order, before
 * the run's first await (a continued run's first activation may already hold an Update).
 */
import { condition, log, setHandler } from '@temporalio/workflow';
import {
  type GatewayStateView,
  ResumeRequestSchema,
  gatewaySettledUpdate,
  gatewayStateQuery,
  resumeUpdate,
} from '../gateway.contract';
import { ErrorType } from '../errors';
import { setupApprovalUpdate } from './approval-update';
import { refusal } from './refusal';
import { type GatewayRunState, gatewayStateView } from './run-state';

export function setupGatewayHandlers(state: GatewayRunState): void {
  setHandler(gatewayStateQuery, () => gatewayStateView(state));
  // The API waits on this instead of polling: it returns once the submission awaits a
  // person or is finished. No command of its own, so recorded histories replay unchanged.
  setHandler(gatewaySettledUpdate, async (): Promise<GatewayStateView> => {
    await condition(() => state.status === 'awaiting_approval' || state.status === 'completed');
    return gatewayStateView(state);
  });
  setupResumeUpdate(state);
  setupApprovalUpdate(state);
}

/** An operator resumes a run suspended by an outage: the failed step runs again. */
function setupResumeUpdate(state: GatewayRunState): void {
  setHandler(
    resumeUpdate,
    (req) => {
      const step = state.suspended?.step ?? '';
      state.resumeRequested = true;
      state.resumedBy = req;
      log.info('resumed by operator', {
        submissionId: state.submissionId,
        operator: req.operator,
        step,
      });
      return Promise.resolve({ resumed: true as const, step });
    },
    {
      validator: (req): void => {
        if (!ResumeRequestSchema.safeParse(req).success)
          throw refusal(ErrorType.InvalidRequest, 'A resume names its operator');
        if (state.status !== 'suspended')
          throw refusal(
            ErrorType.NotSuspended,
            `Submission ${state.submissionId} is ${state.status}`,
          );
      },
    },
  );
}
