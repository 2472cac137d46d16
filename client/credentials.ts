import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/env';
import type { Db } from '../db/connection';
import { authenticateApiKey, issueApiKey, type Principal } from '../db/repositories/credentials';
import { rolesInOrg } from '../db/repositories/organizations';
import { ACTIONS, AGENT_ACTIONS, type Action } from '../workflows/roles';
import { AuthenticationError } from './errors';

/**
 * The credential a CLI process acts as: CS_API_KEY, else the file CS_API_KEY_FILE names.
 * Never a command-line argument (those end up in shell history and `ps`).
 */
export function presentedKey(cfg: Pick<AppConfig, 'CS_API_KEY' | 'CS_API_KEY_FILE'>): string {
  if (cfg.CS_API_KEY) return cfg.CS_API_KEY.trim();
  if (cfg.CS_API_KEY_FILE) {
    try {
      return readFileSync(cfg.CS_API_KEY_FILE, 'utf8').trim();
    } catch (err) {
      throw new AuthenticationError(
        `Cannot read CS_API_KEY_FILE ${cfg.CS_API_KEY_FILE}: ${(err as Error).message}`,
      );
    }
  }
  throw new AuthenticationError(
    'No credential: set CS_API_KEY, or CS_API_KEY_FILE to a file holding your API key',
  );
}

/**
 * The same check the HTTP API makes, for the key this process holds, acting in `orgId`: a
 * person's key works only in the org it was issued for, an agent's only in its agent's org.
 */
export async function authenticateCli(
  db: Db,
  cfg: Pick<AppConfig, 'CS_API_KEY' | 'CS_API_KEY_FILE'>,
  orgId?: string,
): Promise<Principal> {
  const r = await authenticateApiKey(db, presentedKey(cfg));
  if (!r.ok) throw new AuthenticationError(`The API key does not authenticate (${r.reason})`);
  if (orgId !== undefined && r.principal.orgId !== orgId)
    throw new AuthenticationError(
      `The API key was issued for org ${r.principal.orgId}; it does not act in org ${orgId}`,
    );
  return r.principal;
}

/**
 * The key this process holds, acting in `orgId`, allowed to take `action` there: the role table
 * the HTTP API checks (workflows/roles.ts), so a CLI command reads or changes nothing its holder could
 * not through the API. A viewer's key reads; an agent's key takes its agent's actions.
 */
export async function authorizeCli(
  db: Db,
  cfg: Pick<AppConfig, 'CS_API_KEY' | 'CS_API_KEY_FILE'>,
  orgId: string,
  action: Action,
): Promise<Principal> {
  const p = await authenticateCli(db, cfg, orgId);
  if (p.kind === 'agent') {
    if (AGENT_ACTIONS.includes(action)) return p;
    throw new AuthenticationError(`Agent ${p.agentId} may not ${action.replace('_', ' ')}`);
  }
  const roles = await rolesInOrg(db, orgId, p.userId);
  const allowed: readonly string[] = ACTIONS[action];
  if (roles.some((r) => allowed.includes(r))) return p;
  throw new AuthenticationError(
    `User ${p.userId} may not ${action.replace('_', ' ')} in org ${orgId} (roles: ${roles.join(', ') || 'none'}; needs ${allowed.join(', ')})`,
  );
}

/** Decisions and administration are a person's. */
export function personOf(p: Principal): string {
  if (p.kind !== 'user')
    throw new AuthenticationError('This command needs a person’s key, not an agent’s');
  return p.userId;
}

/**
 * Issues a key for each demo user and writes it to `<dir>/<user>.key` (mode 0600), so the
 * CLI can act as them with CS_API_KEY_FILE. A fresh key per start; earlier ones expire.
 */
export async function issueDemoKeyFiles(
  db: Db,
  userIds: string[],
  dir: string,
  orgId: string,
): Promise<Record<string, string>> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const files: Record<string, string> = {};
  for (const userId of userIds) {
    const issued = await issueApiKey(
      db,
      { kind: 'user', userId },
      { issuedBy: 'seed', orgId, label: `demo ${userId}`, ttlDays: 30 },
    );
    const file = join(dir, `${userId}.key`);
    writeFileSync(file, `${issued.key}\n`, { mode: 0o600 });
    files[userId] = file;
  }
  return files;
}
