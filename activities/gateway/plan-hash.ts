import { createHash } from 'node:crypto';
import type { Lane } from '../../workflows/gateway/risk';
import type { EntryPreview } from '../../workflows/gateway.contract';
import type { PayeeAccount } from './kinds';

/** JSON with object keys sorted, so equal values always hash equal. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
    .join(',')}}`;
}

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
