import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { connectClient } from '../client/temporal-connection';
import { createWorker } from '../worker';
import { bringUpPlatform } from './lib/platform';
import { runFinanceBench, type EvalMetrics } from './eval/financebench';
import { runInvoicesEval } from './eval/invoices';
import { ensureBillRules } from './lib/en16931-rules';
import { decisionSecret } from '../activities/identity/decision-secret';
import { progressBar, type Progress } from '../client/commands/progress';

/**
 * `npm run eval -- financebench --dataset DIR [--documents-dir DIR] --json FILE [--limit N] [--no-ixbrl]`: runs
 * the dataset (its filings from `DIR/pdfs`, or from --documents-dir)
 * through the real workflow on the platform's embedded defaults (or DATABASE_URL /
 * TEMPORAL_ADDRESS), prints the metrics and writes them with one item per question.
 */
const Args = z.object({
  dataset: z.string().min(1),
  documentsDir: z.string().min(1).optional(),
  json: z.string().min(1).optional(),
  limit: z.coerce.number().int().positive().optional(),
  org: z
    .string()
    .regex(/^[A-Za-z0-9._-]+$/)
    .optional(),
});

const pct = (v: number | null) => (v === null ? '   n/a' : `${(100 * v).toFixed(1).padStart(5)}%`);
function row(name: string, m: EvalMetrics): string {
  return `${name.padEnd(20)}${String(m.questions).padStart(4)}  ${pct(m.completion)}  ${pct(m.automation)}  ${pct(m.deliveredAccuracy)}  ${pct(m.hallucinationRate)}  ${pct(m.citationAccuracy)}  ${String(m.latencyMs.p50).padStart(6)}  ${String(m.latencyMs.p95).padStart(6)}`;
}

/**
 * `npm run eval -- invoices --dataset DIR [--json FILE] [--limit N]`: every bill of the folder
 * through the bill processor and the gateway (scripts/eval/invoices.ts documents the flow).
 */
async function invoices(rest: string[]): Promise<void> {
  const { values } = parseArgs({
    args: rest,
    options: {
      dataset: { type: 'string' },
      json: { type: 'string' },
      limit: { type: 'string' },
      'ignore-attachments': { type: 'boolean' },
    },
    strict: true,
  });
  const args = Args.pick({ dataset: true, json: true, limit: true }).parse({
    dataset: values.dataset,
    json: values.json,
    limit: values.limit,
  });
  const ignoreAttachments = values['ignore-attachments'] === true;
  // The official rules the bill processor validates with: installed here on a checkout that
  // has none yet (without them every structured invoice would go to review).
  ensureBillRules();
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const platform = await bringUpPlatform({ poolSize: 6 });
  const client = await connectClient(platform.cfg, platform.database.db);
  const taskQueue = `eval-${Date.now()}`;
  const { worker, connection } = await createWorker({
    cfg: platform.cfg,
    database: platform.database,
    taskQueue,
  });
  const running = worker.run();
  try {
    let bar: Progress | undefined;
    const report = await runInvoicesEval({
      db: platform.database.db,
      client,
      taskQueue,
      decisionSecret: platform.cfg.DECISION_SIGNING_SECRET ?? decisionSecret(platform.cfg),
      datasetDir: resolve(args.dataset),
      // A fresh org per file and per run: vendors never carry over between files.
      orgPrefix: `invoices-${Date.now().toString(36)}`,
      limit: args.limit,
      ignoreAttachments,
      onProgress: (done, total, file) => {
        bar ??= progressBar({ enabled: true, total, label: 'invoices' });
        bar.update(done, file);
      },
    });
    bar?.stop();
    for (const i of report.items)
      console.log(
        `${i.file.padEnd(34)} ${i.outcome.padEnd(12)} ${(i.source ?? '-').padEnd(4)} ${i.structured ? `${i.structured.validation.status}/${i.structured.crossCheck.status} ` : ''}${i.wrongPosted ? 'WRONG ' : ''}${FIELDS_LINE(i.correct)}  ${i.outcome === 'posted' ? '' : i.reasons.join('; ').slice(0, 160)}`,
      );
    const s = report.summary;
    const bySource = (src: string) => report.items.filter((i) => (i.source ?? '-') === src).length;
    console.log(
      `\nfiles ${s.files}, posted ${s.posted}, human review ${s.humanReview}, straight-through ${(100 * s.straightThroughRate).toFixed(1)}%, wrong posted ${s.wrongPosted}; read from xml ${bySource('xml')}, text ${bySource('text')}${ignoreAttachments ? ' (attachments ignored)' : ''}`,
    );
    console.log(
      `field accuracy: ${Object.entries(s.fieldAccuracy)
        .map(([k, v]) => `${k} ${v === null ? 'n/a' : `${(100 * v).toFixed(1)}%`}`)
        .join(', ')}`,
    );
    if (args.json) {
      mkdirSync(dirname(args.json), { recursive: true });
      writeFileSync(args.json, JSON.stringify(report, null, 2));
      console.log(`wrote ${args.json}`);
    }
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await client.connection.close();
    await platform.stop();
  }
}
const FIELDS_LINE = (c: Record<string, boolean | undefined>) =>
  Object.entries(c)
    .map(([k, v]) => `${k}:${v ? 'ok' : 'x'}`)
    .join(' ');

async function main(argv: string[]): Promise<void> {
  const [suite, ...rest] = argv;
  if (suite === 'einvoices') {
    // Every structured invoice of a folder through the bill reader alone (no platform).
    const { readEInvoices } = await import('./eval/einvoices-read');
    const { values } = parseArgs({
      args: rest,
      options: { dataset: { type: 'string', multiple: true }, json: { type: 'string' } },
      strict: true,
    });
    if (!values.dataset?.length)
      throw new Error(
        'usage: npm run eval -- einvoices --dataset DIR [--dataset DIR …] [--json FILE]',
      );
    ensureBillRules();
    const r = await readEInvoices(values.dataset.map((d) => resolve(d)));
    for (const i of r.items)
      console.log(
        `${i.file.padEnd(48)} ${i.outcome.padEnd(12)} ${(i.syntax ?? '-').padEnd(14)} ${(i.profile ?? '-').padEnd(9)} ${i.typeCode ?? '-'} ${i.validation ?? '-'} ${String(i.ms).padStart(4)} ms ${i.outcome === 'ready' ? '' : i.reasons.join('; ').slice(0, 140)}`,
      );
    console.log(JSON.stringify(r.summary));
    if (values.json) {
      mkdirSync(dirname(values.json), { recursive: true });
      writeFileSync(values.json, JSON.stringify(r, null, 2));
    }
    return;
  }
  if (suite === 'en16931-units') {
    // The official rules' unit test sets through the bill processor's validator.
    const { runEn16931UnitSets } = await import('./eval/en16931-units');
    const dir = resolve(rest[rest.indexOf('--dataset') + 1] ?? '');
    if (!rest.includes('--dataset'))
      throw new Error('usage: npm run eval -- en16931-units --dataset DIR');
    const r = runEn16931UnitSets(dir);
    for (const f of r.failures)
      console.log(
        `${f.file}: expected ${f.expected.join(', ')}; found ${f.found.join(', ') || 'nothing'}`,
      );
    console.log(
      `${r.files} test sets, ${r.tests} tests: ${r.asExpected} as expected, ${r.failures.length} not (${r.ms} ms)`,
    );
    if (r.failures.length) process.exitCode = 1;
    return;
  }
  if (suite === 'bank-lines') {
    const { bankLinesMain } = await import('./eval/bank-lines');
    return bankLinesMain(rest);
  }
  if (suite === 'invoices') return invoices(rest);
  if (suite !== 'financebench')
    throw new Error(
      'usage: npm run eval -- financebench --dataset DIR [--documents-dir DIR] [--json FILE] [--limit N] [--no-ixbrl]\n       npm run eval -- invoices --dataset DIR [--json FILE] [--limit N] [--ignore-attachments]\n       npm run eval -- bank-lines --dataset DIR [--json FILE]',
    );
  const { values } = parseArgs({
    args: rest,
    options: {
      dataset: { type: 'string' },
      'documents-dir': { type: 'string' },
      json: { type: 'string' },
      limit: { type: 'string' },
      org: { type: 'string' },
      'no-ixbrl': { type: 'boolean' },
    },
    strict: true,
  });
  const { 'no-ixbrl': noIxbrl, ...rest2 } = values;
  const args = Args.parse({ ...rest2, documentsDir: values['documents-dir'] });
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const platform = await bringUpPlatform({ poolSize: 6 });
  const client = await connectClient(platform.cfg, platform.database.db);
  const taskQueue = `eval-${Date.now()}`;
  const { worker, connection } = await createWorker({
    // --no-ixbrl: this run's worker (its own task queue) answers from the text alone; the
    // filings are ingested with their facts as always, which are then not read.
    cfg: noIxbrl ? { ...platform.cfg, ANALYSIS_IGNORE_INLINE_XBRL: true } : platform.cfg,
    database: platform.database,
    taskQueue,
  });
  const running = worker.run();
  // One org per dataset: a re-run reuses its ingested filings (and their measured ingestion).
  const orgId = args.org ?? 'financebench';
  try {
    let bar: Progress | undefined;
    let barPhase = '';
    const report = await runFinanceBench({
      datasetDir: resolve(args.dataset),
      documentsDir: args.documentsDir === undefined ? undefined : resolve(args.documentsDir),
      db: platform.database.db,
      client,
      taskQueue,
      orgId,
      limit: args.limit,
      onProgress: (done, total, phase) => {
        // Two phases (ingest, then questions), each with its own total: one bar per phase.
        const name = phase.startsWith('ingest') ? 'ingest' : 'questions';
        if (name !== barPhase) {
          bar?.stop();
          bar = progressBar({ enabled: true, total, label: name });
          barPhase = name;
        }
        bar?.update(done, phase);
      },
    });
    bar?.stop();
    console.log(
      `\n${'question_type'.padEnd(20)}   n  complete  automate  accuracy  halluc.  citation   p50ms   p95ms`,
    );
    for (const [t, m] of Object.entries(report.byQuestionType)) console.log(row(t, m));
    console.log(row('overall', report));
    console.log(
      `\npages ingested ${report.pagesIngested}, ${report.pagesPerSecond === null ? 'n/a' : report.pagesPerSecond.toFixed(1)} pages/s; delivered ${report.delivered}, wrong ${report.wrong}`,
    );
    console.log('\nconfidence bucket     delivered  correct  accuracy');
    for (const b of report.calibration)
      console.log(
        `[${b.from.toFixed(2)}, ${b.to.toFixed(2)}${b.to === 1 ? ']' : ')'}`.padEnd(20) +
          `${String(b.delivered).padStart(10)}${String(b.correct).padStart(9)}  ${pct(b.accuracy)}`,
      );
    const read = report.items.filter((i) => i.readings);
    console.log(
      `readings${noIxbrl ? ' (--no-ixbrl: facts not read)' : ''}: ${read.filter((i) => i.readings?.used === 'facts').length} answered from facts (${read.filter((i) => i.readings?.agreed === true).length} with fact and printed table agreeing, ${read.filter((i) => i.readings?.agreed === false).length} disagreeing), ${read.filter((i) => i.readings?.used === 'text').length} left to the text path`,
    );
    const mismatched = report.items.filter((i) => i.formCheck?.status === 'mismatch');
    console.log(`form check: ${mismatched.length} sent to review by the answer-form contract`);
    for (const i of mismatched) console.log(`  ${i.id}: ${i.formCheck?.reasons.join('; ')}`);
    if (args.json) {
      mkdirSync(dirname(args.json), { recursive: true });
      writeFileSync(args.json, JSON.stringify(report, null, 2));
      console.log(`wrote ${args.json}`);
    }
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await client.connection.close();
    await platform.stop();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
