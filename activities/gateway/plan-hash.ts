import { createHash } from 'node:crypto';
import type { Lane } from '../../workflows/gateway/risk';
import type { EntryPreview } from '../../workflows/gateway.contract';
import type { PayeeAccount } from './kind-def';
import { canonicalJson } from '../../workflows/canonical-json';

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

export interface PlanForHash {
  entries: EntryPreview[];
  payee: PayeeAccount | null;
  amounts: { currency: string; amountMinor: string }[];
  lane: Lane;
}

/** What approvers sign: the entries, the payee's bank account, the amounts and the lane. */
export function planHash(p: PlanForHash): string {
  return sha256(canonicalJson({ v: 1, ...p }));
}

/**
 * The identity of a submission's request (kind, payload, submitter, source, approval
 * timings): the same idempotency key with a different digest is another write, refused.
 */
export function writeDigest(w: {
  kind: string;
  payload: unknown;
  submitter: unknown;
  source?: unknown;
  approval?: unknown;
}): string {
  return sha256(
    canonicalJson({
      kind: w.kind,
      payload: w.payload,
      submitter: w.submitter,
      source: w.source ?? null,
      approval: w.approval ?? null,
    }),
  );
}
