import type { Command } from 'commander';
import { z } from 'zod';
import { authenticateCli, personOf } from '../credentials';
import type { Runner } from './context';
import { RequestsClient, cliAnswer } from '../requests-client';
import { parseOptions, type CliContext } from './context';
import { rolesInOrg } from '../../db/repositories/organizations';
import { requestsOfOrg } from '../../db/repositories/requests';
import { InvalidRequestError } from '../errors';

/** The key holder's requests client: the same validation and forwarding as the API's. */
async function requestsFor(
  ctx: CliContext,
  orgId: string,
): Promise<{ requests: RequestsClient; user: string }> {
  const db = await ctx.db();
  const user = personOf(await authenticateCli(db, ctx.config(), orgId));
  const requests = new RequestsClient(await ctx.temporal(), db, {
    taskQueue: ctx.config().TEMPORAL_TASK_QUEUE,
  });
  return { requests, user };
}

/**
 * inbox / decide: a reviewer at a terminal. One list of the key holder's open items (agent
 * requests, gateway approvals, analysis reviews); a decision goes through the same Update as
 * the API and the /inbox page.
 */
export function registerRequestsCommands(program: Command, run: Runner): void {
  program
    .command('inbox')
    .description("the key holder's open requests, approvals and reviews, by due date")
    .requiredOption('--org <org>', 'organization id')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(z.object({ org: z.string().min(1) }), raw);
        const { requests, user } = await requestsFor(ctx, o.org);
        ctx.out.print(await requests.listInbox({ orgId: o.org, userId: user }));
      }),
    );
  program
    .command('requests')
    .description('requests of an org (members only)')
    .command('list')
    .description("an org's open requests — every assignee's — oldest due first (--all: any state)")
    .requiredOption('--org <org>', 'organization id')
    .option('--all', 'every request, not only open ones')
    .option('--limit <n>', 'at most this many', '200')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: z.string().min(1),
            all: z.boolean().optional(),
            limit: z.coerce.number().int().min(1).max(10_000),
          }),
          raw,
        );
        const db = await ctx.db();
        const user = personOf(await authenticateCli(db, ctx.config(), o.org));
        if ((await rolesInOrg(db, o.org, user)).length === 0)
          throw new InvalidRequestError(`You have no role in org ${o.org}`, [
            { path: 'org', message: 'not a member' },
          ]);
        const rows = await requestsOfOrg(db, o.org, { all: o.all, limit: o.limit });
        ctx.out.print(
          rows.map((r) => ({
            id: r.id,
            type: r.type,
            status: r.status,
            title: r.title,
            assignee: r.assigneeUserId,
            route: r.route,
            dueAt: r.dueAt,
            createdByRunId: r.createdByRunId,
          })),
        );
      }),
    );
  program
    .command('decide')
    .description('answer one inbox item: a decision, a structured answer (JSON) or free text')
    .argument('<requestId>', 'the inbox item')
    .requiredOption('--org <org>', 'organization id')
    .option('--decision <decision>', 'approve | reject')
    .option('--note <text>', 'a note with the decision')
    .option('--revision <n>', 'an approval: the plan revision you reviewed (gateway show)')
    .option('--plan-hash <hash>', 'an approval: the plan hash you reviewed (gateway show)')
    .option('--answer <json>', 'a structured answer filling the request form')
    .option('--text <text>', 'a free-text answer, read strictly into the form')
    .action(
      run(async (ctx, requestId: string, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: z.string().min(1),
            decision: z.enum(['approve', 'reject']).optional(),
            note: z.string().max(10_000).optional(),
            revision: z.coerce.number().int().min(0).optional(),
            planHash: z.string().max(128).optional(),
            answer: z.string().max(100_000).optional(),
            text: z.string().max(10_000).optional(),
          }),
          raw,
        );
        const { requests, user } = await requestsFor(ctx, o.org);
        ctx.out.print(await requests.answerRequest(cliAnswer(requestId, o.org, user, o)));
      }),
    );
}
