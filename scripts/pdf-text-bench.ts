/**
 * Throughput of the PDF text extractor over every PDF in a folder.
 *
 *   npx tsx scripts/pdf-text-bench.ts [folder] [--min-pages-per-second N]
 *
 * The folder defaults to ../shared/datasets/financebench-dev/pdfs, resolved
 * from the project root. Files run one after another, as one ingestion
 * activity does; the time counted is extraction only (not reading the file).
 * With --min-pages-per-second the exit code is 1 when the total falls short,
 * so CI can hold the line on throughput.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { extractPdfText, PdfTextError } from '../activities/documents/pdf-text';

const PROJECT_ROOT = path.resolve(__dirname, '..');
const DEFAULT_FOLDER = '../shared/datasets/financebench-dev/pdfs';

interface Args {
  folder: string;
  minPagesPerSecond: number | undefined;
}

function parseArgs(argv: string[]): Args {
  let folder: string | undefined;
  let minPagesPerSecond: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--min-pages-per-second') {
      minPagesPerSecond = Number(argv[++i]);
      if (!Number.isFinite(minPagesPerSecond))
        throw new Error('--min-pages-per-second needs a number');
    } else if (arg === '--help' || arg === '-h') {
      console.log('usage: tsx scripts/pdf-text-bench.ts [folder] [--min-pages-per-second N]');
      process.exit(0);
    } else if (folder === undefined) {
      folder = arg;
    } else {
      throw new Error(`unexpected argument: ${arg}`);
    }
  }
  return { folder: path.resolve(PROJECT_ROOT, folder ?? DEFAULT_FOLDER), minPagesPerSecond };
}

async function main(): Promise<void> {
  const { folder, minPagesPerSecond } = parseArgs(process.argv.slice(2));
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    console.log(
      `pdf-text-bench: SKIPPED, no folder at ${folder} (pass a folder of PDFs as the first argument)`,
    );
    return;
  }
  const files = readdirSync(folder)
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort();
  if (files.length === 0) {
    console.log(`pdf-text-bench: SKIPPED, no .pdf files in ${folder}`);
    return;
  }

  console.log(`pdf-text-bench: ${files.length} PDFs in ${folder}`);
  console.log(
    `${'file'.padEnd(48)} ${'pages'.padStart(6)} ${'seconds'.padStart(8)} ${'pages/s'.padStart(8)}`,
  );
  let totalPages = 0;
  let totalSeconds = 0;
  let failures = 0;
  let peakRss = process.memoryUsage().rss;
  for (const file of files) {
    const bytes = new Uint8Array(readFileSync(path.join(folder, file)));
    const started = process.hrtime.bigint();
    let pages = 0;
    let note = '';
    try {
      const result = await extractPdfText(bytes);
      pages = result.pageCount;
    } catch (err) {
      failures++;
      note =
        err instanceof PdfTextError ? `  ${err.code}: ${err.message}` : `  ERROR: ${String(err)}`;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    totalPages += pages;
    totalSeconds += seconds;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    console.log(
      `${file.padEnd(48)} ${String(pages).padStart(6)} ${seconds.toFixed(2).padStart(8)} ${rate(pages, seconds).padStart(8)}${note}`,
    );
  }

  const pagesPerSecond = totalSeconds > 0 ? totalPages / totalSeconds : 0;
  console.log(
    `${'TOTAL'.padEnd(48)} ${String(totalPages).padStart(6)} ${totalSeconds.toFixed(2).padStart(8)} ${rate(totalPages, totalSeconds).padStart(8)}`,
  );
  console.log(
    `pages: ${totalPages}  seconds: ${totalSeconds.toFixed(2)}  pages/second: ${pagesPerSecond.toFixed(1)}  ` +
      `failed files: ${failures}  peak RSS: ${(peakRss / 2 ** 20).toFixed(0)} MiB`,
  );
  if (minPagesPerSecond !== undefined && pagesPerSecond < minPagesPerSecond) {
    console.error(
      `pdf-text-bench: ${pagesPerSecond.toFixed(1)} pages/second is below the required ${minPagesPerSecond}`,
    );
    process.exitCode = 1;
  }
}

function rate(pages: number, seconds: number): string {
  return seconds > 0 ? (pages / seconds).toFixed(1) : '-';
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
