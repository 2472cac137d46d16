/**
 * Reading a decision proof's claims inside the workflow, without verifying it: the approval
 * Update's validator cannot run I/O and never holds the secret, but it can refuse, before
 * anything reaches history, a vote whose proof does not even claim an approving role for this
 * person in this org. The handler still verifies the signature (an activity) and the role in
 * the database; a forged claim gets no further than that.
 *
 * Pure and deterministic (no Buffer, no TextDecoder): base64url and UTF-8 decoded by hand.
 */
import { ACTIONS } from '../roles';

/** The roles that may approve a write: the roles table's approve_write. */
export const APPROVING_ROLES: readonly string[] = ACTIONS.approve_write;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function base64UrlToText(s: string): string | null {
  let value = 0;
  let bits = 0;
  let encoded = '';
  for (const ch of s) {
    const v = ALPHABET.indexOf(ch);
    if (v < 0) return null;
    value = ((value << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      encoded += '%' + ((value >> bits) & 0xff).toString(16).padStart(2, '0');
    }
  }
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

export interface ClaimedDecider {
  orgId: string;
  userId: string;
  /** Null when the signer recorded none. */
  roles: string[] | null;
  /** The plan revision and hash the proof signs (null when it names none). */
  revision: number | null;
  planHash: string | null;
}

/** The org, person, roles and plan a proof claims (unverified), or null when it is unreadable. */
export function claimedDecider(proof: unknown): ClaimedDecider | null {
  if (typeof proof !== 'string' || proof.length > 4000) return null;
  const body = proof.split('.')[0];
  if (!body) return null;
  const text = base64UrlToText(body);
  if (text === null) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(text);
  } catch {
    return null;
  }
  if (claims === null || typeof claims !== 'object') return null;
  const { orgId, userId, roles, revision, planHash } = claims as Record<string, unknown>;
  if (typeof orgId !== 'string' || typeof userId !== 'string') return null;
  return {
    orgId,
    userId,
    roles: Array.isArray(roles) ? roles.filter((r): r is string => typeof r === 'string') : null,
    revision: typeof revision === 'number' ? revision : null,
    planHash: typeof planHash === 'string' ? planHash : null,
  };
}
