/**
 * The envelope every gateway submission shares (org, idempotency key, submitter, source,
 * approval windows), and parseWrite: the envelope, then the kind's payload schema.
 */
import { z } from 'zod';
import { WRITE_KINDS, WRITE_SCHEMAS, type WriteKind } from './kinds';

/**
 * Who submits. Agents carry their write permissions (allowed_workflows of their config) and
 * the human operator accountable for them; neither may approve the agent's writes.
 */
export const SubmitterSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), userId: z.string().min(1).max(128) }).strict(),
  z
    .object({
      kind: z.literal('agent'),
      agentType: z.string().min(1).max(100),
      instanceId: z.string().min(1).max(200),
      operatorUserId: z.string().min(1).max(128),
      /** Ignored: an agent's permissions come from its stored record (agent_identities). */
      allowedWorkflows: z.array(z.string().min(1).max(100)).max(100).optional(),
    })
    .strict(),
]);
export type Submitter = z.infer<typeof SubmitterSchema>;

export const DEFAULT_APPROVAL_DUE_MS = 3 * 24 * 60 * 60 * 1000;
export const DEFAULT_APPROVAL_EXPIRE_MS = 14 * 24 * 60 * 60 * 1000;
export const MAX_APPROVAL_WINDOW_MS = 5 * 365 * 24 * 60 * 60 * 1000;

const EnvelopeSchema = z
  .object({
    orgId: z.string().min(1).max(128),
    idempotencyKey: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,200}$/, 'letters, digits and . _ : - (at most 200)'),
    submitter: SubmitterSchema,
    /** The document or event the write comes from (an invoice id, an email, a bank sync). */
    source: z
      .object({ type: z.enum(['document', 'event', 'manual']), id: z.string().min(1).max(300) })
      .strict()
      .optional(),
    kind: z.string(),
    payload: z.unknown(),
    approval: z
      .object({
        // At least a minute (no reminder every millisecond), at most five years.
        dueAfterMs: z.number().int().min(60_000).max(MAX_APPROVAL_WINDOW_MS).optional(),
        expireAfterMs: z.number().int().min(60_000).max(MAX_APPROVAL_WINDOW_MS).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type GatewayWrite = Omit<z.infer<typeof EnvelopeSchema>, 'kind' | 'payload'> & {
  kind: WriteKind;
  payload: unknown;
};
export type GatewayWriteInput = z.input<typeof EnvelopeSchema>;
export interface WriteIssue {
  path: string;
  message: string;
}

/** Envelope, then the kind's payload schema (issue paths start at payload). */
export function parseWrite(
  raw: unknown,
): { ok: true; write: GatewayWrite } | { ok: false; issues: WriteIssue[] } {
  const env = EnvelopeSchema.safeParse(raw);
  const issues: WriteIssue[] = env.success
    ? []
    : env.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const kind = (raw as { kind?: unknown } | null)?.kind;
  // Own keys only: "__proto__" or "constructor" is no write kind.
  if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(WRITE_SCHEMAS, kind)) {
    if (!issues.some((i) => i.path === 'kind'))
      issues.push({
        path: 'kind',
        message: `unknown write kind ${JSON.stringify(kind)}; known: ${WRITE_KINDS.join(', ')}`,
      });
    return { ok: false, issues };
  }
  const payload = WRITE_SCHEMAS[kind as WriteKind].safeParse(
    (raw as { payload?: unknown }).payload,
  );
  if (!payload.success)
    issues.push(
      ...payload.error.issues.map((i) => ({
        path: ['payload', ...i.path].join('.'),
        message: i.message,
      })),
    );
  if (!env.success || !payload.success || issues.length > 0) return { ok: false, issues };
  return { ok: true, write: { ...env.data, kind: kind as WriteKind, payload: payload.data } };
}

export function formatIssues(issues: WriteIssue[]): string {
  return issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ');
}
