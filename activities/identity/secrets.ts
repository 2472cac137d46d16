import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ConfigError } from '../../config/env';

/**
 * Decision proofs: short-lived HMAC tokens that bind one decider to one decision on one
 * subject. Pure functions over node:crypto; the secret is passed in. (API keys, the other
 * credential, are in db/api-keys.ts beside the repository that stores them.)
 */

export const DECISION_PROOF_TTL_MS = 5 * 60 * 1000;
/**
 * An approval proof is signed right before its Update is sent and checked on arrival: a
 * minute is ample, and a proof read from history is dead long before anyone can reuse it
 * (its nonce is single use besides).
 */
export const APPROVAL_PROOF_TTL_MS = 60 * 1000;

/** A plan hash as the gateway computes it (activities/gateway/plan-hash.ts): SHA-256, hex. */
export const PlanHashSchema = z.string().regex(/^[0-9a-f]{64}$/, 'a plan hash (64 hex digits)');

/** What a decision proof vouches for: this person, this decision, on this subject in this org. */
export const DecisionClaimsSchema = z
  .object({
    /** `approval` (a gateway submission) or `review` (an analysis request). */
    purpose: z.enum(['approval', 'review']),
    orgId: z.string().min(1).max(128),
    /** The workflow id of the submission or analysis request. */
    subjectId: z.string().min(1).max(400),
    userId: z.string().min(1).max(128),
    decision: z.enum(['approve', 'reject', 'correct']),
    /**
     * The person's roles in the org when the signer checked them (API, CLI, inbox): the
     * approval Update's validator reads them to refuse a non-approver before history.
     */
    roles: z.array(z.string().min(1).max(32)).max(16).optional(),
    /**
     * An approval names the plan it signs: the revision and its hash as the approver was
     * shown them. A proof for another revision or plan is refused.
     */
    revision: z.number().int().min(0).optional(),
    planHash: PlanHashSchema.optional(),
    /** Random, single use: the worker records each nonce it accepts (decision_nonces). */
    nonce: z
      .string()
      .regex(/^[A-Za-z0-9_-]{22,64}$/)
      .optional(),
    issuedAt: z.number().int(),
    expiresAt: z.number().int(),
  })
  .strict();
export type DecisionClaims = z.infer<typeof DecisionClaimsSchema>;

/** A decision secret is an HMAC-SHA-256 key: at least 32 bytes, whatever its source. */
export const MIN_DECISION_SECRET_BYTES = 32;

export function requireStrongDecisionSecret(
  secret: string,
  source = 'the decision secret',
): string {
  if (Buffer.byteLength(secret, 'utf8') < MIN_DECISION_SECRET_BYTES)
    throw new ConfigError(
      `${source} holds ${Buffer.byteLength(secret, 'utf8')} bytes; a decision secret needs at least ${MIN_DECISION_SECRET_BYTES}: set DECISION_SIGNING_SECRET to a longer value, or remove the file so a random one is generated`,
    );
  return secret;
}

function mac(secret: string, body: string): string {
  requireStrongDecisionSecret(secret);
  return createHmac('sha256', secret).update(`countersign-decision-v1.${body}`).digest('base64url');
}

/**
 * Signs a decision proof, valid for ttlMs from now, with a fresh nonce (unless the claims
 * carry one). Only the API, the CLI and trusted clients call this.
 */
export function signDecisionProof(
  secret: string,
  claims: Omit<DecisionClaims, 'issuedAt' | 'expiresAt'>,
  ttlMs = DECISION_PROOF_TTL_MS,
  now = Date.now(),
): string {
  const body = Buffer.from(
    JSON.stringify({
      nonce: randomBytes(16).toString('base64url'),
      ...claims,
      issuedAt: now,
      expiresAt: now + ttlMs,
    }),
  ).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

export type ProofCheck =
  | { ok: true; claims: DecisionClaims }
  | {
      ok: false;
      reason: 'malformed' | 'bad_signature' | 'expired' | 'mismatch' | 'replayed';
      detail: string;
    };

/**
 * Verifies a proof against the decision it accompanies: signature, expiry, and that every
 * bound field equals the expected one (a proof for another submission, person, org or
 * decision is refused; when the expected decision names a plan revision and hash, a proof
 * for another one is refused too).
 */
export function verifyDecisionProof(
  secret: string,
  proof: string,
  expected: Omit<DecisionClaims, 'issuedAt' | 'expiresAt' | 'roles' | 'nonce'>,
  now = Date.now(),
): ProofCheck {
  const parts = proof.split('.');
  if (parts.length !== 2 || !parts[0] || !parts[1] || proof.length > 4000)
    return { ok: false, reason: 'malformed', detail: 'not a decision proof' };
  const [body, sig] = parts as [string, string];
  const want = Buffer.from(mac(secret, body));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got))
    return {
      ok: false,
      reason: 'bad_signature',
      detail: 'the proof is not signed by this platform',
    };
  let claims: DecisionClaims;
  try {
    const parsed = DecisionClaimsSchema.safeParse(
      JSON.parse(Buffer.from(body, 'base64url').toString('utf8')),
    );
    if (!parsed.success) return { ok: false, reason: 'malformed', detail: 'unreadable claims' };
    claims = parsed.data;
  } catch {
    return { ok: false, reason: 'malformed', detail: 'unreadable claims' };
  }
  if (now >= claims.expiresAt)
    return {
      ok: false,
      reason: 'expired',
      detail: `the proof expired at ${new Date(claims.expiresAt).toISOString()}`,
    };
  for (const k of ['purpose', 'orgId', 'subjectId', 'userId', 'decision'] as const) {
    if (claims[k] !== expected[k])
      return {
        ok: false,
        reason: 'mismatch',
        detail: `the proof is for ${k} ${JSON.stringify(claims[k])}, not ${JSON.stringify(expected[k])}`,
      };
  }
  for (const k of ['revision', 'planHash'] as const) {
    if (expected[k] !== undefined && claims[k] !== expected[k])
      return {
        ok: false,
        reason: 'mismatch',
        detail: `the proof is for ${k} ${JSON.stringify(claims[k] ?? null)}, not ${JSON.stringify(expected[k])}`,
      };
  }
  return { ok: true, claims };
}
