import type { z } from 'zod';

/** A request that never left the client: nothing was started. Carries the zod issue paths. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(message);
  }
  static fromZod(what: string, error: z.ZodError): InvalidRequestError {
    const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return new InvalidRequestError(
      `Invalid ${what}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
      issues,
    );
  }
}

/** The reviewer's credentials did not authenticate. */
export class AuthenticationError extends Error {
  override readonly name = 'AuthenticationError';
}

/**
 * An operator command (events, runs, audit, costs, queues) was run without the key of an owner
 * or admin of the org it acts on (or of CS_OPERATOR_ORG for a command across orgs). Exit code 2.
 */
export class OperatorKeyError extends Error {
  override readonly name = 'OperatorKeyError';
}
