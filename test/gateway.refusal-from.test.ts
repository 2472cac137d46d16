import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, RetryState } from '@temporalio/common';
import { WriteRefusedError, refusalFrom } from '../client/gateway-client';

/**
 * What a caller of `GatewayClient.result` reads from a failed run: the gateway's typed verdict
 * as a WriteRefusedError, and anything else as the failure it is. CI's outage scenario once
 * reported a database error ("Failed query: select … from codec_data_keys") as a refusal.
 */
const failedRun = (cause: Error) =>
  new WorkflowFailedError('Workflow execution failed', cause, RetryState.NON_RETRYABLE_FAILURE);
const fromActivity = (cause: Error) =>
  new ActivityFailure(
    'activity failed',
    'gatewayApply',
    '7',
    RetryState.MAXIMUM_ATTEMPTS_REACHED,
    'w',
    cause,
  );

describe('refusalFrom', () => {
  it('reads a typed refusal of the gateway, raised directly or by an activity', () => {
    const direct = refusalFrom(
      failedRun(
        ApplicationFailure.create({
          type: 'UnbalancedEntry',
          message: 'debits 100 ≠ credits 90',
          nonRetryable: true,
          details: [{ issues: [{ path: 'payload.lines', message: 'unbalanced' }] }],
        }),
      ),
    );
    expect(direct).toBeInstanceOf(WriteRefusedError);
    expect(direct?.type).toBe('UnbalancedEntry');
    expect(direct?.issues).toEqual([{ path: 'payload.lines', message: 'unbalanced' }]);
    const viaActivity = refusalFrom(
      failedRun(
        fromActivity(
          ApplicationFailure.create({
            type: 'PeriodClosed',
            message: '2026-01',
            nonRetryable: true,
          }),
        ),
      ),
    );
    expect(viaActivity?.type).toBe('PeriodClosed');
  });

  it('is no refusal when the run failed on an error that is not a verdict on the write', () => {
    const outage = ApplicationFailure.create({
      type: 'Error',
      message: 'Failed query: select "id" from "codec_data_keys"',
    });
    expect(refusalFrom(failedRun(fromActivity(outage)))).toBeUndefined();
    expect(
      refusalFrom(
        failedRun(ApplicationFailure.create({ type: 'TypeError', message: 'x is undefined' })),
      ),
    ).toBeUndefined();
    expect(refusalFrom(new Error('connect ECONNREFUSED'))).toBeUndefined();
  });
});
