import { readFileSync, statSync } from 'node:fs';
import { MAX_DOCUMENT_BYTES } from '../workflows/input-bounds';
import { basename, extname } from 'node:path';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/connection';
import { getDocument, storeDocument, type StoredDocument } from '../db/repositories/documents';
import {
  INGESTION_WORKFLOW,
  IngestResultSchema,
  ingestionWorkflowId,
  type IngestResult,
} from '../workflows/ingestion.contract';
import { DEFAULT_TASK_QUEUE, domainTaskQueue } from '../workflows/task-queue';
import { InvalidRequestError } from './errors';
import { CsOrg } from '../workflows/search-attributes';

export const MIME_BY_EXT: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.html': 'text/html',
  '.htm': 'text/html',
  // Inline XBRL filings are XHTML; some are saved with that extension.
  '.xhtml': 'application/xhtml+xml',
  '.txt': 'text/plain',
  '.md': 'text/plain',
  // Structured e-invoices (UBL, CII): stored as they are, their text indexed as pages.
  '.xml': 'application/xml',
};

export function documentIdFromFilename(path: string): string {
  return (
    basename(path, extname(path))
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 128) || 'document'
  );
}

/**
 * Uploads a file (stored in the database so any worker can read it) and runs its ingestion
 * workflow. The same bytes uploaded twice are one document, ingested once.
 */
export async function ingestFile(
  deps: { db: Db; client: Client; taskQueue?: string },
  opts: { orgId: string; path: string; id?: string; title?: string; docType?: string },
): Promise<{ document: StoredDocument; created: boolean; ingestion: IngestResult }> {
  const mimeType = MIME_BY_EXT[extname(opts.path).toLowerCase()];
  if (!mimeType) {
    throw new InvalidRequestError(
      `Unsupported file type ${extname(opts.path) || '(none)'}; supported: ${Object.keys(MIME_BY_EXT).join(', ')}`,
      [{ path: 'path', message: 'unsupported type' }],
    );
  }
  const size = statSync(opts.path).size;
  if (size > MAX_DOCUMENT_BYTES)
    throw new InvalidRequestError(
      `The file is ${size} bytes; documents are at most ${MAX_DOCUMENT_BYTES} bytes`,
      [{ path: 'path', message: `larger than ${MAX_DOCUMENT_BYTES} bytes` }],
    );
  const bytes = readFileSync(opts.path);
  const { document, created } = await storeDocument(deps.db, {
    id: opts.id ?? documentIdFromFilename(opts.path),
    idIsExplicit: opts.id !== undefined,
    orgId: opts.orgId,
    title: opts.title ?? basename(opts.path),
    docType: opts.docType ?? null,
    mimeType,
    bytes,
  });
  const workflowId = ingestionWorkflowId(opts.orgId, document.id);
  const runIngestion = async (): Promise<IngestResult> => {
    const handle = await deps.client.workflow
      .start(INGESTION_WORKFLOW, {
        args: [{ orgId: opts.orgId, documentId: document.id }],
        taskQueue: domainTaskQueue(deps.taskQueue ?? DEFAULT_TASK_QUEUE, 'analysis'),
        workflowId,
        // Concurrent uploads of one document share one running ingestion. A finished one may
        // run again: the database, not the history, says whether the document is ready, and
        // the activity returns at once when it is.
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
        // Set at start (the workflow itself upserts nothing): the Web UI filters by org.
        typedSearchAttributes: [{ key: CsOrg, value: opts.orgId }],
        staticSummary: `ingest ${document.id} · ${opts.orgId}`,
        staticDetails: `**Document** ${document.id} (${mimeType}, ${bytes.length} bytes)`,
      })
      .catch(async (err: unknown) => {
        if (err instanceof Error && err.name === 'WorkflowExecutionAlreadyStartedError')
          return deps.client.workflow.getHandle(workflowId);
        throw err;
      });
    return IngestResultSchema.parse(await handle.result());
  };
  let ingestion = await runIngestion();
  // The run we joined may have been started for another copy of this document (another
  // database behind the same namespace): trust the database, and run once more if needed.
  if ((await getDocument(deps.db, opts.orgId, document.id))?.status !== 'ready')
    ingestion = await runIngestion();
  const stored = await getDocument(deps.db, opts.orgId, document.id);
  if (stored?.status !== 'ready') {
    throw new Error(
      `Document ${document.id} is ${stored?.status ?? 'missing'} after ingestion${stored?.error ? `: ${stored.error}` : ''}`,
    );
  }
  return { document, created, ingestion };
}
