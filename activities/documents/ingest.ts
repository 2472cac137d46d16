import { heartbeat, log, Context } from '@temporalio/activity';
import type { Db } from '../../db/connection';
import {
  discardPages,
  getDocument,
  getDocumentBytes,
  setDocumentStatus,
  storePages,
  storedPageCount,
  type PageWithChunks,
} from '../../db/repositories/documents';
import { discardFilingFacts, replaceFilingFacts } from '../../db/repositories/filing-facts';
import { ErrorType, permanentFailure } from '../../workflows/errors';
import type { IngestInput, IngestResult } from '../../workflows/ingestion.contract';
import { chunkPage } from './chunking';
import { extractPagesIsolated, type ExtractionLimits } from './isolated-extraction';
import { ExtractionRefusal } from './page-extraction';

const BATCH_PAGES = 25;
/** The activity heartbeats this often while the extraction thread works (heartbeat timeout 60 s). */
const EXTRACT_HEARTBEAT_MS = 5_000;

export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  timeLimitMs: 180_000,
  maxMemoryMb: 2048,
};

/**
 * Ingests one stored document into pages and chunks. Idempotent per document (its id is
 * bound to the content hash): a ready document is left alone, a retry resumes after the last
 * stored page, and a permanent failure removes whatever was written and records why.
 */
export function createDocumentActivities(
  db: Db,
  limits: ExtractionLimits = DEFAULT_EXTRACTION_LIMITS,
) {
  return {
    async ingestDocument({ orgId, documentId }: IngestInput): Promise<IngestResult> {
      const doc = await getDocument(db, orgId, documentId);
      if (!doc)
        throw permanentFailure(
          ErrorType.UnknownDocument,
          `Unknown document ${documentId} in org ${orgId}`,
        );
      if (doc.status === 'ready') {
        return {
          documentId,
          status: 'ready',
          pageCount: doc.pageCount ?? 0,
          pagesIngested: 0,
          seconds: 0,
          resumedFrom: doc.pageCount ?? 0,
        };
      }
      const bytes = await getDocumentBytes(db, orgId, documentId);
      if (!bytes)
        throw permanentFailure(
          ErrorType.UnknownDocument,
          `No stored file for document ${documentId}`,
        );
      const resumedFrom = await storedPageCount(db, orgId, documentId);
      await setDocumentStatus(db, orgId, documentId, { status: 'ingesting', error: null });
      const started = Date.now();
      try {
        // Off this thread and bounded: the heartbeat goes on whatever the file does.
        let progress = { done: resumedFrom, total: doc.pageCount ?? 0 };
        const beat = setInterval(
          () => heartbeat({ phase: 'extract', ...progress }),
          EXTRACT_HEARTBEAT_MS,
        );
        const { pageCount, pages, inlineXbrl } = await extractPagesIsolated(
          { mimeType: doc.mimeType, bytes: new Uint8Array(bytes), fromPage: resumedFrom },
          limits,
          {
            onProgress: (done, total) => {
              progress = { done, total };
              heartbeat({ phase: 'extract', done, total });
            },
            signal: Context.current().cancellationSignal,
          },
        )
          .catch((err: unknown) => {
            if (err instanceof ExtractionRefusal)
              throw permanentFailure(err.errorType, err.message);
            throw err;
          })
          .finally(() => clearInterval(beat));
        for (let i = 0; i < pages.length; i += BATCH_PAGES) {
          const batch: PageWithChunks[] = pages
            .slice(i, i + BATCH_PAGES)
            .map((p) => ({ ...p, chunks: chunkPage(p.text) }));
          await storePages(db, orgId, documentId, batch);
          heartbeat({
            phase: 'store',
            done: Math.min(i + BATCH_PAGES, pages.length) + resumedFrom,
            total: pageCount,
          });
          if (Context.current().cancellationSignal.aborted) throw new Error('ingestion cancelled');
        }
        let seconds = 0;
        const markReady = (tx: Db) => {
          seconds = (Date.now() - started) / 1000;
          return setDocumentStatus(tx, orgId, documentId, {
            status: 'ready',
            pageCount,
            pagesDone: pageCount,
            ingestedAt: new Date(),
            ingestMs: Math.round(seconds * 1000),
          });
        };
        // A filing's facts (or why it is text only) replace any earlier attempt's, and the
        // document turns ready, in one transaction: a ready filing has its whole fact set, and
        // a retry after a crash writes the same set again, never a second one.
        if (inlineXbrl)
          await replaceFilingFacts(
            db,
            orgId,
            documentId,
            inlineXbrl.status === 'facts'
              ? { ...inlineXbrl, reason: null }
              : {
                  status: 'text-only',
                  reason: inlineXbrl.reason,
                  factElements: inlineXbrl.factElements,
                  facts: [],
                  refused: [],
                  dei: {},
                  issues: [],
                },
            markReady,
          );
        else await markReady(db);
        log.info('document ingested', {
          documentId,
          pageCount,
          seconds,
          facts: inlineXbrl?.status === 'facts' ? inlineXbrl.facts.length : undefined,
          factsReason: inlineXbrl?.status === 'text-only' ? inlineXbrl.reason : undefined,
        });
        return {
          documentId,
          status: 'ready',
          pageCount,
          pagesIngested: pages.length,
          seconds,
          resumedFrom,
        };
      } catch (err) {
        const permanent =
          err instanceof Error &&
          'nonRetryable' in err &&
          (err as { nonRetryable?: boolean }).nonRetryable;
        if (permanent) {
          await discardFilingFacts(db, orgId, documentId);
          await discardPages(db, orgId, documentId);
          await setDocumentStatus(db, orgId, documentId, {
            status: 'failed',
            error: (err as Error).message,
          });
        }
        throw err;
      }
    },
  };
}
