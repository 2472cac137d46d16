import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Reviewer sessions: a person logs in with an issued API key once and gets an HttpOnly,
 * SameSite=Strict cookie. The cookie is signed (HMAC-SHA256 under a key derived from the
 * platform's decision secret) and names the key it was exchanged for, so revoking or
 * expiring that key ends every session made from it. Agent keys get no session.
 */
export const SESSION_COOKIE = 'cs_session';
/** Eight hours, never past the key's own expiry. */
export const SESSION_TTL_MS = 8 * 3_600_000;
/** A cookie-authenticated change must carry this header (a cross-site form cannot). */
export const CSRF_HEADER = 'x-countersign-inbox';

export interface SessionClaims {
  keyId: string;
  userId: string;
  expiresAtMs: number;
}

export function sessionKey(decisionSecret: string): Buffer {
  return createHmac('sha256', decisionSecret).update('countersign-session-cookie-v1').digest();
}

const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export function signSession(key: Buffer, claims: SessionClaims): string {
  const body = b64(JSON.stringify({ k: claims.keyId, u: claims.userId, e: claims.expiresAtMs }));
  const mac = createHmac('sha256', key).update(body).digest();
  return `${body}.${b64(mac)}`;
}

export function verifySession(key: Buffer, token: string, now = Date.now()): SessionClaims | null {
  const m = /^([A-Za-z0-9_-]{1,600})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = createHmac('sha256', key)
    .update(m[1] as string)
    .digest();
  const given = Buffer.from(m[2] as string, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(m[1] as string, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const p = parsed as { k?: unknown; u?: unknown; e?: unknown };
  if (typeof p.k !== 'string' || typeof p.u !== 'string' || typeof p.e !== 'number') return null;
  if (p.e <= now) return null;
  return { keyId: p.k, userId: p.u, expiresAtMs: p.e };
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
