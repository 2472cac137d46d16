import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config/env';

/**
 * The server secret that signs decision proofs: DECISION_SIGNING_SECRET, else a random one
 * kept in DECISION_SECRET_FILE (created once, mode 0600), so the worker, the API and the
 * CLI of one installation agree without anyone choosing a weak value. It never enters a
 * workflow: proofs are verified in an activity.
 */
export function decisionSecret(
  cfg: Pick<AppConfig, 'DECISION_SIGNING_SECRET' | 'DECISION_SECRET_FILE'>,
): string {
  if (cfg.DECISION_SIGNING_SECRET) return cfg.DECISION_SIGNING_SECRET;
  const file = cfg.DECISION_SECRET_FILE;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dirname(file), { recursive: true });
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return readFileSync(file, 'utf8').trim();
  }
}
