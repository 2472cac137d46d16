import { copyFileSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { DEFAULT_SRC, parseInvoiceXml, realize } from './render-invoices';

/**
 * An unseen set of PDF/A-3-style invoices: each PDF of a rendered set (render-invoices.ts)
 * gets the XML it was drawn from attached as `factur-x.xml`, with the same realistic names and
 * number the page shows (the renderer replaces the samples' placeholders), so the page and the
 * XML describe one invoice as a real Factur-X / ZUGFeRD file does. Trap variants are left out:
 * their page was made to differ from any XML. PDFs that already carry an XML are copied as
 * they are.
 *
 *   npx tsx scripts/eval/attach-invoices.ts --rendered /tmp/rendered-invoices --out /tmp/attached-invoices
 */
const FOLDERS = ['en16931-cii', 'en16931-ubl', 'xrechnung', 'peppol'];
/** File names lose spaces and punctuation in the rendered set: compare stems without them. */
const stemKey = (s: string) => s.replace(/[^A-Za-z0-9.-]+/g, '_');
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function sourcesByStem(src: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const folder of FOLDERS) {
    let files: string[] = [];
    try {
      files = readdirSync(join(src, folder)).filter((f) => f.endsWith('.xml'));
    } catch {
      continue;
    }
    for (const f of files) out.set(stemKey(basename(f, '.xml')), join(src, folder, f));
  }
  return out;
}

export async function attachSet(rendered: string, out: string, src = DEFAULT_SRC) {
  const expected = JSON.parse(readFileSync(join(rendered, 'expected.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
  const sources = sourcesByStem(src);
  mkdirSync(out, { recursive: true });
  const kept: typeof expected = {};
  let attached = 0;
  let copied = 0;
  for (const [file, gold] of Object.entries(expected)) {
    if (/-trap-/.test(file)) continue;
    const stem = file.split('--')[0]!;
    const path = sources.get(stemKey(stem));
    const bytes = readFileSync(join(rendered, file));
    if (!path) {
      // Not drawn from a sample XML (the real Factur-X PDF): as it is.
      copyFileSync(join(rendered, file), join(out, file));
      kept[file] = gold;
      copied++;
      continue;
    }
    const xmlText = readFileSync(path, 'utf8');
    const original = parseInvoiceXml(xmlText, path);
    if (!original) continue;
    const real = realize(original);
    let xml = xmlText;
    const swap = (from: string | null, to: string | null) => {
      if (from && to && from !== to) xml = xml.split(esc(from)).join(esc(to));
    };
    swap(original.seller.name, real.seller.name);
    swap(original.buyer.name, real.buyer.name);
    swap(original.number, real.number);
    const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
    await pdf.attach(Buffer.from(xml, 'utf8'), 'factur-x.xml', {
      mimeType: 'text/xml',
      description: 'Factur-X/ZUGFeRD invoice',
    });
    writeFileSync(join(out, file), await pdf.save({ useObjectStreams: false }));
    kept[file] = gold;
    attached++;
  }
  writeFileSync(join(out, 'expected.json'), JSON.stringify(kept, null, 2) + '\n');
  return { files: Object.keys(kept).length, attached, copied };
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      rendered: { type: 'string', default: '/tmp/rendered-invoices' },
      out: { type: 'string', default: '/tmp/attached-invoices' },
      src: { type: 'string', default: DEFAULT_SRC },
    },
  });
  void attachSet(resolve(values.rendered), resolve(values.out), resolve(values.src)).then((r) =>
    console.log(JSON.stringify(r)),
  );
}
