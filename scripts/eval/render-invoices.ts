/**
 * An unseen set for the visible-text bill reader: invoice PDFs rendered from the structured
 * sample e-invoices (EN 16931 CII / UBL, XRechnung, PEPPOL), so the XML is the gold. Each XML
 * is drawn in several layouts and languages (de, fr, en, nl, es, it) with the labels, number
 * and date formats real invoices print; the choice per file is seeded by its name and variant,
 * never by anything the reader does. A few variants are traps that must not post.
 *
 *   npx tsx scripts/eval/render-invoices.ts [--src DIR] [--out DIR] [--variants N (3)] [--seed S]
 *
 * Writes `<out>/*.pdf` and `<out>/expected.json` (file → gold fields, as loadDataset reads).
 * The output never goes into the repository: generated PDFs are rebuilt from the XMLs.
 *
 * This file is the command; the pieces live under render-invoices/: gold.ts (the XML → gold),
 * seeded.ts, formats.ts, languages.ts, variant.ts, layout.ts (the page model), draw.ts (the
 * PDF), realize.ts (placeholders), real-pdfs.ts and render-set.ts (the whole set).
 */
import { resolve } from 'node:path';
import { renderSet } from './render-invoices/render-set';

export type { Gold, Party } from './render-invoices/gold';
export { cents, parseInvoiceXml } from './render-invoices/gold';
export { rng } from './render-invoices/seeded';
export type { Lang } from './render-invoices/languages';
export { LANGS, formatDate } from './render-invoices/languages';
export type { CurrencyStyle, DateStyle, NumberStyle } from './render-invoices/formats';
export { formatMoney, formatNumber } from './render-invoices/formats';
export type { Layout, Trap, Variant } from './render-invoices/variant';
export { LAYOUTS, chooseVariant } from './render-invoices/variant';
export type { RenderedInvoice } from './render-invoices/layout';
export { layoutInvoice } from './render-invoices/layout';
export { renderPdf } from './render-invoices/draw';
export { realize } from './render-invoices/realize';
export { embeddedFiles } from './render-invoices/real-pdfs';
export { loadGolds, renderSet } from './render-invoices/render-set';

export const DEFAULT_SRC = resolve(__dirname, '../../../shared/datasets/einvoices');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (require.main === module) {
  const src = arg('src') ?? DEFAULT_SRC;
  const out = resolve(arg('out') ?? '/tmp/rendered-invoices');
  const repo = resolve(__dirname, '../..');
  if (out === repo || out.startsWith(`${repo}/`)) {
    console.error(`--out ${out} is inside the repository; rendered PDFs stay outside it`);
    process.exit(2);
  }
  renderSet(src, out, Number(arg('variants') ?? 3), arg('seed') ?? '')
    .then((r) =>
      console.log(
        `${r.files} PDFs (${r.golds} invoices rendered, ${r.traps} traps, ${r.real} real Factur-X) in ${out}`,
      ),
    )
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
