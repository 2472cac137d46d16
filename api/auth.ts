import type { Db } from '../db/connection';
import { authenticateApiKey, type Principal } from '../db/repositories/credentials';
import { rolesInOrg } from '../db/repositories/organizations';
import { liveSession } from '../db/repositories/sessions';
import type { Role } from '../db/schema';
import { HttpError } from './http-error';
import { SESSION_COOKIE, readCookie, sessionTokenHash } from './session';

export type Caller =
  | {
      kind: 'user';
      userId: string;
      orgId: string;
      roles: Role[];
      keyId: string;
      /** Authenticated by a session cookie (the inbox), not a bearer key. */
      viaSession: boolean;
    }
  | {
      kind: 'agent';
      agentId: string;
      orgId: string;
      operatorUserId: string;
      allowedWorkflows: string[];
      keyId: string;
      viaSession: false;
    };

const REASONS = {
  malformed: 'The key is not a Countersign API key (csk_…)',
  unknown: 'Unknown key',
  revoked: 'The key was revoked',
  expired: 'The key has expired',
  disabled: 'The agent this key belongs to is unknown or disabled',
  unbound: 'The key is bound to no org; ask an admin of your org for a new one',
} as const;

export interface Credentials {
  authorization?: string | undefined;
  cookie?: string | undefined;
}

/**
 * Who is calling, before any org: `Authorization: Bearer <api key>` (a key the platform
 * issued, bound to a user or an agent) or, for people only, the session cookie the login
 * exchanged a key for. A bearer header wins over a cookie.
 */
export async function authenticatePrincipal(
  db: Db,
  creds: Credentials,
  sessionKey: Buffer,
): Promise<Principal & { viaSession: boolean }> {
  const header = creds.authorization;
  if (header !== undefined && header !== '') {
    const m = /^Bearer (\S{1,200})$/.exec(header);
    if (!m) throw new HttpError(401, 'Unauthenticated', 'Send Authorization: Bearer <api key>');
    const auth = await authenticateApiKey(db, m[1] as string);
    if (!auth.ok) throw new HttpError(401, 'Unauthenticated', REASONS[auth.reason]);
    return { ...auth.principal, viaSession: false };
  }
  const token = readCookie(creds.cookie, SESSION_COOKIE);
  if (token !== undefined) {
    // The session lives on the server: logout, key revocation and role removal end it at once.
    const hash = sessionTokenHash(sessionKey, token);
    const session = hash === null ? null : await liveSession(db, hash);
    if (!session)
      throw new HttpError(401, 'SessionInvalid', 'The session is invalid, ended or expired');
    return {
      kind: 'user',
      userId: session.userId,
      orgId: session.orgId,
      keyId: session.keyId,
      viaSession: true,
    };
  }
  throw new HttpError(401, 'Unauthenticated', 'Send Authorization: Bearer <api key>');
}

/**
 * The caller in the org of the path. A user's key (and a session made from it) works only in
 * the org it was issued for, and the user must hold a role there; an agent key works only in
 * its own org. Everything after this runs as that principal: a body can never name
 * another submitter, approver or reviewer.
 */
export async function authenticate(
  db: Db,
  creds: Credentials,
  orgId: string,
  sessionKey: Buffer,
): Promise<Caller> {
  const p = await authenticatePrincipal(db, creds, sessionKey);
  if (p.kind === 'agent') {
    if (p.orgId !== orgId)
      throw new HttpError(403, 'NotAMember', `Agent ${p.agentId} acts only in org ${p.orgId}`);
    return {
      kind: 'agent',
      agentId: p.agentId,
      orgId,
      operatorUserId: p.operatorUserId,
      allowedWorkflows: p.allowedWorkflows,
      keyId: p.keyId,
      viaSession: false,
    };
  }
  const roles = await rolesInOrg(db, orgId, p.userId);
  if (roles.length === 0)
    throw new HttpError(403, 'NotAMember', `User ${p.userId} has no role in org ${orgId}`);
  // A member of several orgs holds one key per org: this one acts only where it was issued.
  if (p.orgId !== orgId)
    throw new HttpError(
      403,
      'KeyNotForOrg',
      `This key of user ${p.userId} was issued for org ${p.orgId}; it does not act in org ${orgId}`,
    );
  return { kind: 'user', userId: p.userId, orgId, roles, keyId: p.keyId, viaSession: p.viaSession };
}

/** Decisions (approvals, reviews) are a person's: an agent key may not make them. */
export function personOf(caller: Caller): { userId: string; orgId: string } {
  if (caller.kind !== 'user')
    throw new HttpError(403, 'AgentCannotDecide', 'Approvals and reviews are made by people');
  return { userId: caller.userId, orgId: caller.orgId };
}
