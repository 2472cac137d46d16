import type { z } from 'zod';

/** An error with its HTTP status and a stable type; the body is `{ error: { type, message, issues } }`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }

  static fromZod(what: string, error: z.ZodError): HttpError {
    const issues = error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    return new HttpError(
      400,
      'InvalidRequest',
      `Invalid ${what}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`,
      issues,
    );
  }
}
