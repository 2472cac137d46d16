/**
 * The event run's handlers — the state query, then the operator's resume update with its
 * validator — registered on the run's state, in this order, before the run's first await.
 * Both read the state live.
 */
import { ApplicationFailure, log, setHandler } from '@temporalio/workflow';
import { ErrorType } from '../errors';
import { EventResumeRequestSchema, eventResumeUpdate, eventStateQuery } from './contract';
import { type EventRun, eventView } from './run-state';

export function setupEventHandlers(run: EventRun): void {
  setHandler(eventStateQuery, () => eventView(run));
  setupResumeUpdate(run);
}

/** An operator resumes an event suspended by an outage: the failed step runs again. */
function setupResumeUpdate(run: EventRun): void {
  setHandler(
    eventResumeUpdate,
    (req) => {
      const step = run.suspended?.step ?? '';
      run.resumeRequested = true;
      log.info('event resumed by operator', { eventId: run.eventId, operator: req.operator, step });
      return Promise.resolve({ resumed: true as const, step });
    },
    {
      validator: (req): void => {
        if (!EventResumeRequestSchema.safeParse(req).success)
          throw ApplicationFailure.create({
            type: ErrorType.InvalidRequest,
            message: 'A resume names its operator',
            nonRetryable: true,
          });
        if (!run.suspended)
          throw ApplicationFailure.create({
            type: ErrorType.NotSuspended,
            message: `Event ${run.eventId} is ${run.state}, not suspended`,
            nonRetryable: true,
          });
      },
    },
  );
}
