import type { Payload, PayloadCodec, SerializationContext } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { open, seal } from './envelope';
import type { DataKeyring } from './keyring';
import { scopeOfContext } from './scope';

/** The `encoding` of an encrypted payload; anything else passes through decode unchanged. */
export const ENCRYPTED_ENCODING = 'binary/countersign-aes256gcm';
/** Metadata naming the data key (its id; the key itself is never in history). */
export const KEY_ID_METADATA = 'cs-key-id';

const utf8 = (s: string) => Buffer.from(s, 'utf8');
const text = (b: Uint8Array | null | undefined) =>
  b ? Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8') : undefined;

export class PayloadDecryptError extends Error {
  override readonly name = 'PayloadDecryptError';
}

/** The key id of an encrypted payload, null for a clear (legacy or unencoded) one. */
export function keyIdOf(payload: Payload): string | null {
  if (text(payload.metadata?.encoding) !== ENCRYPTED_ENCODING) return null;
  const id = text(payload.metadata?.[KEY_ID_METADATA]);
  if (!id) throw new PayloadDecryptError(`an encrypted payload without ${KEY_ID_METADATA}`);
  return id;
}

/**
 * Encrypts every payload (its whole protobuf: metadata and data) with AES-256-GCM under the
 * data key of the org that owns it (client/codec/scope.ts), the key id in clear metadata and
 * bound as associated data. Decode opens any key id this installation has ever made and
 * passes a payload without our encoding through unchanged, so histories written before the
 * codec still replay and read. A modified payload fails to decode: it is never silently
 * accepted. `encode: false` (a replayer, whose completions go nowhere) encrypts nothing.
 */
export class EncryptionCodec implements PayloadCodec {
  constructor(
    private readonly keyring: DataKeyring,
    private readonly options: { encode: boolean } = { encode: true },
  ) {}

  encode(payloads: Payload[], context?: SerializationContext): Promise<Payload[]> {
    if (!this.options.encode) return Promise.resolve(payloads);
    return this.encodeInScope(payloads, scopeOfContext(context));
  }

  /** Encrypts under a scope's current key (the codec endpoint: the caller's org). */
  async encodeInScope(payloads: Payload[], scope: string): Promise<Payload[]> {
    if (payloads.length === 0) return payloads;
    const key = await this.keyring.current(scope);
    return payloads.map((p) => ({
      metadata: { encoding: utf8(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: utf8(key.id) },
      data: seal(key.key, temporal.api.common.v1.Payload.encode(p).finish(), key.id),
    }));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return Promise.all(
      payloads.map(async (p) => {
        const id = keyIdOf(p);
        if (id === null) return p;
        const key = await this.keyring.byId(id);
        try {
          return temporal.api.common.v1.Payload.decode(
            open(key.key, p.data ?? new Uint8Array(), id),
          );
        } catch (err) {
          throw new PayloadDecryptError(
            `payload under key ${id} does not decrypt: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      }),
    );
  }
}
