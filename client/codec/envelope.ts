import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with a fresh 96-bit nonce per message: `nonce ‖ tag ‖ ciphertext`. The
 * associated data binds a ciphertext to where it belongs (the key id for a payload, the key's
 * id and scope for a wrapped key): moved anywhere else, it fails to open.
 */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export class EnvelopeOpenError extends Error {
  override readonly name = 'EnvelopeOpenError';
}

export function seal(key: Buffer, plaintext: Uint8Array, aad: string): Buffer {
  if (key.length !== KEY_BYTES) throw new Error(`AES-256-GCM needs a ${KEY_BYTES}-byte key`);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

/** The plaintext, or EnvelopeOpenError when the bytes, the key or the associated data differ. */
export function open(key: Buffer, sealed: Uint8Array, aad: string): Buffer {
  if (sealed.length < NONCE_BYTES + TAG_BYTES)
    throw new EnvelopeOpenError('ciphertext shorter than its nonce and tag');
  const bytes = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength);
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  try {
    return Buffer.concat([
      decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)),
      decipher.final(),
    ]);
  } catch {
    throw new EnvelopeOpenError('authentication failed: modified, or another key');
  }
}
