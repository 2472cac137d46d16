import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  EmailAttachmentMetaSchema,
  InboundEmailSchema,
  emailMetadata,
  type InboundEmail,
} from './email';
import { StatementFormatSchema, StatementSchema, type Statement } from './statement';

/** An email attachment kept as a document (client/email-attachments.ts stores them). */
export const AttachmentDocumentSchema = z.object({
  filename: z.string(),
  sha256: z.string(),
  documentId: z.string(),
  /** ready: ingested and searchable; failed: stored, but the ingestion refused it (reason in error). */
  status: z.enum(['ready', 'failed']),
  error: z.string().nullable(),
});
export type AttachmentDocument = z.infer<typeof AttachmentDocumentSchema>;

export const SkippedAttachmentSchema = z.object({
  filename: z.string(),
  contentType: z.string(),
  reason: z.string(),
});
export type SkippedAttachment = z.infer<typeof SkippedAttachmentSchema>;

/**
 * The payloads intake hands to the events domain (acceptEvent): exactly what the importers and
 * the email parser produced, never bytes. One `connector.statement_imported` event per
 * statement (a file with two accounts is two events); one `email.received` per message.
 */

export const INTAKE_EVENT_TYPES = {
  statementImported: 'connector.statement_imported',
  emailReceived: 'email.received',
} as const;

export const StatementImportedPayloadSchema = z
  .object({
    connectorId: z.string().min(1),
    file: z.object({
      name: z.string().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      format: StatementFormatSchema,
      /** Position of this statement in its file (0-based) and how many the file holds. */
      statementIndex: z.number().int().nonnegative(),
      statementCount: z.number().int().positive(),
    }),
    statement: StatementSchema,
  })
  .strict();
export type StatementImportedPayload = z.infer<typeof StatementImportedPayloadSchema>;

export const EmailReceivedPayloadSchema = z
  .object({
    channel: z.enum(['api', 'folder']),
    email: InboundEmailSchema.extend({
      attachments: z.array(EmailAttachmentMetaSchema.strict()),
    }).strict(),
    documents: z.array(AttachmentDocumentSchema),
    skipped: z.array(SkippedAttachmentSchema),
  })
  .strict();
export type EmailReceivedPayload = z.infer<typeof EmailReceivedPayloadSchema>;

/** The events of one imported file, in file order. */
export function statementImportedPayloads(input: {
  connectorId: string;
  fileName: string;
  bytes: Uint8Array;
  statements: readonly Statement[];
}): StatementImportedPayload[] {
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  return input.statements.map((statement, i) =>
    StatementImportedPayloadSchema.parse({
      connectorId: input.connectorId,
      file: {
        name: input.fileName,
        sha256,
        format: statement.format,
        statementIndex: i,
        statementCount: input.statements.length,
      },
      statement,
    }),
  );
}

export function emailReceivedPayload(input: {
  channel: 'api' | 'folder';
  email: InboundEmail;
  documents: AttachmentDocument[];
  skipped: SkippedAttachment[];
}): EmailReceivedPayload {
  return EmailReceivedPayloadSchema.parse({
    channel: input.channel,
    email: emailMetadata(input.email),
    documents: input.documents,
    skipped: input.skipped,
  });
}
