/**
 * Real Factur-X PDFs in the set: the XML embedded in a PDF (`embeddedFiles`), and the real
 * PDFs copied as they are with their gold read from that XML (`addRealPdfs`).
 */

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  PDFHexString,
  decodePDFRawStream,
} from 'pdf-lib';
import { parseInvoiceXml } from './gold';
import { stem } from './layout';

/** The XML files embedded in a PDF (a Factur-X / ZUGFeRD attachment), by name. */
export async function embeddedFiles(bytes: Uint8Array): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
  const names = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const files = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const list = files?.lookupMaybe(PDFName.of('Names'), PDFArray);
  if (!list) return out;
  for (let i = 0; i + 1 < list.size(); i += 2) {
    const key = list.lookup(i);
    const name =
      key instanceof PDFString || key instanceof PDFHexString ? key.decodeText() : `file${i}`;
    const spec = list.lookupMaybe(i + 1, PDFDict);
    const stream = spec?.lookupMaybe(PDFName.of('EF'), PDFDict)?.lookup(PDFName.of('F'));
    if (stream instanceof PDFRawStream) out.set(name, decodePDFRawStream(stream).decode());
  }
  return out;
}

/**
 * Real Factur-X PDFs under `<src>/facturx-pdf`, copied as they are ("real--<name>.pdf") with
 * their gold from the XML attached to each: the visible text of a real invoice, same scorer.
 */
export async function addRealPdfs(
  src: string,
  out: string,
  expected: Record<string, Record<string, string>>,
): Promise<number> {
  let dir: string[];
  try {
    dir = readdirSync(join(src, 'facturx-pdf')).filter((f) => f.toLowerCase().endsWith('.pdf'));
  } catch {
    return 0;
  }
  let n = 0;
  for (const f of dir.sort()) {
    const bytes = readFileSync(join(src, 'facturx-pdf', f));
    const xml = [...(await embeddedFiles(bytes)).entries()].find(([k]) => /\.xml$/i.test(k));
    const g = xml
      ? parseInvoiceXml(Buffer.from(xml[1]).toString('utf8'), `facturx-pdf/${f}`)
      : null;
    if (!g) continue;
    const name = `real--${stem(basename(f, '.pdf'))}.pdf`;
    writeFileSync(join(out, name), bytes);
    const d = (c: bigint) =>
      `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${((c < 0n ? -c : c) % 100n).toString().padStart(2, '0')}`;
    expected[name] = {
      issuer: g.seller.name,
      invoice_number: g.number,
      date: g.issueDate,
      currency: g.currency,
      amount: d(g.gross),
      amount_untaxed: d(g.net),
      amount_tax: d(g.tax),
      source: g.source,
      layout: 'real',
    };
    n++;
  }
  return n;
}
