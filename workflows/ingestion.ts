import {
  patched,
  proxyActivities,
  setCurrentDetails,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { createDocumentActivities } from '../activities/documents/ingest';
import { IngestInputSchema, type IngestResult } from './ingestion.contract';
import { ErrorType, NON_RETRYABLE_ERROR_TYPES, permanentFailure } from './errors';
import { CsState } from './search-attributes';

// A 250-page filing takes seconds, but a slow disk or big upload must not time out; the
// heartbeat timeout is what detects a dead worker, and the retry resumes after stored pages.
const { ingestDocument } = proxyActivities<ReturnType<typeof createDocumentActivities>>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '20 seconds',
  retry: {
    initialInterval: '2s',
    backoffCoefficient: 2,
    maximumAttempts: 4,
    nonRetryableErrorTypes: NON_RETRYABLE_ERROR_TYPES,
  },
});

/** Turns one uploaded document into searchable pages and chunks. */
export async function ingestionWorkflow(raw: unknown): Promise<IngestResult> {
  const parsed = IngestInputSchema.safeParse(raw);
  if (!parsed.success)
    throw permanentFailure(
      ErrorType.InvalidRequest,
      `Invalid ingestion input: ${parsed.error.message}`,
    );
  // The Web UI filters ingestions by state (CsState) and shows the document being read.
  const visible = patched('ingestion-state-attribute');
  const show = (state: 'ingesting' | 'ready' | 'failed', detail: string) => {
    if (!visible) return;
    upsertSearchAttributes([{ key: CsState, value: state }]);
    setCurrentDetails(`**${state}** — ${detail}`);
  };
  show('ingesting', `document ${parsed.data.documentId}`);
  try {
    const result = await ingestDocument(parsed.data);
    show('ready', `${result.pagesIngested} of ${result.pageCount} pages in ${result.seconds}s`);
    return result;
  } catch (err) {
    show('failed', err instanceof Error ? err.message : String(err));
    throw err;
  }
}
