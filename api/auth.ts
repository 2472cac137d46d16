import type { IncomingMessage } from 'node:http';
import type { Db } from '../db/connection';
import { authenticateApiKey } from '../db/repositories/credentials';
import { rolesInOrg } from '../db/repositories/organizations';
import type { Role } from '../db/schema';
import { HttpError } from './http-error';

export type Caller =
  | { kind: 'user'; userId: string; orgId: string; roles: Role[]; keyId: string }
  | {
      kind: 'agent';
      agentId: string;
      orgId: string;
      operatorUserId: string;
      allowedWorkflows: string[];
      keyId: string;
    };

const REASONS = {
  malformed: 'The key is not a Countersign API key (csk_…)',
  unknown: 'Unknown key',
  revoked: 'The key was revoked',
  expired: 'The key has expired',
  disabled: 'The agent this key belongs to is unknown or disabled',
} as const;

/**
 * `Authorization: Bearer <api key>`: a key the platform issued (db/repositories/credentials),
 * bound to a user or to an agent. A user must hold a role in the org of the path; an agent
 * key works only in its own org. Everything after this runs as that principal: a body can
 * never name another submitter, approver or reviewer.
 */
export async function authenticate(db: Db, req: IncomingMessage, orgId: string): Promise<Caller> {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer (\S{1,200})$/.exec(header);
  if (!m) throw new HttpError(401, 'Unauthenticated', 'Send Authorization: Bearer <api key>');
  const auth = await authenticateApiKey(db, m[1] as string);
  if (!auth.ok) throw new HttpError(401, 'Unauthenticated', REASONS[auth.reason]);
  const p = auth.principal;
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
    };
  }
  const roles = await rolesInOrg(db, orgId, p.userId);
  if (roles.length === 0)
    throw new HttpError(403, 'NotAMember', `User ${p.userId} has no role in org ${orgId}`);
  return { kind: 'user', userId: p.userId, orgId, roles, keyId: p.keyId };
}

/** Decisions (approvals, reviews) are a person's: an agent key may not make them. */
export function personOf(caller: Caller): { userId: string; orgId: string } {
  if (caller.kind !== 'user')
    throw new HttpError(403, 'AgentCannotDecide', 'Approvals and reviews are made by people');
  return { userId: caller.userId, orgId: caller.orgId };
}
