import type { Command } from 'commander';
import { z } from 'zod';
import { getDocument } from '../../db/repositories/documents';
import {
  FactPeriodQuery,
  getFilingFactSet,
  queryFilingFacts,
} from '../../db/repositories/filing-facts';
import { InvalidRequestError } from '../errors';
import type { Runner } from './context';
import { type CliContext, parseOptions } from './context';
import { authorizeCli } from '../credentials';

const FactsOptions = z.object({
  org: z.string().min(1),
  doc: z.string().min(1),
  concept: z.string().min(1).optional(),
  period: FactPeriodQuery.optional(),
  /** `--dimensions` lists every context, not only company totals. */
  dimensions: z.boolean().optional(),
  limit: z.coerce.number().int().min(1).max(10_000).optional(),
});

/**
 * A filing's inline XBRL facts from the database: the dei summary and the facts matching
 * --concept / --period (company totals unless --dimensions), each with its value, unit,
 * period and where its displayed text is in the page text.
 */
export async function factsAction(ctx: CliContext, raw: unknown): Promise<void> {
  const o = parseOptions(FactsOptions, raw);
  const db = await ctx.db();
  await authorizeCli(db, ctx.config(), o.org, 'read');
  const doc = await getDocument(db, o.org, o.doc);
  if (!doc)
    throw new InvalidRequestError(`No document ${o.doc} in org ${o.org}`, [
      { path: 'doc', message: 'unknown document' },
    ]);
  const set = await getFilingFactSet(db, o.org, o.doc);
  if (!set) {
    ctx.out.print({
      document: o.doc,
      status: doc.status,
      facts: [],
      note: 'no inline XBRL facts stored for this document',
    });
    return;
  }
  const facts = await queryFilingFacts(db, o.org, o.doc, {
    concept: o.concept,
    period: o.period,
    dimensions: o.dimensions ? 'any' : 'none',
    limit: o.limit ?? 200,
  });
  ctx.out.print({
    document: o.doc,
    factSet: {
      status: set.status,
      reason: set.reason,
      factCount: set.factCount,
      refusedCount: set.refusedCount,
    },
    dei: set.dei,
    facts: facts.map((f) => ({
      factId: f.factId,
      concept: f.concept,
      value: f.value,
      unit: f.unit,
      decimals: f.decimals,
      period:
        f.period.type === 'duration'
          ? `${f.period.start}..${f.period.end}`
          : (f.period.end ?? 'forever'),
      dimensions: f.dimensions,
      displayed:
        f.displayedText.length > 120 ? `${f.displayedText.slice(0, 117)}…` : f.displayedText,
      location: f.location,
    })),
  });
}

export function registerFactsCommand(program: Command, run: Runner): void {
  program
    .command('facts')
    .description("a filing's inline XBRL facts (company totals unless --dimensions)")
    .requiredOption('--org <org>', 'organization id')
    .requiredOption('--doc <doc>', 'document id')
    .option('--concept <concept>', 'us-gaap:Revenues, or a local name such as Revenues')
    .option('--period <period>', 'yyyy-mm-dd (instant or end), start..end, or yyyy')
    .option('--dimensions', 'include facts with dimensions (segments, classes …)')
    .option('--limit <n>', 'at most this many facts (default 200)')
    .action(run(factsAction));
}
