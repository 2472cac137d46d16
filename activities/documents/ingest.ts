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
import { ErrorType, permanentFailure } from '../../workflows/errors';
import type { IngestInput, IngestResult } from '../../workflows/ingestion.contract';
import { extractPdfText, PdfTextError } from './pdf-text';
import { htmlToPages } from './html-text';
import { textToPages } from './text-pages';
import { chunkPage } from './chunking';
import { MAX_DOCUMENT_BYTES } from '../../workflows/input-bounds';

const PDF_ERROR_TYPES = {
  EMPTY: ErrorType.EmptyDocument,
  CORRUPT: ErrorType.CorruptDocument,
  PASSWORD_PROTECTED: ErrorType.PasswordProtected,
  NO_TEXT_LAYER: ErrorType.NoTextLayer,
} as const;

const BATCH_PAGES = 25;

async function pagesOf(
  mimeType: string,
  bytes: Buffer,
  fromPage: number,
  onProgress: (done: number, total: number) => void,
): Promise<{ pageCount: number; pages: { page: number; text: string }[] }> {
  if (bytes.byteLength === 0) throw permanentFailure(ErrorType.EmptyDocument, 'The file is empty');
  // A document stored by another path than ingestFile is bounded here too: never retried.
  if (bytes.byteLength > MAX_DOCUMENT_BYTES)
    throw permanentFailure(
      ErrorType.UnsupportedDocument,
      `The file is ${bytes.byteLength} bytes; documents are at most ${MAX_DOCUMENT_BYTES} bytes`,
    );
  if (mimeType === 'application/pdf') {
    try {
      return await extractPdfText(new Uint8Array(bytes), { fromPage, onProgress });
    } catch (err) {
      if (err instanceof PdfTextError)
        throw permanentFailure(PDF_ERROR_TYPES[err.code], err.message);
      throw err;
    }
  }
  const text = bytes.toString('utf8');
  if (text.includes('\u0000'))
    throw permanentFailure(ErrorType.CorruptDocument, `Binary content in a ${mimeType} file`);
  const all = mimeType === 'text/html' ? htmlToPages(text) : textToPages(text);
  if (all.every((p) => p.trim() === ''))
    throw permanentFailure(ErrorType.EmptyDocument, 'The document has no text');
  const pages = all.map((t, page) => ({ page, text: t })).filter((p) => p.page >= fromPage);
  onProgress(all.length, all.length);
  return { pageCount: all.length, pages };
}

/**
 * Ingests one stored document into pages and chunks. Idempotent per document (its id is
 * bound to the content hash): a ready document is left alone, a retry resumes after the last
 * stored page, and a permanent failure removes whatever was written and records why.
 */
export function createDocumentActivities(db: Db) {
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
        const { pageCount, pages } = await pagesOf(
          doc.mimeType,
          bytes,
          resumedFrom,
          (done, total) => heartbeat({ phase: 'extract', done, total }),
        );
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
        const seconds = (Date.now() - started) / 1000;
        await setDocumentStatus(db, orgId, documentId, {
          status: 'ready',
          pageCount,
          pagesDone: pageCount,
          ingestedAt: new Date(),
          ingestMs: Math.round(seconds * 1000),
        });
        log.info('document ingested', { documentId, pageCount, seconds });
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
