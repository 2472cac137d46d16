/**
 * The parsed document index extract-metric.ts reads from: every page indexed once (cached by
 * identity and by content), statements continued across pages, and the fiscal-year naming
 * convention learned from the wording or from the document's own tables.
 */
import { createHash } from 'node:crypto';
import {
  indexPage,
  learnFiscalYearEnd,
  learnFiscalYearOffset,
  learnOffsetFromQuarterDates,
  type IndexedPage,
  type PageText,
} from './statement-table';
import type { DocumentIndex } from './extract-metric-schemas';

const INDEX_CACHE = new WeakMap<readonly PageText[], DocumentIndex>();
// Page stores hand out a fresh array per call, so identity alone misses; a content
// fingerprint keeps the last few documents.
const FINGERPRINT_CACHE = new Map<string, DocumentIndex>();
const FINGERPRINT_CACHE_SIZE = 8;

/**
 * A digest of every character of every page: two documents that differ in one figure (a
 * restated filing, an amendment) must never share an index, or one is answered from the other.
 */
function fingerprint(pages: readonly PageText[]): string {
  const h = createHash('sha256');
  for (const p of pages) h.update(`${p.page}\u0000${p.text.length}\u0000`).update(p.text);
  return `${pages.length}:${h.digest('hex')}`;
}

/** Parse every page once; questions about the same document reuse the index. */
export function indexDocument(pages: readonly PageText[]): DocumentIndex {
  const cached = INDEX_CACHE.get(pages);
  if (cached) return cached;
  const fp = fingerprint(pages);
  const byContent = FINGERPRINT_CACHE.get(fp);
  if (byContent) {
    INDEX_CACHE.set(pages, byContent);
    return byContent;
  }
  const indexed = pages.map(indexPage);
  carryContinuedStatements(indexed);
  const fiscalYearEndMonth = learnFiscalYearEnd(pages, indexed);
  const idx: DocumentIndex = {
    pages: indexed,
    fiscalOffset:
      learnFiscalYearOffset(pages) ??
      learnOffsetFromTables(indexed) ??
      learnOffsetFromQuarterDates(pages, fiscalYearEndMonth),
    fiscalYearEndMonth,
  };
  INDEX_CACHE.set(pages, idx);
  FINGERPRINT_CACHE.set(fp, idx);
  if (FINGERPRINT_CACHE.size > FINGERPRINT_CACHE_SIZE) {
    const oldest = FINGERPRINT_CACHE.keys().next().value;
    if (oldest !== undefined) FINGERPRINT_CACHE.delete(oldest);
  }
  return idx;
}

/**
 * A statement spilling onto the next page often repeats neither title nor column header
 * ("... (continued)"): such rows inherit the previous page's section and header.
 */
function carryContinuedStatements(pages: IndexedPage[]): void {
  for (let i = 1; i < pages.length; i++) {
    const prev = pages[i - 1]!;
    const cur = pages[i]!;
    const top = cur.lines
      .slice(0, 8)
      .map((l) => l.text.toLowerCase())
      .join(' ');
    if (!/\bcontinued\b/.test(top)) continue;
    const lastPrev = [...prev.lines]
      .reverse()
      .find((l) => l.header !== null && l.row.cells.length > 0);
    if (!lastPrev || !lastPrev.section.primary) continue;
    for (const l of cur.lines) {
      if (l.header !== null) break;
      if (l.section.kind === 'other' || l.section.kind === lastPrev.section.kind) {
        l.section = lastPrev.section;
        if (l.row.cells.length > 0) l.header = lastPrev.header;
      }
    }
    if (cur.scales.length === 0 && prev.scales.length > 0) {
      const last = prev.scales[prev.scales.length - 1]!;
      cur.scales = [{ ...last, offset: 0 }];
    }
  }
}

/**
 * When the wording never says how January year-ends are named, the document's own tables
 * usually do: MD&A tables headed "2017  2016" repeat figures that the statements head
 * "January 28, 2017  January 30, 2016". Matching the values reveals the convention.
 */
export function learnOffsetFromTables(pages: readonly IndexedPage[]): number | null {
  const byLabel = new Map<string, Map<string, Set<number>>>();
  const dated: { label: string; year: number; value: string }[] = [];
  for (const p of pages) {
    for (const l of p.lines) {
      const h = l.header;
      if (!h || l.row.cells.length !== h.columns.length || l.normLabel === '') continue;
      h.columns.forEach((c, i) => {
        const v = l.row.cells[i]!.parsed.value.replace('-', '');
        // Short figures coincide by chance; only distinctive ones vote.
        if (v.replace(/\D/g, '').length < 3) return;
        if (c.date && c.date.month <= 2)
          dated.push({ label: l.normLabel, year: c.date.year, value: v });
        else if (!c.date && (c.fiscalYear ?? c.year) !== undefined) {
          const fy = (c.fiscalYear ?? c.year)!;
          let m = byLabel.get(l.normLabel);
          if (!m) byLabel.set(l.normLabel, (m = new Map()));
          let s = m.get(v);
          if (!s) m.set(v, (s = new Set()));
          s.add(fy);
        }
      });
    }
  }
  let v0 = 0;
  let v1 = 0;
  for (const d of dated) {
    const years = byLabel.get(d.label)?.get(d.value);
    if (!years) continue;
    if (years.has(d.year)) v0++;
    if (years.has(d.year - 1)) v1++;
  }
  if (v0 >= 3 && v0 >= 4 * v1) return 0;
  if (v1 >= 3 && v1 >= 4 * v0) return 1;
  return null;
}
