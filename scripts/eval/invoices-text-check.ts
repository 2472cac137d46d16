import { readFileSync, writeFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { extractBill } from '../../activities/bills/extract-bill';
import { extractPages } from '../../activities/documents/page-extraction';
import {
  FIELDS,
  loadDataset,
  scoreItem,
  summarize,
  type EvalItem,
  type Field,
} from './invoices-scoring';

/**
 * The visible-text bill reader alone, fast and pure (no Temporal, no PostgreSQL): every bill of
 * a dataset folder read into pages by the same extraction ingestion uses (page-extraction.ts),
 * then extractBill, scored by the invoices eval's own scorer with `ready` counted as posted.
 *
 *   npx tsx scripts/eval/invoices-text-check.ts --dataset DIR [--json FILE] [--verbose]
 *
 * Prints straightThroughRate, wrongPosted, fieldAccuracy, the top refusal reasons, and (beyond
 * the eval's wrongPosted, which looks at total and number only) posted bills with any field
 * wrong. `--verbose` lists every file with its outcome and first reason.
 */
export async function pagesOfFile(path: string): Promise<string[]> {
  const bytes = new Uint8Array(readFileSync(path));
  const mime = extname(path).toLowerCase() === '.pdf' ? 'application/pdf' : 'text/plain';
  const { pages } = await extractPages(mime, bytes, 0, () => undefined);
  return pages.map((p) => p.text);
}

export async function checkDataset(dir: string): Promise<EvalItem[]> {
  const items: EvalItem[] = [];
  for (const f of loadDataset(dir)) {
    const started = Date.now();
    let item: EvalItem;
    try {
      const ex = extractBill(await pagesOfFile(f.path));
      const extracted: Record<Field, string | null> = {
        issuer: ex.issuer,
        invoice_number: ex.invoiceNumber,
        date: ex.issueDate,
        currency: ex.currency,
        amount: ex.amount,
        amount_untaxed: ex.amountUntaxed,
        amount_tax: ex.amountTax,
      };
      item = scoreItem(
        f,
        ex.outcome === 'ready' ? 'posted' : 'human_review',
        extracted,
        ex.reasons,
        [],
        Date.now() - started,
      );
    } catch (err) {
      const none = Object.fromEntries(FIELDS.map((k) => [k, null])) as Record<Field, string | null>;
      item = scoreItem(
        f,
        'human_review',
        none,
        [`unreadable: ${String(err)}`],
        [],
        Date.now() - started,
      );
    }
    items.push(item);
  }
  return items;
}

/** A reason without its values ("currency_known: no currency is printed"). */
const reasonKind = (r: string) =>
  r
    .replace(
      /: (several candidates|several totals disagree|undecided|ambiguous|no printed).*/,
      ': $1',
    )
    .replace(/"[^"]*"/g, '"…"')
    .replace(/\d[\d.,/ -]*/g, 'N')
    .slice(0, 90);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const dir = resolve(arg('dataset') ?? '/tmp/rendered-invoices');
  const items = await checkDataset(dir);
  const summary = summarize(items);
  const anyFieldWrong = items.filter(
    (i) => i.outcome === 'posted' && Object.values(i.correct).some((ok) => ok === false),
  );
  const reasons = new Map<string, number>();
  for (const i of items)
    if (i.outcome !== 'posted')
      for (const r of new Set(i.reasons.map(reasonKind))) reasons.set(r, (reasons.get(r) ?? 0) + 1);
  const top = [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
  if (process.argv.includes('--verbose'))
    for (const i of items)
      console.log(
        `${i.outcome === 'posted' ? (i.wrongPosted ? 'WRONG ' : 'posted') : 'review'}  ${i.file}  ${i.reasons[0] ?? ''}`,
      );
  console.log(
    JSON.stringify(
      {
        dataset: dir,
        files: summary.files,
        posted: summary.posted,
        straightThroughRate: summary.straightThroughRate,
        wrongPosted: summary.wrongPosted,
        postedWithAnyFieldWrong: anyFieldWrong.map((i) => ({
          file: i.file,
          wrong: Object.entries(i.correct)
            .filter(([, ok]) => !ok)
            .map(([k]) => `${k}=${i.extracted[k as Field]}`),
        })),
        fieldAccuracy: summary.fieldAccuracy,
        expectedOutcomeMatches: summary.expectedOutcomeMatches,
        topRefusals: top.map(([reason, n]) => ({ n, reason })),
      },
      null,
      2,
    ),
  );
  const json = arg('json');
  if (json) writeFileSync(json, JSON.stringify({ summary, items }, null, 2));
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
