import { readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { readBillDocument } from '../../activities/bills/read-bill';
import { extractPdfText } from '../../activities/documents/pdf-text';

/**
 * `npm run eval -- einvoices --dataset DIR [--dataset DIR …] [--json FILE]`: every `.xml` (and Factur-X `.pdf`)
 * under DIR through the bill reader alone — no platform: parsed, validated with the official
 * rules, and judged ready or for review, with the rule ids. A file the reader cannot classify
 * (an untyped error) fails the command.
 */
export interface EInvoiceReadItem {
  file: string;
  outcome: 'ready' | 'human_review';
  syntax: string | null;
  profile: string | null;
  typeCode: string | null;
  validation: string | null;
  fatal: string[];
  outOfProfile: string[];
  reasons: string[];
  ms: number;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) return filesUnder(p);
      return /\.(xml|pdf)$/i.test(f) ? [p] : [];
    });
}

export async function readEInvoices(dirs: string[]): Promise<{
  items: EInvoiceReadItem[];
  summary: Record<string, number>;
}> {
  const items: EInvoiceReadItem[] = [];
  for (const [dir, path] of dirs.flatMap((d) => filesUnder(d).map((p) => [d, p] as const))) {
    const bytes = new Uint8Array(readFileSync(path));
    const pdf = extname(path).toLowerCase() === '.pdf';
    const t0 = performance.now();
    const ex = await readBillDocument({
      mimeType: pdf ? 'application/pdf' : 'application/xml',
      bytes,
      pages: pdf ? (await extractPdfText(bytes)).pages.map((p) => p.text) : [],
    });
    const st = ex.structured;
    items.push({
      file: `${dir.split(/[\\/]/).pop()}/${path.slice(dir.length + 1)}`,
      outcome: ex.outcome,
      syntax: st?.invoice.syntax ?? null,
      profile: st?.invoice.profile ?? null,
      typeCode: st?.invoice.typeCode ?? null,
      validation: st?.validation.status ?? null,
      fatal: st?.validation.fatal.map((f) => f.id) ?? [],
      outOfProfile: st?.validation.outOfProfile.map((f) => f.id) ?? [],
      reasons: ex.reasons,
      ms: Math.round(performance.now() - t0),
    });
  }
  const count = (p: (i: EInvoiceReadItem) => boolean) => items.filter(p).length;
  return {
    items,
    summary: {
      files: items.length,
      parsed: count((i) => i.syntax !== null),
      valid: count((i) => i.validation === 'valid'),
      invalid: count((i) => i.validation === 'invalid'),
      ready: count((i) => i.outcome === 'ready'),
      review: count((i) => i.outcome === 'human_review'),
      reviewWithRuleIds: count((i) => i.outcome === 'human_review' && i.fatal.length > 0),
    },
  };
}
