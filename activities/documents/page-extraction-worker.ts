/**
 * Entry of the extraction worker thread: reads one document's pages and posts them back.
 * Runs with no database and no Temporal context; the parent thread owns the time limit.
 */
import { parentPort } from 'node:worker_threads';
import { extractPages, ExtractionRefusal } from './page-extraction';
import type { ExtractionJob, ExtractionMessage } from './isolated-extraction';

const port = parentPort;
if (!port) throw new Error('page-extraction-worker runs only as a worker thread');
const post = (m: ExtractionMessage) => port.postMessage(m);

// One job at a time (the parent sends the next only after this one's answer); the thread is
// kept warm between jobs so pdf.js loads once.
port.on('message', (job: ExtractionJob) => {
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
