import Anthropic from '@anthropic-ai/sdk';
import type { Command } from 'commander';
import { z } from 'zod';
import { loadAgentDefinitions } from '../../activities/agent-runs/agent-files';
import { measureToolContext } from '../../activities/agent-runs/model';
import { loadPriceTable } from '../../activities/agent-runs/pricing';
import { getRunRecord, listAgentRows } from '../../db/repositories/agent-runs';
import { upsertAgentIdentity } from '../../db/repositories/credentials';
import { rolesInOrg } from '../../db/repositories/organizations';
import { TOOL_NAMES } from '../../workflows/agent-runs/tools';
import { WRITE_KINDS } from '../../workflows/gateway.contract';
import { InvalidRequestError } from '../errors';
import type { Runner } from './context';
import { parseOptions } from './context';
import { costsAction } from './costs';
import { requireAdmin } from './gateway';
import { authorizeCli } from '../credentials';

/** agents list / run / costs / register: the agent runtime and agents' identities. */
export function registerAgentsCommands(program: Command, run: Runner): void {
  const agents = program.command('agents').description('the agent runtime');

  agents
    .command('list')
    .description('agents/ with mode, tier, tools, write lanes and tool-context tokens')
    .action(
      run(async (ctx) => {
        const cfg = ctx.config();
        const defs = loadAgentDefinitions();
        const prices = loadPriceTable();
        const anthropic = cfg.ANTHROPIC_API_KEY
          ? new Anthropic({ apiKey: cfg.ANTHROPIC_API_KEY, baseURL: cfg.ANTHROPIC_BASE_URL })
          : null;
        const rows = cfg.DATABASE_URL ? await listAgentRows(await ctx.db()) : [];
        const out = [];
        for (const d of defs) {
          const tokens = await measureToolContext(
            {
              prompt: d.prompt,
              allowedTools: d.config.allowed_tools,
              model: prices[d.config.model_tier].model,
            },
            anthropic,
          );
          const row = rows.find((r) => r.agentType === d.config.agent_type);
          out.push({
            agentType: d.config.agent_type,
            mode: d.config.execution_mode,
            tier: d.config.model_tier,
            maxConcurrentRuns: d.config.max_concurrent_runs,
            toolContext: tokens,
            status: row ? (row.enabled ? 'enabled' : 'disabled') : 'not synced',
            tools: d.config.allowed_tools,
            writes: d.config.allowed_workflows,
            triggers: d.config.trigger_events,
          });
        }
        const all = await measureToolContext(
          { prompt: '', allowedTools: [...TOOL_NAMES], model: prices.standard.model },
          anthropic,
        );
        ctx.out.print({ agents: out, wholeRegistryToolContext: all });
      }),
    );

  agents
    .command('run')
    .description('one run: trigger, states, progress, output, writes, model calls')
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--id <runId>', 'agent run id')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ org: z.string().min(1), id: z.string().min(1) }), raw);
        await authorizeCli(await ctx.db(), ctx.config(), o.org, 'read');
        ctx.out.print(await getRunRecord(await ctx.db(), o.org, o.id));
      }),
    );

  agents
    .command('costs')
    .description('model cost rollup (same as `costs`)')
    .requiredOption('--by <dimension>', 'run | agent | org | month')
    .option('--org <org>', 'only this org')
    .option('--month <yyyy-mm>', 'only this month')
    .action(run(costsAction));

  agents
    .command('register')
    .description("store an agent's identity and write lanes (admin/owner of ORG)")
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--agent <agentId>', 'agent id')
    .requiredOption('--operator <userId>', 'the member accountable for the agent')
    .requiredOption('--allow <kinds>', 'write kinds it may submit, comma-separated')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: z.string().min(1),
            agent: z.string().min(1).max(100),
            operator: z.string().min(1).max(128),
            allow: z.string(),
          }),
          raw,
        );
        const db = await ctx.db();
        const admin = await requireAdmin(ctx, o.org);
        const allowed = o.allow
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean);
        const unknown = allowed.filter((k) => !(WRITE_KINDS as string[]).includes(k));
        if (unknown.length > 0)
          throw new InvalidRequestError(`Unknown write kinds: ${unknown.join(', ')}`, [
            { path: 'allow', message: `known: ${WRITE_KINDS.join(', ')}` },
          ]);
        if ((await rolesInOrg(db, o.org, o.operator)).length === 0)
          throw new InvalidRequestError(`Operator ${o.operator} has no role in org ${o.org}`, [
            { path: 'operator', message: 'not a member of the org' },
          ]);
        await upsertAgentIdentity(db, {
          orgId: o.org,
          agentId: o.agent,
          operatorUserId: o.operator,
          allowedWorkflows: allowed,
          by: admin,
        });
        ctx.out.print({
          orgId: o.org,
          agentId: o.agent,
          operatorUserId: o.operator,
          allowedWorkflows: allowed,
        });
      }),
    );
}
