import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config/env';
import { requireStrongDecisionSecret } from './secrets';

/**
 * The server secret that signs decision proofs: DECISION_SIGNING_SECRET, else a random one
 * kept in DECISION_SECRET_FILE (created once, mode 0600), so the worker, the API and the
 * CLI of one installation agree without anyone choosing a weak value. Either source must hold
 * at least 32 bytes (an empty or short value is a ConfigError, never a weak HMAC key). It
 * never enters a workflow: proofs are verified in an activity.
 */
export function decisionSecret(
  cfg: Pick<AppConfig, 'DECISION_SIGNING_SECRET' | 'DECISION_SECRET_FILE'>,
): string {
  if (cfg.DECISION_SIGNING_SECRET !== undefined)
    return requireStrongDecisionSecret(cfg.DECISION_SIGNING_SECRET, 'DECISION_SIGNING_SECRET');
  const file = cfg.DECISION_SECRET_FILE;
  // An empty or short file (truncated, or written by hand) is never taken as the HMAC key.
  return requireStrongDecisionSecret(secretFile(file), `DECISION_SECRET_FILE (${file})`);
}

/**
 * The content of a secret file, created with 32 random bytes (hex, mode 0600) when missing.
 * Written whole under a temporary name, then linked into place (link refuses an existing
 * name): no process ever reads a half-written file, and the first creator wins.
 */
export function secretFile(file: string): string {
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(tmp, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      unlinkSync(tmp);
    }
  }
  return readFileSync(file, 'utf8').trim();
}
