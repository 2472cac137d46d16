import { AsyncResource } from 'node:async_hooks';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { ErrorType } from '../../workflows/errors';
import { ExtractionRefusal, type ExtractedPages, type InlineXbrlExtract } from './page-extraction';
import { PdfTextError, type PdfAttachment, type PdfErrorCode } from './pdf-text';

export interface ExtractionJob {
  /** Pages (the default) or a PDF's embedded files (Factur-X / ZUGFeRD / XRechnung XML). */
  task?: 'pages' | 'attachments';
  mimeType: string;
  bytes: Uint8Array;
  fromPage: number;
  /** Inline XBRL facts read at most (see ExtractionLimits.maxFacts). */
  maxFacts?: number;
  /** For `attachments`: the largest embedded file accepted; a larger one refuses the PDF. */
  maxAttachmentBytes?: number;
}

export type ExtractionMessage =
  | { kind: 'progress'; done: number; total: number }
  | {
      kind: 'done';
      pageCount: number;
      pages: { page: number; text: string }[];
      inlineXbrl?: InlineXbrlExtract;
    }
  | { kind: 'attachments'; files: PdfAttachment[] }
  | { kind: 'refused'; errorType: ErrorType; message: string }
  /** A PDF that does not open (the same typed PdfTextError as in the caller's thread). */
  | { kind: 'pdf-error'; code: PdfErrorCode; message: string }
  | { kind: 'failed'; message: string };

export interface ExtractionLimits {
  /** Wall time for the whole extraction; past it the thread is terminated and the file refused. */
  timeLimitMs: number;
  /** The thread's V8 heap; a file that needs more is refused. */
  maxMemoryMb: number;
  /** Inline XBRL facts read per HTML filing; past it the filing is text only, with the reason. */
  maxFacts?: number;
}

/** Under tsx or ts-jest the sources are .ts: the thread registers tsx before loading its entry. */
function startWorker(limits: ExtractionLimits): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: limits.maxMemoryMb };
  if (__filename.endsWith('.ts')) {
    const entry = join(__dirname, 'page-extraction-worker.ts');
    const tsx = require.resolve('tsx/cjs');
    return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(entry)});`, {
      eval: true,
      resourceLimits,
    });
  }
  return new Worker(join(__dirname, 'page-extraction-worker.js'), { resourceLimits });
}

/**
 * Idle threads kept warm (a thread starts in ~100 ms and pdf.js loads once per thread): a
 * thread that finished its job cleanly is reused; one that ran past a limit, failed or was
 * cancelled is terminated. Enough are kept for a burst of uploads side by side (a batch of
 * bills: with 2 kept, 8 concurrent ingestions started a thread for most documents, 13.4
 * documents/s; with 8, 23.4/s), and an idle thread ends after IDLE_TTL_MS, so a quiet worker
 * holds none (each idle thread is ~16 MB).
 */
export const MAX_IDLE_THREADS = 8;
export const IDLE_TTL_MS = 60_000;
const idle: { worker: Worker; memoryMb: number; expiry: NodeJS.Timeout }[] = [];

/** Threads idle in the pool now (for tests and the bench). */
export const idleThreads = () => idle.length;

function acquire(limits: ExtractionLimits): Worker {
  const i = idle.findIndex((w) => w.memoryMb === limits.maxMemoryMb);
  if (i >= 0) {
    const [{ worker, expiry }] = idle.splice(i, 1) as [(typeof idle)[number]];
    clearTimeout(expiry);
    worker.ref();
    return worker;
  }
  return startWorker(limits);
}

function release(worker: Worker, limits: ExtractionLimits): void {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  if (idle.length >= MAX_IDLE_THREADS) {
    void worker.terminate();
    return;
  }
  const leave = () => {
    const at = idle.indexOf(entry);
    if (at >= 0) idle.splice(at, 1);
  };
  const expiry = setTimeout(() => {
    leave();
    void worker.terminate();
  }, IDLE_TTL_MS);
  expiry.unref();
  const entry = { worker, memoryMb: limits.maxMemoryMb, expiry };
  // An idle thread that dies (out of memory later, killed) just leaves the pool.
  worker.once('exit', () => {
    clearTimeout(expiry);
    leave();
  });
  worker.unref(); // never keeps the process alive
  idle.push(entry);
}

/**
 * Extracts a document's pages on a worker thread, so a hostile file (a PDF whose forms nest
 * into billions of text operations, a parser pathology) never blocks the activity's thread:
 * heartbeats and other activities go on, and past `timeLimitMs` or `maxMemoryMb` the thread is
 * terminated and the document refused with `ExtractionLimitExceeded`. Nothing is stored until
 * the whole extraction has returned.
 */
export function extractPagesIsolated(
  job: ExtractionJob,
  limits: ExtractionLimits,
  hooks: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<ExtractedPages> {
  return runIsolated(
    limits.maxFacts === undefined ? job : { ...job, maxFacts: limits.maxFacts },
    limits,
    'Text extraction',
    (m) =>
      m.kind !== 'done'
        ? undefined
        : m.inlineXbrl
          ? { pageCount: m.pageCount, pages: m.pages, inlineXbrl: m.inlineXbrl }
          : { pageCount: m.pageCount, pages: m.pages },
    hooks,
  );
}

/**
 * The files a PDF embeds (a PDF/A-3 invoice's XML), read on a worker thread under the same
 * kind of limits as its pages: a PDF whose attachment tree or streams are hostile is refused
 * with `ExtractionLimitExceeded` past `timeLimitMs` or `maxMemoryMb`, and so is one embedding a
 * file over `maxAttachmentBytes` — never half-read. A PDF that does not open is the usual
 * PdfTextError.
 */
export function extractAttachmentsIsolated(
  bytes: Uint8Array,
  limits: ExtractionLimits & { maxAttachmentBytes: number },
): Promise<PdfAttachment[]> {
  return runIsolated(
    {
      task: 'attachments',
      mimeType: 'application/pdf',
      bytes,
      fromPage: 0,
      maxAttachmentBytes: limits.maxAttachmentBytes,
    },
    limits,
    'Reading the PDF attachments',
    (m) => (m.kind === 'attachments' ? m.files : undefined),
  );
}

/** One job on a pooled thread: its answer (`accept`), a typed refusal, or the thread ended. */
function runIsolated<T>(
  job: ExtractionJob,
  limits: ExtractionLimits,
  what: string,
  accept: (m: ExtractionMessage) => T | undefined,
  hooks: { onProgress?: (done: number, total: number) => void; signal?: AbortSignal } = {},
): Promise<T> {
  // A pooled thread's messages arrive in the async context of whoever started the thread, not
  // of this caller: bound here, the caller's progress callback (an activity's heartbeat) runs
  // in its own activity's context — not in an earlier, finished one's, or in none, which threw.
  const onProgress = hooks.onProgress ? AsyncResource.bind(hooks.onProgress) : undefined;
  return new Promise<T>((resolve, reject) => {
    const worker = acquire(limits);
    let settled = false;
    const finish = (fn: () => void, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      hooks.signal?.removeEventListener('abort', onAbort);
      if (reusable) release(worker, limits);
      else void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ExtractionRefusal(
              ErrorType.ExtractionLimitExceeded,
              `${what} did not finish within ${limits.timeLimitMs} ms; the document is refused and nothing was stored`,
            ),
          ),
        ),
      limits.timeLimitMs,
    );
    const onAbort = () => finish(() => reject(new Error('extraction cancelled')));
    hooks.signal?.addEventListener('abort', onAbort);
    worker.on('message', (m: ExtractionMessage) => {
      if (m.kind === 'progress') {
        onProgress?.(m.done, m.total);
        return;
      }
      const answer = accept(m);
      if (answer !== undefined) finish(() => resolve(answer), true);
      else if (m.kind === 'refused')
        finish(() => reject(new ExtractionRefusal(m.errorType, m.message)), true);
      else if (m.kind === 'pdf-error')
        finish(() => reject(new PdfTextError(m.code, m.message)), true);
      else
        finish(() =>
          reject(new Error(`${what} failed: ${m.kind === 'failed' ? m.message : m.kind}`)),
        );
    });
    worker.on('error', (err: Error & { code?: string }) =>
      finish(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new ExtractionRefusal(
                ErrorType.ExtractionLimitExceeded,
                `${what} needed more than ${limits.maxMemoryMb} MB; the document is refused and nothing was stored`,
              )
            : err,
        ),
      ),
    );
    worker.on('exit', (code) =>
      finish(() => reject(new Error(`${what} thread exited (code ${code})`))),
    );
    worker.postMessage(job);
  });
}
