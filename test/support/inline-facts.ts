import { parseInlineXbrl } from '../../activities/documents/inline-xbrl';
import type { StoredFact } from '../../db/repositories/filing-facts';
import { type DeiSummary, type InlineFact } from '../../workflows/inline-fact';

/** A parsed fact as the filing-facts repository returns it. */
export function storedFact(f: InlineFact): StoredFact {
  return {
    factId: f.id,
    concept: f.concept,
    conceptNs: f.conceptNs,
    numeric: f.numeric,
    value: f.value,
    unit: f.unit,
    decimals: f.decimals,
    period:
      f.period.type === 'instant'
        ? { type: 'instant', start: null, end: f.period.instant }
        : f.period.type === 'duration'
          ? { type: 'duration', start: f.period.start, end: f.period.end }
          : { type: 'forever', start: null, end: null },
    dimensions: f.dimensions,
    displayedText: f.displayedText,
    hidden: f.hidden,
    location: f.location,
    duplicateIds: f.duplicateIds,
    contextId: f.contextId,
    unitId: f.unitId,
    scale: f.scale,
    sign: f.sign,
    format: f.format,
  };
}

/** An inline XBRL filing as the fact path reads it: pages, company totals, parts, dei. */
export function filingOf(html: string): {
  pages: { page: number; text: string }[];
  facts: StoredFact[];
  partFacts: StoredFact[];
  dei: DeiSummary;
} {
  const r = parseInlineXbrl(html);
  if (r.status !== 'facts') throw new Error(`fixture has no facts: ${r.status}`);
  const all = r.facts.map(storedFact);
  return {
    pages: r.pages.map((text, page) => ({ page, text })),
    facts: all.filter((f) => f.dimensions.length === 0),
    partFacts: all.filter((f) => f.dimensions.length > 0),
    dei: r.dei,
  };
}
