/**
 * Entry of the extraction worker thread: reads one document's pages and posts them back.
 * Runs with no database and no Temporal context; the parent thread owns the time limit.
 */
import { parentPort } from 'node:worker_threads';
import { ErrorType } from '../../workflows/errors';
import { extractPages, ExtractionRefusal } from './page-extraction';
import { extractPdfAttachments, isPdfJsException, PdfTextError } from './pdf-text';
import type { ExtractionJob, ExtractionMessage } from './isolated-extraction';

const port = parentPort;
if (!port) throw new Error('page-extraction-worker runs only as a worker thread');
const post = (m: ExtractionMessage) => port.postMessage(m);

// pdf.js rejects some internal promises that nothing awaits (a ParserEOFException while it
// parses a truncated file for its own bookkeeping). Left unhandled, Node ends this thread,
// and the parent reported whichever job was running then — often the next document — as an
// untyped failure, which ingestion retries as transient (found by test/fuzz.documents).
// Every job's answer comes from the promises it awaits, and the parent's time limit bounds a
// job that never answers, so pdf.js's stray rejections end nothing. Anything else still ends
// the thread, as before.
process.on('unhandledRejection', (reason: unknown) => {
  if (isPdfJsException(reason)) return;
  throw reason;
});

// One job at a time (the parent sends the next only after this one's answer); the thread is
// kept warm between jobs so pdf.js loads once.
port.on('message', (job: ExtractionJob) => {
  if (job.task === 'attachments') {
    readAttachments(job).then(post, (err: unknown) =>
      post(
        err instanceof PdfTextError
          ? { kind: 'pdf-error', code: err.code, message: err.message }
          : { kind: 'failed', message: err instanceof Error ? err.message : String(err) },
      ),
    );
    return;
  }
  extractPages(
    job.mimeType,
    job.bytes,
    job.fromPage,
    (done, total) => post({ kind: 'progress', done, total }),
    { maxFacts: job.maxFacts },
  ).then(
    (r) =>
      post(
        r.inlineXbrl
          ? { kind: 'done', pageCount: r.pageCount, pages: r.pages, inlineXbrl: r.inlineXbrl }
          : { kind: 'done', pageCount: r.pageCount, pages: r.pages },
      ),
    (err: unknown) =>
      post(
        err instanceof ExtractionRefusal
          ? { kind: 'refused', errorType: err.errorType, message: err.message }
          : { kind: 'failed', message: err instanceof Error ? err.message : String(err) },
      ),
  );
});

/** A PDF's embedded files; one over the size limit refuses the PDF (it is not skipped). */
async function readAttachments(job: ExtractionJob): Promise<ExtractionMessage> {
  const files = await extractPdfAttachments(job.bytes, Number.MAX_SAFE_INTEGER);
  const limit = job.maxAttachmentBytes ?? Number.MAX_SAFE_INTEGER;
  const big = files.find((f) => f.content.byteLength > limit);
  if (big)
    return {
      kind: 'refused',
      errorType: ErrorType.ExtractionLimitExceeded,
      message: `The PDF embeds ${big.filename} of ${big.content.byteLength} bytes, over the ${limit}-byte limit for an attachment; the document is refused`,
    };
  return { kind: 'attachments', files };
}
