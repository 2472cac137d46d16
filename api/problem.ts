import type { Context } from 'hono';
import { z } from 'zod';
import { HttpError } from './http-error';

/**
 * Errors are RFC 9457 problem details (`application/problem+json`). `type` is a stable URI
 * per error kind, `code` the same kind as a bare name (what clients switch on), `detail` the
 * human message, `issues` the paths of what was wrong in the input.
 */
export const PROBLEM_BASE = 'https://countersign.dev/problems/';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const ProblemSchema = z.object({
  type: z.string(),
  code: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })),
});
export type Problem = z.infer<typeof ProblemSchema>;

/** `SelfApproval` → `https://countersign.dev/problems/self-approval`. */
export function problemTypeUri(code: string): string {
  return PROBLEM_BASE + code.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function problemOf(e: HttpError, instance?: string): Problem {
  return {
    type: problemTypeUri(e.type),
    code: e.type,
    title: TITLES[e.status] ?? 'Error',
    status: e.status,
    detail: e.message,
    ...(instance ? { instance } : {}),
    issues: e.issues,
  };
}

export function problemResponse(
  c: Context,
  e: HttpError,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(problemOf(e, c.req.path)), {
    status: e.status,
    headers: {
      'content-type': PROBLEM_CONTENT_TYPE,
      ...(e.status === 401 ? { 'www-authenticate': 'Bearer realm="countersign"' } : {}),
      ...headers,
    },
  });
}

export { HttpError };
