import { createHmac, randomBytes } from 'node:crypto';

/**
 * Reviewer sessions: a person logs in with an issued API key once and gets an HttpOnly,
 * SameSite=Strict cookie holding an opaque random token. The session lives on the server
 * (`browser_sessions`, which stores only an HMAC of the token under a key derived from the
 * platform's decision secret, so a reader of the table cannot sign in): logging out, revoking
 * the key or removing the user's roles in the org ends it at once. Agent keys get no session.
 */
export const SESSION_COOKIE = 'cs_session';
/** Eight hours, never past the key's own expiry. */
export const SESSION_TTL_MS = 8 * 3_600_000;
/** A cookie-authenticated change must carry this header (a cross-site form cannot). */
export const CSRF_HEADER = 'x-countersign-inbox';

export function sessionKey(decisionSecret: string): Buffer {
  return createHmac('sha256', decisionSecret).update('countersign-session-cookie-v1').digest();
}

/** A new session: the cookie's token (256 random bits) and its public id. */
export function newSessionToken(): { id: string; token: string } {
  return {
    id: randomBytes(12).toString('base64url'),
    token: randomBytes(32).toString('base64url'),
  };
}

/** What `browser_sessions.token_hash` holds for a token; null for what cannot be one. */
export function sessionTokenHash(key: Buffer, token: string): string | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  return createHmac('sha256', key).update(token).digest('hex');
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}
