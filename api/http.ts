import type { Context } from 'hono';
import { z } from 'zod';
import { ProblemSchema, PROBLEM_CONTENT_TYPE } from './problem';
import { AnyObject } from './schemas';

/** How long a write or analysis call waits for its workflow to settle by default. */
export const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 60_000;

/** BigInts (micro-dollars, sequence numbers) as decimal strings: JSON has no exact big integers. */
export function jsonSafe<T>(v: T): unknown {
  return JSON.parse(
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x)),
  );
}

/** A JSON response of any body (big integers as strings). */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(jsonSafe(body)), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** `Prefer: respond-async` → no wait; `Prefer: wait=N` → N seconds (RFC 7240), capped. */
export function waitOf(c: Context, fallback: number): number {
  const prefer = c.req.header('prefer') ?? '';
  if (/\brespond-async\b/i.test(prefer)) return 0;
  const m = /\bwait=(\d{1,4})\b/i.exec(prefer);
  return m ? Math.min(Number(m[1]) * 1000, MAX_WAIT_MS) : fallback;
}

/** OpenAPI: the problem+json responses a route may give. */
export const problems = (...statuses: number[]) =>
  Object.fromEntries(
    statuses.map((s) => [
      s,
      {
        description: 'problem+json',
        content: { [PROBLEM_CONTENT_TYPE]: { schema: ProblemSchema } },
      },
    ]),
  );
/** OpenAPI: a JSON success response. */
export const ok = (description: string, schema: z.ZodType = AnyObject) => ({
  description,
  content: { 'application/json': { schema } },
});
/** OpenAPI: a required JSON request body. */
export const jsonBody = (schema: z.ZodType) => ({
  body: { content: { 'application/json': { schema } }, required: true },
});
/** OpenAPI: a bearer key or a browser session. */
export const secured: Record<string, string[]>[] = [{ bearer: [] }, { session: [] }];
