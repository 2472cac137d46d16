import type { Db } from '../../db/connection';
import { PageStore } from './page-store';
import { createBookkeepingActivities } from './bookkeeping';
import { createRetrieveContext } from './retrieve-context';
import { createExtractMetric } from './extract-metric';
import { createCompareFrameworks } from './compare-frameworks';
import { createFlagDisclosure } from './flag-disclosure';
import { createGenerateSummary } from './generate-summary';
import { createValidateCitation } from './validate-citation';
import type { LlmExtractor } from './llm-extraction';
import { FactStore } from './facts/fact-store';

export interface AnalysisDeps {
  db: Db;
  /** Hybrid extraction; null runs code-only (no API key). */
  llm: LlmExtractor | null;
  /**
   * Answer from filings' inline XBRL facts when they have them (default). Off, extract_metric
   * reads the text alone: the eval's --no-ixbrl measures that path on the same filings.
   */
  inlineXbrlFacts?: boolean;
}

/**
 * The analysis activities over injected dependencies. Tool activities carry their registry
 * names so the Web UI shows retrieve_context, extract_metric, … in each run's history.
 */
export function createAnalysisActivities({ db, llm, inlineXbrlFacts = true }: AnalysisDeps) {
  const pages = new PageStore(db);
  return {
    ...createBookkeepingActivities(db),
    retrieve_context: createRetrieveContext(db),
    extract_metric: createExtractMetric(pages, llm, inlineXbrlFacts ? new FactStore(db) : null),
    compare_frameworks: createCompareFrameworks(),
    flag_disclosure: createFlagDisclosure(pages),
    generate_summary: createGenerateSummary(pages),
    validate_citation: createValidateCitation(db),
  };
}
