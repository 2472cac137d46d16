import type { Command } from 'commander';
import { z } from 'zod';
import { costRollup } from '../../db/repositories/agent-runs';
import { microToUsd4 } from '../../workflows/agent-runs/config';
import type { Runner } from './context';
import { type CliContext, parseOptions } from './context';
import { requireOperator } from './operator';

const CostsOptions = z.object({
  by: z.enum(['run', 'agent', 'org', 'month']),
  org: z.string().min(1).optional(),
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/, 'YYYY-MM')
    .optional(),
});

/** Model calls recorded by the runtime, summed per run, agent, org or month, in USD. */
export async function costsAction(ctx: CliContext, raw: unknown): Promise<void> {
  const o = parseOptions(CostsOptions, raw);
  await requireOperator(ctx, o.org);
  const rows = await costRollup(await ctx.db(), o.by, { orgId: o.org, month: o.month });
  ctx.out.print(
    rows.map((r) => ({
      [o.by]: r.key,
      calls: r.calls,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      cacheCreationTokens: r.cacheCreationTokens,
      cacheReadTokens: r.cacheReadTokens,
      costMicroUsd: String(r.costMicroUsd),
      costUsd: microToUsd4(r.costMicroUsd),
    })),
  );
}

export function registerCostsCommand(program: Command, run: Runner): void {
  program
    .command('costs')
    .description('model costs per agent, org, month or run')
    .option('--by <dimension>', 'agent | org | month | run', 'agent')
    .option('--org <org>', 'only this org')
    .option('--month <yyyy-mm>', 'only this month')
    .action(run(costsAction));
}
