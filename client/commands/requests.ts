import type { Command } from 'commander';
import { z } from 'zod';
import { authenticateCli, personOf } from '../credentials';
import type { Runner } from '../program';
import { RequestsClient, cliAnswer } from '../requests-client';
import { parseOptions, type CliContext } from './context';

/** The key holder's requests client: the same validation and forwarding as the API's. */
async function requestsFor(ctx: CliContext): Promise<{ requests: RequestsClient; user: string }> {
  const db = await ctx.db();
  const user = personOf(await authenticateCli(db, ctx.config()));
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
        const { requests, user } = await requestsFor(ctx);
        ctx.out.print(await requests.listInbox({ orgId: o.org, userId: user }));
      }),
    );
  program
    .command('decide')
    .description('answer one inbox item: a decision, a structured answer (JSON) or free text')
    .argument('<requestId>', 'the inbox item')
    .requiredOption('--org <org>', 'organization id')
    .option('--decision <decision>', 'approve | reject')
    .option('--note <text>', 'a note with the decision')
    .option('--answer <json>', 'a structured answer filling the request form')
    .option('--text <text>', 'a free-text answer, read strictly into the form')
    .action(
      run(async (ctx, requestId: string, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: z.string().min(1),
            decision: z.enum(['approve', 'reject']).optional(),
            note: z.string().max(10_000).optional(),
            answer: z.string().max(100_000).optional(),
            text: z.string().max(10_000).optional(),
          }),
          raw,
        );
        const { requests, user } = await requestsFor(ctx);
        ctx.out.print(await requests.answerRequest(cliAnswer(requestId, o.org, user, o)));
      }),
    );
}
