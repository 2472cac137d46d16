import { authenticateApiKey } from '../../db/repositories/credentials';
import { hasAnyRole } from '../../db/repositories/organizations';
import { AuthenticationError, OperatorKeyError } from '../errors';
import { presentedKey } from '../credentials';
import type { CliContext } from './context';

/**
 * Who may run an operator command (issue 25 item 8): a person whose key (CS_API_KEY or
 * CS_API_KEY_FILE) was issued for the org acted on and who is an owner or admin there. A
 * command on one org (`--org`) accepts an owner or admin of that org, or of the operator org
 * (CS_OPERATOR_ORG); a command across orgs (no `--org`: queues, runs, every org's audit) only
 * the operator org's. Returns the operator's user id and the org their key acts in.
 */
export async function requireOperator(
  ctx: CliContext,
  org?: string,
): Promise<{ userId: string; orgId: string }> {
  const cfg = ctx.config();
  let key: string;
  try {
    key = presentedKey(cfg);
  } catch (err) {
    if (err instanceof AuthenticationError)
      throw new OperatorKeyError(
        `Operator commands need the API key of an owner or admin: ${err.message}`,
      );
    throw err;
  }
  const db = await ctx.db();
  const auth = await authenticateApiKey(db, key);
  if (!auth.ok) throw new OperatorKeyError(`The API key does not authenticate (${auth.reason})`);
  const p = auth.principal;
  if (p.kind !== 'user')
    throw new OperatorKeyError('Operator commands need a person’s key, not an agent’s');
  const operatorOrg = cfg.CS_OPERATOR_ORG;
  const scopes = [org, operatorOrg].filter((o): o is string => o !== undefined);
  if (scopes.length === 0)
    throw new OperatorKeyError(
      'This command acts across orgs: set CS_OPERATOR_ORG to the operating org (and use a key of an owner or admin there), or pass --org',
    );
  // A key acts only in the org it was issued for: that must be the org acted on or the operator org.
  if (!scopes.includes(p.orgId))
    throw new OperatorKeyError(
      `The API key was issued for org ${p.orgId}; this command needs one of ${scopes.join(' or ')}`,
    );
  if (!(await hasAnyRole(db, p.orgId, p.userId, ['owner', 'admin'])))
    throw new OperatorKeyError(`User ${p.userId} is not an owner or admin of org ${p.orgId}`);
  return { userId: p.userId, orgId: p.orgId };
}
