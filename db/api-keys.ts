import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The API key format: `csk_<16 hex id>_<43 base64url secret>`, shown to its holder once and
 * stored as a salted SHA-256 of the secret. Pure functions over node:crypto, used by the
 * credentials repository alone.
 */

const KEY_FORMAT = /^csk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKey {
  /** The whole key, shown to its holder once. */
  key: string;
  id: string;
  salt: string;
  secretHash: string;
}

export function hashKeySecret(salt: string, secret: string): string {
  return createHash('sha256').update(salt).update('\0').update(secret).digest('hex');
}

export function generateApiKey(): NewApiKey {
  const id = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const salt = randomBytes(16).toString('hex');
  return { key: `csk_${id}_${secret}`, id, salt, secretHash: hashKeySecret(salt, secret) };
}

/** Splits a presented key; undefined when it is not shaped like one of ours. */
export function parseApiKey(key: string): { id: string; secret: string } | undefined {
  const m = KEY_FORMAT.exec(key);
  return m ? { id: m[1] as string, secret: m[2] as string } : undefined;
}

/** Constant-time comparison of hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
