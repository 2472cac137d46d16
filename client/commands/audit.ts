import type { Command } from 'commander';
import { z } from 'zod';
import { auditHead, auditedOrgs, verifyAuditChain } from '../../db/repositories/audit';
import type { Runner } from '../program';
import { parseOptions } from './context';

/** audit verify / head: the hash-chained audit log, read from the database only. */
export function registerAuditCommands(program: Command, run: Runner): void {
  const audit = program.command('audit').description('the hash-chained audit log');
  audit
    .command('verify')
    .description(
      'verify the audit chain (every org when --org is omitted; exit code 3 when broken)',
    )
    .option('--org <org>', 'organization id')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ org: z.string().min(1).optional() }), raw);
        const db = await ctx.db();
        const orgs = o.org ? [o.org] : await auditedOrgs(db);
        const results = [];
        for (const org of orgs) results.push(await verifyAuditChain(db, org));
        ctx.out.print(results);
        const broken = results.filter((r) => !r.ok);
        for (const r of broken)
          console.error(
            `audit chain of ${r.orgId} is broken: ${r.firstBreak?.kind} — ${r.firstBreak?.detail}`,
          );
        if (broken.length > 0) process.exitCode = 3;
      }),
    );
  audit
    .command('head')
    .description('the chain head, to anchor outside the database')
    .requiredOption('--org <org>', 'organization id')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ org: z.string().min(1) }), raw);
        ctx.out.print(await auditHead(await ctx.db(), o.org));
      }),
    );
}
