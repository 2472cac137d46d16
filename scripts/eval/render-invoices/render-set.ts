/**
 * A whole set: every usable invoice under the source folders (`loadGolds`), each drawn in its
 * variants and traps to `<out>/*.pdf` with `<out>/expected.json` (`renderSet`).
 */

import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderPdf } from './draw';
import { parseInvoiceXml, type Gold } from './gold';
import { layoutInvoice } from './layout';
import { addRealPdfs } from './real-pdfs';
import { realize } from './realize';
import { chooseVariant, type Trap, type Variant } from './variant';

const FOLDERS = ['en16931-cii', 'en16931-ubl', 'xrechnung', 'peppol'];

/** Every usable invoice under the source folders, one per (number, issue date, gross). */
export function loadGolds(src: string): Gold[] {
  const seen = new Set<string>();
  const out: Gold[] = [];
  for (const folder of FOLDERS) {
    let files: string[];
    try {
      files = readdirSync(join(src, folder))
        .filter((f) => f.endsWith('.xml'))
        .sort();
    } catch {
      continue;
    }
    for (const f of files) {
      const g = parseInvoiceXml(readFileSync(join(src, folder, f), 'utf8'), `${folder}/${f}`);
      if (!g) continue;
      // XRechnung ships most examples in both syntaxes: one invoice, rendered once.
      const key = `${g.number}|${g.issueDate}|${g.gross}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(realize(g));
    }
  }
  return out;
}

export async function renderSet(
  src: string,
  out: string,
  variants = 3,
  /** Mixed into every variant's seed: another seed draws another unseen set from the XMLs. */
  seed = '',
): Promise<{ files: number; golds: number; traps: number; real: number }> {
  const golds = loadGolds(src);
  mkdirSync(out, { recursive: true });
  const expected: Record<string, Record<string, string>> = {};
  let traps = 0;
  for (const [gi, g] of golds.entries()) {
    const plans: Variant[] = [];
    const key = seed ? `${seed}:${g.source}` : g.source;
    for (let i = 0; i < variants; i++) plans.push({ ...chooseVariant(key, i), seed });
    // Every fifth invoice also gets a trap variant (rotating the kind).
    if (gi % 5 === 3) {
      const kinds: Trap[] = ['arithmetic', 'two-numbers', 'no-total', 'credit-note'];
      plans.push({ ...chooseVariant(key, variants, kinds[traps % kinds.length]!), seed });
      traps++;
    }
    for (const v of plans) {
      const inv = layoutInvoice(g, v);
      writeFileSync(join(out, inv.name), await renderPdf(inv));
      expected[inv.name] = inv.expected;
    }
  }
  const real = await addRealPdfs(src, out, expected);
  writeFileSync(join(out, 'expected.json'), JSON.stringify(expected, null, 2) + '\n');
  return { files: Object.keys(expected).length, golds: golds.length, traps, real };
}
