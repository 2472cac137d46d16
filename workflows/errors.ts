import { ApplicationFailure } from '@temporalio/common';

/**
 * The failure types shared by workflows, activities, clients and tests. Permanent failures
 * are non-retryable ApplicationFailures of these types; transient faults are plain errors
 * that Temporal retries within each activity's bounded policy.
 */
export const ErrorType = {
  InvalidRequest: 'InvalidRequest',
  UnknownDocument: 'UnknownDocument',
  DocumentNotReady: 'DocumentNotReady',
  UnknownTool: 'UnknownTool',
  InvalidToolInput: 'InvalidToolInput',
  InvalidToolOutput: 'InvalidToolOutput',
  IllegalTransition: 'IllegalTransition',
  InvalidReviewDecision: 'InvalidReviewDecision',
  ReviewerNotAuthorized: 'ReviewerNotAuthorized',
  ReviewAlreadyDecided: 'ReviewAlreadyDecided',
  ReviewNotOpen: 'ReviewNotOpen',
  EmptyDocument: 'EmptyDocument',
  CorruptDocument: 'CorruptDocument',
  UnsupportedDocument: 'UnsupportedDocument',
  NoTextLayer: 'NoTextLayer',
  PasswordProtected: 'PasswordProtected',
  UnknownOrganization: 'UnknownOrganization',
  // Write gateway (workflows/gateway.ts): refusals of a submission and of an approval.
  InvalidWrite: 'InvalidWrite',
  UnknownEntity: 'UnknownEntity',
  WriteNotPermitted: 'WriteNotPermitted',
  UnbalancedEntry: 'UnbalancedEntry',
  PeriodClosed: 'PeriodClosed',
  PeriodStateConflict: 'PeriodStateConflict',
  AlreadyReversed: 'AlreadyReversed',
  CurrencyMismatch: 'CurrencyMismatch',
  AmountMismatch: 'AmountMismatch',
  InactiveEntity: 'InactiveEntity',
  DuplicateEntity: 'DuplicateEntity',
  StaleVersion: 'StaleVersion',
  AlreadyMatched: 'AlreadyMatched',
  IdempotencyConflict: 'IdempotencyConflict',
  InvalidApprovalDecision: 'InvalidApprovalDecision',
  ApproverNotAuthorized: 'ApproverNotAuthorized',
  SelfApproval: 'SelfApproval',
  // The person who asked for an analysis may not review it (issue 25 item 8).
  SelfReview: 'SelfReview',
  DuplicateApproval: 'DuplicateApproval',
  ApprovalNotOpen: 'ApprovalNotOpen',
  // A decision on a plan revision (or hash) other than the one awaiting approval (issue 25 item 6).
  StalePlanRevision: 'StalePlanRevision',
  // A vote that met a waiting submission between two runs (continue-as-new): sent again, it counts.
  RunHandover: 'RunHandover',
  // Identity (issue 8): a decision's signed proof is missing, forged, expired or for another decision.
  DecisionProofInvalid: 'DecisionProofInvalid',
  // Bounded inputs: a value the database or the platform cannot hold (out of range, too deep).
  ValueOutOfRange: 'ValueOutOfRange',
  // An operator's resume sent to a workflow that is not suspended.
  NotSuspended: 'NotSuspended',
  // Human requests (issue 10): an answer that does not fill the form, from the wrong person,
  // to a request no longer open; a create that breaks a loop defence.
  InvalidAnswer: 'InvalidAnswer',
  AnswererNotAuthorized: 'AnswererNotAuthorized',
  RequestNotOpen: 'RequestNotOpen',
  LoopBreaker: 'LoopBreaker',
  // Uploaded documents: text extraction ran past its time or memory limit (a hostile file).
  ExtractionLimitExceeded: 'ExtractionLimitExceeded',
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

export const NON_RETRYABLE_ERROR_TYPES: ErrorType[] = Object.values(ErrorType);

/** Build a permanent failure of one of our types. */
export function permanentFailure(
  type: ErrorType,
  message: string,
  details?: unknown,
): ApplicationFailure {
  return ApplicationFailure.create({
    type,
    message,
    nonRetryable: true,
    details: details === undefined ? undefined : [details],
  });
}
