import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { accountNames } from '../../db/repositories/ledger';
import { hasAnyRole } from '../../db/repositories/organizations';
import { accountIdsIn, describeWrite } from '../format/write-summary';
import { authenticateCli, authorizeCli, personOf } from '../credentials';
import { requireOperator } from './operator';
import { AuthenticationError } from '../errors';
import { GatewayClient } from '../gateway-client';
import type { Runner } from './context';
import { type CliContext, parseOptions } from './context';

const Org = z.string().min(1);
const Key = z.string().min(1);

async function gatewayOf(ctx: CliContext): Promise<GatewayClient> {
  return new GatewayClient(await ctx.temporal(), await ctx.db(), ctx.config().TEMPORAL_TASK_QUEUE);
}

/** The key's holder, who must be an admin or owner of the org. */
export async function requireAdmin(ctx: CliContext, org: string): Promise<string> {
  const db = await ctx.db();
  const user = personOf(await authenticateCli(db, ctx.config(), org));
  if (!(await hasAnyRole(db, org, user, ['admin', 'owner'])))
    throw new AuthenticationError(`User ${user} is not an admin or owner of org ${org}`);
  return user;
}

/** gateway submit/show/approve/reject/resume/changes/trial-balance: writes to the books. */
export function registerGatewayCommands(program: Command, run: Runner): void {
  const gateway = program
    .command('gateway')
    .description('writes to the books through the write gateway');

  gateway
    .command('submit')
    .description("submit a write (JSON file) as the key's holder and wait until it settles")
    .requiredOption('--file <path>', 'the write as JSON')
    .option('--dry-run [bool]', 'validate, price and risk-score only; nothing is started')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            file: z.string().min(1),
            // `--dry-run` alone, or the older `--dry-run true|false`.
            dryRun: z
              .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
              .optional(),
          }),
          raw,
        );
        const db = await ctx.db();
        const file = JSON.parse(readFileSync(o.file, 'utf8')) as {
          orgId: string;
          idempotencyKey: string;
          submitter?: { kind?: string; userId?: string; agentType?: string };
        };
        const principal = await authenticateCli(db, ctx.config(), file.orgId);
        // The submitter is the key's holder; a file naming someone else is refused.
        const submitter =
          principal.kind === 'user'
            ? { kind: 'user' as const, userId: principal.userId }
            : {
                kind: 'agent' as const,
                agentType: principal.agentId,
                instanceId: `cli:${principal.keyId}`,
                operatorUserId: principal.operatorUserId,
              };
        const named = file.submitter;
        if (
          named &&
          (named.kind !== submitter.kind ||
            (submitter.kind === 'user' && named.userId !== submitter.userId) ||
            (submitter.kind === 'agent' && named.agentType !== submitter.agentType))
        )
          throw new AuthenticationError(
            'The file names another submitter than the holder of CS_API_KEY',
          );
        const write = { ...file, submitter: { ...(named ?? {}), ...submitter } };
        const gw = await gatewayOf(ctx);
        if (o.dryRun) return ctx.out.print(await gw.submit(write, { dryRun: true }));
        const started = await gw.submit(write);
        ctx.out.print({ ...started, state: await gw.settle(write.orgId, write.idempotencyKey) });
      }),
    );

  gateway
    .command('show')
    .description(
      'a write as an approver reads it: lane and rules in words, entries with account names and formatted amounts, the payee masked, and the plan revision and hash a decision must name (--json: its state)',
    )
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--key <idempotencyKey>', "the write's idempotency key")
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ org: Org, key: Key }), raw);
        const db = await ctx.db();
        await authenticateCli(db, ctx.config(), o.org);
        const state = await (await gatewayOf(ctx)).state(o.org, o.key);
        if (ctx.out.json) return ctx.out.print(state);
        const names = await accountNames(db, o.org, accountIdsIn(state.preview, state.risk));
        const votes = state.votes.map((v) => `${v.decision} by ${v.userId} at ${v.decidedAt}`);
        const plan =
          state.planHash !== null
            ? `\nPlan: revision ${state.revision}, hash ${state.planHash} (name both in approve/reject)`
            : '';
        ctx.out.write(
          `${describeWrite({ kind: state.kind, risk: state.risk, entries: state.preview, payee: state.payee }, names)}\n\nStatus: ${state.status}${plan}${votes.length ? `\nVotes: ${votes.join('; ')}` : ''}\n`,
        );
      }),
    );

  // A decision names the plan it was shown (`gateway show`): a plan that changed since is
  // refused with the current revision, never approved unseen.
  for (const decision of ['approve', 'reject'] as const) {
    const cmd = gateway
      .command(decision)
      .description(
        `${decision} a write waiting for a signature, as the key's holder, on the plan revision shown by \`gateway show\``,
      )
      .requiredOption('--org <org>', 'organization id')
      .requiredOption('--key <idempotencyKey>', "the write's idempotency key")
      .requiredOption('--revision <n>', 'the plan revision you reviewed')
      .requiredOption('--plan-hash <hash>', 'the plan hash you reviewed');
    if (decision === 'reject') cmd.requiredOption('--note <text>', 'why');
    else cmd.option('--note <text>', 'note');
    cmd.action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: Org,
            key: Key,
            revision: z.coerce.number().int().min(0),
            planHash: z.string().min(1),
            note: decision === 'reject' ? z.string().min(1) : z.string().optional(),
          }),
          raw,
        );
        const user = personOf(await authenticateCli(await ctx.db(), ctx.config(), o.org));
        const gw = await gatewayOf(ctx);
        ctx.out.print(
          await gw.decide(o.org, o.key, {
            decision,
            approver: { userId: user, orgId: o.org },
            revision: o.revision,
            planHash: o.planHash,
            ...(o.note ? { note: o.note } : {}),
          }),
        );
      }),
    );
  }

  gateway
    .command('resume')
    .description('resume a write suspended by an outage (admin/owner)')
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--key <idempotencyKey>', "the write's idempotency key")
    .option('--note <text>', 'note')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ org: Org, key: Key, note: z.string().optional() }), raw);
        const operator = await requireAdmin(ctx, o.org);
        ctx.out.print(
          await (
            await gatewayOf(ctx)
          ).resume(o.org, o.key, {
            operator,
            ...(o.note ? { note: o.note } : {}),
          }),
        );
      }),
    );

  gateway
    .command('changes')
    .description('the changes one agent instance made to the books')
    .requiredOption('--agent-instance <id>', 'agent instance id')
    .option('--org <org>', 'organization id')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({ agentInstance: z.string().min(1), org: Org.optional() }),
          raw,
        );
        // One org's changes to a member who may read it; every org's to an operator only.
        if (o.org) await authorizeCli(await ctx.db(), ctx.config(), o.org, 'read');
        else await requireOperator(ctx);
        ctx.out.print(await (await gatewayOf(ctx)).changesByAgentInstance(o.agentInstance, o.org));
      }),
    );

  gateway
    .command('trial-balance')
    .description("an org's trial balance")
    .requiredOption('--org <org>', 'organization id')
    .option('--as-of <date>', 'YYYY-MM-DD')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: Org,
            asOf: z
              .string()
              .regex(/^\d{4}-\d{2}-\d{2}$/)
              .optional(),
          }),
          raw,
        );
        await authorizeCli(await ctx.db(), ctx.config(), o.org, 'read');
        ctx.out.print(await (await gatewayOf(ctx)).trialBalance(o.org, o.asOf));
      }),
    );
}
