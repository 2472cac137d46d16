import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { ConfigError, MasterKeyListSchema, type AppConfig } from '../../config/env';

export interface MasterKey {
  id: string;
  key: Buffer;
}

/** The first key wraps new data keys; all of them unwrap. */
export interface MasterKeys {
  active: MasterKey;
  byId: ReadonlyMap<string, MasterKey>;
}

export function masterKeysOf(list: MasterKey[]): MasterKeys {
  const [active] = list;
  if (!active) throw new ConfigError('no codec master key');
  return { active, byId: new Map(list.map((k) => [k.id, k])) };
}

/**
 * CODEC_MASTER_KEYS, else the file CODEC_MASTER_KEY_FILE — created once with one random key
 * (mode 0600, linked into place whole like the decision secret, so concurrent first starts of
 * the worker, the API and the CLI agree on one key). A malformed value or file is a
 * ConfigError naming it. Losing the file loses every encrypted history of this installation:
 * production sets CODEC_MASTER_KEYS from its secret store.
 */
export function loadMasterKeys(
  cfg: Pick<AppConfig, 'CODEC_MASTER_KEYS' | 'CODEC_MASTER_KEY_FILE'>,
): MasterKeys {
  if (cfg.CODEC_MASTER_KEYS) return masterKeysOf(cfg.CODEC_MASTER_KEYS);
  const file = cfg.CODEC_MASTER_KEY_FILE;
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const id = `mk-${randomBytes(4).toString('hex')}`;
    writeFileSync(
      tmp,
      `# Codec master keys (first wraps new data keys). Keep with the Temporal data.\n${id}:${randomBytes(32).toString('base64')}\n`,
      { flag: 'wx', mode: 0o600 },
    );
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(tmp);
    }
  }
  const parsed = MasterKeyListSchema.safeParse(readFileSync(file, 'utf8'));
  if (!parsed.success)
    throw new ConfigError(
      `CODEC_MASTER_KEY_FILE (${file}): ${parsed.error.issues.map((i) => i.message).join('; ')}`,
    );
  return masterKeysOf(parsed.data);
}
