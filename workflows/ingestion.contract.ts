import { z } from 'zod';

/** Ingestion workflow contract: one run per (org, document); documents are bound to their content hash. */
export const INGESTION_WORKFLOW = 'ingestionWorkflow';

export function ingestionWorkflowId(orgId: string, documentId: string): string {
  return `ingest:${orgId}:${documentId}`;
}

export const IngestInputSchema = z
  .object({ orgId: z.string().min(1), documentId: z.string().min(1) })
  .strict();
export type IngestInput = z.infer<typeof IngestInputSchema>;

export const IngestResultSchema = z.object({
  documentId: z.string(),
  status: z.literal('ready'),
  pageCount: z.number().int(),
  pagesIngested: z.number().int(),
  seconds: z.number(),
  resumedFrom: z.number().int(),
});
export type IngestResult = z.infer<typeof IngestResultSchema>;
