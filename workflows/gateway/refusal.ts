/**
 * How the gateway's Updates refuse: a non-retryable ApplicationFailure of one of our error
 * types, which the caller sees with its type (an activity's typed refusal is passed on as
 * the Update's own).
 */
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

export const refusal = (type: string, message: string) =>
  ApplicationFailure.create({ type, message, nonRetryable: true });

/** Re-throws an activity's typed failure as the update's own failure, so the caller sees its type. */
export function asUpdateFailure(err: unknown): unknown {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure)
    return refusal(err.cause.type ?? 'ApprovalRefused', err.cause.message);
  return err;
}
