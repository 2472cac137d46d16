import type { DataConverter } from '@temporalio/common';
import type { AppConfig } from '../../config/env';
import type { Db } from '../../db/connection';
import { EncryptionCodec } from './codec';
import { DataKeyring, databaseKeyStore } from './keyring';
import { loadMasterKeys } from './master-keys';

export interface PayloadCodecSetup {
  codec: EncryptionCodec;
  keyring: DataKeyring;
}

/**
 * The process's payload codec from its configuration: master keys from CODEC_MASTER_KEYS or
 * the generated file (read now, so a bad value stops the process at start), data keys from
 * the database on first use. Null when TEMPORAL_PAYLOAD_CODEC=off.
 */
export function createPayloadCodec(
  cfg: Pick<AppConfig, 'TEMPORAL_PAYLOAD_CODEC' | 'CODEC_MASTER_KEYS' | 'CODEC_MASTER_KEY_FILE'>,
  db: Db | (() => Promise<Db>),
  options: { encode: boolean } = { encode: true },
): PayloadCodecSetup | null {
  if (cfg.TEMPORAL_PAYLOAD_CODEC === 'off') return null;
  const keyring = new DataKeyring(
    loadMasterKeys(cfg),
    databaseKeyStore(typeof db === 'function' ? db : () => Promise.resolve(db)),
  );
  return { codec: new EncryptionCodec(keyring, options), keyring };
}

/** The data converter every client, worker and replayer of this installation uses. */
export function dataConverterOf(setup: PayloadCodecSetup | null): DataConverter {
  return { payloadCodecs: setup ? [setup.codec] : [] };
}
