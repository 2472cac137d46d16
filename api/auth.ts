import type { IncomingMessage } from 'node:http';
import type { Db } from '../db/connection';
import { authenticateToken, rolesInOrg } from '../db/repositories/organizations';
import type { Role } from '../db/schema';
import { HttpError } from './http-error';

export interface Caller {
  userId: string;
  orgId: string;
  roles: Role[];
}

/**
 * `Authorization: Bearer <userId>:<token>`, checked against the stored token hash; the caller
 * must hold a role in the org of the path. Everything after this runs as that user: a body
 * can never name another submitter, approver or reviewer.
 */
export async function authenticate(db: Db, req: IncomingMessage, orgId: string): Promise<Caller> {
  const header = req.headers.authorization ?? '';
  const m = /^Bearer ([^:\s]+):(\S+)$/.exec(header);
  if (!m)
    throw new HttpError(401, 'Unauthenticated', 'Send Authorization: Bearer <userId>:<token>');
  const [, userId = '', token = ''] = m;
  if (!(await authenticateToken(db, userId, token)))
    throw new HttpError(401, 'Unauthenticated', 'Unknown user or wrong token');
  const roles = await rolesInOrg(db, orgId, userId);
  if (roles.length === 0)
    throw new HttpError(403, 'NotAMember', `User ${userId} has no role in org ${orgId}`);
  return { userId, orgId, roles };
}
