import type { Db } from '../../../db/connection';
import {
  getFilingFactSet,
  queryFilingFacts,
  type StoredFact,
} from '../../../db/repositories/filing-facts';
import { type DeiSummary } from '../../../workflows/inline-fact';
import { PART_AXES } from './segment-member';

/** A filing's company-total facts and dei summary, as the fact path reads them. */
export interface FilingFacts {
  dei: DeiSummary;
  facts: StoredFact[];
  /** Numeric facts of parts of the company: a member on a product, segment or region axis. */
  partFacts: StoredFact[];
}

/** Company-total facts of one filing (real 10-Ks carry a few thousand), and as many dimensional ones. */
const MAX_FACTS = 10_000;

/**
 * The facts of ingested filings, cached per worker process like their pages: facts never
 * change after ingestion. Undefined for a document without inline XBRL facts (a PDF, a plain
 * HTML page, or a filing ingested as text only).
 */
export class FactStore {
  private readonly cache = new Map<string, Promise<FilingFacts | undefined>>();
  constructor(
    private readonly db: Db,
    private readonly maxDocuments = 32,
  ) {}

  facts(orgId: string, documentId: string): Promise<FilingFacts | undefined> {
    const key = JSON.stringify([orgId, documentId]);
    let hit = this.cache.get(key);
    if (!hit) {
      hit = this.load(orgId, documentId);
      hit.catch(() => this.cache.delete(key));
      this.cache.set(key, hit);
      if (this.cache.size > this.maxDocuments) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
    }
    return hit;
  }

  private async load(orgId: string, documentId: string): Promise<FilingFacts | undefined> {
    const set = await getFilingFactSet(this.db, orgId, documentId);
    if (!set || set.status !== 'facts') return undefined;
    const facts = await queryFilingFacts(this.db, orgId, documentId, {
      dimensions: 'none',
      limit: MAX_FACTS,
    });
    const dimensional = await queryFilingFacts(this.db, orgId, documentId, {
      dimensions: 'any',
      limit: MAX_FACTS + facts.length,
    });
    const partFacts = dimensional.filter(
      (f) => f.numeric && f.dimensions.some((d) => PART_AXES.has(d.dimension)),
    );
    return { dei: set.dei, facts, partFacts };
  }
}
