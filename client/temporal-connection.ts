import { readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { AppConfig } from '../config/env';
import type { Db } from '../db/connection';
import { createPayloadCodec, dataConverterOf } from './codec/payload-codec';

/** TLS / API-key options shared by clients and workers, from the validated config. */
function tlsOptions(cfg: AppConfig) {
  if (!cfg.TEMPORAL_TLS && !cfg.TEMPORAL_TLS_CERT_PATH && !cfg.TEMPORAL_API_KEY) return undefined;
  return {
    ...(cfg.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: cfg.TEMPORAL_TLS_SERVER_NAME } : {}),
    ...(cfg.TEMPORAL_TLS_CERT_PATH && cfg.TEMPORAL_TLS_KEY_PATH
      ? {
          clientCertPair: {
            crt: readFileSync(cfg.TEMPORAL_TLS_CERT_PATH),
            key: readFileSync(cfg.TEMPORAL_TLS_KEY_PATH),
          },
        }
      : {}),
  };
}

/**
 * A client of this installation: every payload it sends is encrypted by the payload codec
 * (client/codec) and every one it reads decrypted, with the data keys in `db` (opened on
 * first use when a function is given).
 */
export async function connectClient(cfg: AppConfig, db: Db | (() => Promise<Db>)): Promise<Client> {
  const dataConverter = dataConverterOf(createPayloadCodec(cfg, db));
  const connection = await Connection.connect({
    address: cfg.TEMPORAL_ADDRESS,
    tls: tlsOptions(cfg),
    ...(cfg.TEMPORAL_API_KEY ? { apiKey: cfg.TEMPORAL_API_KEY } : {}),
  });
  return new Client({ connection, namespace: cfg.TEMPORAL_NAMESPACE, dataConverter });
}

export async function connectWorker(cfg: AppConfig): Promise<NativeConnection> {
  return NativeConnection.connect({
    address: cfg.TEMPORAL_ADDRESS,
    tls: tlsOptions(cfg),
    ...(cfg.TEMPORAL_API_KEY ? { apiKey: cfg.TEMPORAL_API_KEY } : {}),
  });
}
