import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { AnalysisClient } from '../analysis-client';
import type { AnalysisRequestInput } from '../../workflows/analysis.contract';
import { authenticateCli, authorizeCli, personOf } from '../credentials';
import { MIME_BY_EXT, ingestFile } from '../documents';
import { InvalidRequestError } from '../errors';
import type { Runner } from './context';
import { parseOptions } from './context';
import { progressBar } from './progress';

const Org = z.string().min(1);
const collect = (v: string, prev: string[] = []) => [...prev, v];

/** ingest, analyze, state, result, review: a document's way to a countersigned answer. */
export function registerAnalysisCommands(program: Command, run: Runner): void {
  program
    .command('ingest')
    .description('ingest a document (PDF, HTML, text) into an org')
    .requiredOption('--org <org>', 'organization id')
    .requiredOption(
      '--file <paths...>',
      'the document(s): files, or folders whose PDF/HTML/text files are all ingested',
    )
    .option('--id <docId>', 'document id (one file only; derived from the content when omitted)')
    .option('--type <docType>', 'document type, e.g. 10-K')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: Org,
            file: z.array(z.string().min(1)).min(1),
            id: z.string().optional(),
            type: z.string().optional(),
          }),
          raw,
        );
        const files = o.file.flatMap((p) =>
          statSync(p).isDirectory()
            ? readdirSync(p)
                .filter((f) => MIME_BY_EXT[extname(f).toLowerCase()] !== undefined)
                .sort()
                .map((f) => join(p, f))
            : [p],
        );
        if (o.id !== undefined && files.length !== 1)
          throw new InvalidRequestError('--id names one document: give exactly one file', [
            { path: 'id', message: 'one file only' },
          ]);
        const cfg = ctx.config();
        await authorizeCli(await ctx.db(), cfg, o.org, 'ingest_document');
        const deps = {
          db: await ctx.db(),
          client: await ctx.temporal(),
          taskQueue: cfg.TEMPORAL_TASK_QUEUE,
        };
        const bar = progressBar({ enabled: !ctx.out.json, total: files.length, label: 'ingest' });
        const results = [];
        try {
          for (const path of files) {
            const r = await ingestFile(deps, { orgId: o.org, path, id: o.id, docType: o.type });
            results.push({ ...r.ingestion, created: r.created });
            bar.tick(basename(path));
          }
        } finally {
          bar.stop();
        }
        ctx.out.print(results.length === 1 ? results[0] : results);
      }),
    );

  program
    .command('analyze')
    .description('start an analysis and wait until it settles (delivered, in review, refused)')
    .option('--org <org>', 'organization id')
    .option('--request <id>', 'request id (the idempotency key of the analysis)')
    .option('--docs <ids>', 'document ids, comma-separated')
    .option('--type <queryType>', 'query type, e.g. extract_metric')
    .option('--query <text>', 'the question')
    .option('--framework <name>', 'e.g. basel_iii')
    .option('--metric <m>', 'constraint: metric')
    .option('--period <p>', 'constraint: period, e.g. FY2024')
    .option('--from-file <path>', 'a full request as JSON instead of the flags')
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: Org.optional(),
            request: z.string().min(1).optional(),
            docs: z.string().min(1).optional(),
            type: z.string().min(1).optional(),
            query: z.string().min(1).optional(),
            framework: z.string().optional(),
            metric: z.string().optional(),
            period: z.string().optional(),
            fromFile: z.string().optional(),
          }),
          raw,
        );
        const req = o.fromFile
          ? // validated by AnalysisClient.start against the request schema
            (JSON.parse(readFileSync(o.fromFile, 'utf8')) as AnalysisRequestInput)
          : {
              requestId: parseOptions(z.string({ error: '--request is required' }), o.request),
              orgId: parseOptions(z.string({ error: '--org is required' }), o.org),
              docIds: parseOptions(z.string({ error: '--docs is required' }), o.docs).split(','),
              queryType: parseOptions(
                z.string({ error: '--type is required' }),
                o.type,
              ) as AnalysisRequestInput['queryType'],
              queryText: parseOptions(z.string({ error: '--query is required' }), o.query),
              ...(o.framework ? { framework: o.framework } : {}),
              constraints: {
                ...(o.metric ? { metric: o.metric } : {}),
                ...(o.period ? { period: o.period } : {}),
              },
              requestedBy: 'cli',
            };
        const holder = await authorizeCli(
          await ctx.db(),
          ctx.config(),
          parseOptions(z.string({ error: '--org is required' }), req.orgId),
          'start_analysis',
        );
        // The request is the key holder's (the reviewer of its answer must be someone else).
        req.requestedBy =
          holder.kind === 'user' ? `user:${holder.userId}` : `agent:${holder.agentId}`;
        const analysis = new AnalysisClient(await ctx.temporal(), ctx.config().TEMPORAL_TASK_QUEUE);
        const started = await analysis.start(req);
        const view = await analysis.settle(req.orgId, req.requestId);
        ctx.out.print({
          ...started,
          status: view.status,
          machineState: view.machineState,
          reasons: view.validation?.reasons ?? [],
          answer: view.result?.answer ?? view.proposedAnswer,
        });
      }),
    );

  for (const [name, what] of [
    ['state', 'the state of an analysis (machine state, validation, proposed answer)'],
    ['result', 'the result of a finished analysis'],
  ] as const)
    program
      .command(name)
      .description(what)
      .requiredOption('--org <org>', 'organization id')
      .requiredOption('--request <id>', 'request id')
      .action(
        run(async (ctx, raw: unknown) => {
          const o = parseOptions(z.object({ org: Org, request: z.string().min(1) }), raw);
          await authorizeCli(await ctx.db(), ctx.config(), o.org, 'read');
          const analysis = new AnalysisClient(
            await ctx.temporal(),
            ctx.config().TEMPORAL_TASK_QUEUE,
          );
          ctx.out.print(
            name === 'state'
              ? await analysis.state(o.org, o.request)
              : await analysis.result(o.org, o.request),
          );
        }),
      );

  program
    .command('review')
    .description("decide an analysis in human review, as the key's holder")
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--request <id>', 'request id')
    .requiredOption('--decision <d>', 'approve | reject | correct')
    .option('--note <text>', 'reviewer note')
    .option('--correct <claim=value>', 'a corrected claim value (repeatable)', collect)
    .action(
      run(async (ctx, raw: unknown) => {
        const o = parseOptions(
          z.object({
            org: Org,
            request: z.string().min(1),
            decision: z.enum(['approve', 'reject', 'correct']),
            note: z.string().optional(),
            correct: z
              .array(z.string().regex(/^[^=]+=-?\d+(\.\d+)?$/, 'CLAIM_ID=VALUE'))
              .optional(),
          }),
          raw,
        );
        const user = personOf(await authenticateCli(await ctx.db(), ctx.config(), o.org));
        const corrections = (o.correct ?? []).map((c) => {
          const [claimId = '', value = ''] = c.split('=');
          return { claimId, value };
        });
        const analysis = new AnalysisClient(await ctx.temporal(), ctx.config().TEMPORAL_TASK_QUEUE);
        ctx.out.print(
          await analysis.review(o.org, o.request, {
            decision: o.decision,
            reviewer: { userId: user, orgId: o.org },
            note: o.note,
            corrections,
          }),
        );
      }),
    );
}
