import type { Command } from 'commander';
import { z } from 'zod';
import {
  apiKeyOwner,
  getAgentIdentity,
  issueApiKey,
  revokeApiKey,
} from '../../db/repositories/credentials';
import { rolesInOrg } from '../../db/repositories/organizations';
import { InvalidRequestError } from '../errors';
import type { Runner } from './context';
import { parseOptions } from './context';
import { requireAdmin } from './gateway';

/** keys issue / revoke: API keys for people and agents (admin/owner of the org). */
export function registerKeysCommands(program: Command, run: Runner): void {
  const keys = program.command('keys').description('API keys of users and agents');
  keys
    .command('issue')
    .description('issue a key to a member or a registered agent (admin/owner of ORG); shown once')
    .requiredOption('--org <org>', 'organization id')
    .option('--user <userId>', 'a member of the org')
    .option('--agent <agentId>', 'an agent registered in the org')
    .option('--days <n>', 'lifetime in days (1-1825)')
    .option('--label <text>', 'label')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: z.string().min(1),
            user: z.string().min(1).max(128).optional(),
            agent: z.string().min(1).max(100).optional(),
            days: z.coerce.number().int().min(1).max(1825).optional(),
            label: z.string().max(200).optional(),
          }),
          raw,
        );
        const db = await ctx.db();
        const admin = await requireAdmin(ctx, o.org);
        if ((o.user === undefined) === (o.agent === undefined))
          throw new InvalidRequestError('Give exactly one of --user or --agent', [
            { path: 'user', message: 'one of --user, --agent' },
          ]);
        if (o.user !== undefined && (await rolesInOrg(db, o.org, o.user)).length === 0)
          throw new InvalidRequestError(`User ${o.user} has no role in org ${o.org}`, [
            { path: 'user', message: 'not a member of the org' },
          ]);
        if (o.agent !== undefined && !(await getAgentIdentity(db, o.org, o.agent)))
          throw new InvalidRequestError(`Agent ${o.agent} is not registered in org ${o.org}`, [
            { path: 'agent', message: 'unknown agent' },
          ]);
        const issued = await issueApiKey(
          db,
          o.user !== undefined
            ? { kind: 'user', userId: o.user }
            : { kind: 'agent', orgId: o.org, agentId: o.agent as string },
          { issuedBy: admin, orgId: o.org, ttlDays: o.days, label: o.label },
        );
        ctx.out.print({
          ...issued,
          note: 'The key is shown once; store it in a file (mode 0600).',
        });
      }),
    );
  keys
    .command('revoke')
    .description('revoke a key of a member or agent of the org (admin/owner of ORG)')
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--key-id <keyId>', '16 hex digits')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({ org: z.string().min(1), keyId: z.string().regex(/^[0-9a-f]{16}$/) }),
          raw,
        );
        const db = await ctx.db();
        const admin = await requireAdmin(ctx, o.org);
        const owner = await apiKeyOwner(db, o.keyId);
        const inOrg =
          owner &&
          (owner.agentOrgId === o.org ||
            (owner.userId !== null && (await rolesInOrg(db, o.org, owner.userId)).length > 0));
        if (!inOrg)
          throw new InvalidRequestError(`No key ${o.keyId} of a member of org ${o.org}`, [
            { path: 'keyId', message: 'unknown key in this org' },
          ]);
        ctx.out.print({ keyId: o.keyId, revoked: await revokeApiKey(db, o.keyId, admin) });
      }),
    );
}
