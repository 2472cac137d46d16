import type { Db } from '../../db/connection';
import { loadPage } from '../../db/repositories/documents';
import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../workflows/analysis/tool-registry';
import { textContainsNumber } from './number-match';
import { factCitationProblem, type FactLoader } from './facts/fact-citation';
import { getFilingFact } from '../../db/repositories/filing-facts';

/**
 * validate_citation: for each printed claim, the cited span must be the stored page text at
 * those offsets (in the request's org) and must contain the number as printed. A fact
 * citation must in addition name a stored fact of that document, printed inside the span,
 * with the claim's value (facts/fact-citation.ts).
 */
export function createValidateCitation(db: Db) {
  return validateCitations({
    loadPage: (orgId, docId, page) => loadPage(db, orgId, docId, page),
    loadFact: (orgId, docId, factId) => getFilingFact(db, orgId, docId, factId),
  });
}

/** The stored page texts and facts validate_citation reads (the database; fakes in tests). */
export interface CitationSources {
  loadPage(orgId: string, docId: string, page: number): Promise<string | undefined>;
  loadFact: FactLoader;
}

export function validateCitations(sources: CitationSources) {
  const loadFact = sources.loadFact;
  return async function validate_citation(
    raw: ToolInput<'validate_citation'>,
  ): Promise<ToolOutput<'validate_citation'>> {
    const input = TOOL_SCHEMAS.validate_citation.input.parse(raw);
    const pageCache = new Map<string, string | undefined>();
    const pageText = async (docId: string, page: number) => {
      const key = `${docId}:${page}`;
      if (!pageCache.has(key)) pageCache.set(key, await sources.loadPage(input.orgId, docId, page));
      return pageCache.get(key);
    };
    const results: ToolOutput<'validate_citation'>['results'] = [];
    for (const claim of input.claims) {
      if (claim.derived) continue;
      const printed = claim.printed ?? claim.value;
      let ok = false;
      let reason: string | null = claim.citations.length === 0 ? 'no citation' : null;
      for (const c of claim.citations) {
        const text = await pageText(c.docId, c.page);
        if (text === undefined) {
          reason = `cited page ${c.docId} p.${c.page} does not exist in this org`;
          continue;
        }
        if (text.slice(c.charStart, c.charEnd) !== c.quote) {
          reason = `quote does not match ${c.docId} p.${c.page} at ${c.charStart}-${c.charEnd}`;
          continue;
        }
        const negative = claim.value.startsWith('-');
        if (!textContainsNumber(c.quote, printed, { negative })) {
          reason = negative
            ? `cited text on ${c.docId} p.${c.page} does not print ${printed} as a negative figure`
            : `cited text on ${c.docId} p.${c.page} does not contain ${printed}`;
          continue;
        }
        if (c.fact) {
          const problem = await factCitationProblem(loadFact, input.orgId, claim, c);
          if (problem) {
            reason = problem;
            continue;
          }
        }
        ok = true;
        reason = null;
        break;
      }
      results.push({ claimId: claim.id, ok, reason });
    }
    return { results };
  };
}
