import type { Db } from '../../db/connection';
import { loadPages } from '../../db/repositories/documents';

/**
 * Page texts of ingested documents, cached per worker process: pages never change after
 * ingestion, and extraction reads every page of a filing for each question.
 */
export class PageStore {
  private readonly cache = new Map<string, Promise<{ page: number; text: string }[]>>();
  constructor(
    private readonly db: Db,
    private readonly maxDocuments = 32,
  ) {}

  /** Document ids are per org: the cache key is the (org, document) pair. */
  pages(orgId: string, documentId: string): Promise<{ page: number; text: string }[]> {
    const key = JSON.stringify([orgId, documentId]);
    let hit = this.cache.get(key);
    if (!hit) {
      hit = loadPages(this.db, orgId, documentId);
      hit.catch(() => this.cache.delete(key));
      this.cache.set(key, hit);
      if (this.cache.size > this.maxDocuments) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
    }
    return hit;
  }
}
