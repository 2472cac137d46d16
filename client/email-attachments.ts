import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { ingestFile } from './documents';
import type { Db } from '../db/connection';
import { listDocuments } from '../db/repositories/documents';
import type { InboundEmail } from '../activities/intake/email';
import type { AttachmentDocument, SkippedAttachment } from '../activities/intake/event-payloads';

/**
 * Keeps an email's PDF, HTML and text attachments as documents through the existing
 * ingestion (client/documents.ts ingestFile: stored once per org and content hash, ingested by
 * its workflow). Other types are listed as skipped with the reason. Idempotent: the same
 * attachment again is the same document.
 */

const EXTENSION: Record<string, string> = {
  'application/pdf': '.pdf',
  'text/html': '.html',
  'application/xhtml+xml': '.xhtml',
  'text/plain': '.txt',
  'application/xml': '.xml',
  'text/xml': '.xml',
};

function safeStem(filename: string): string {
  const stem = filename.replace(/\.[A-Za-z0-9]{1,5}$/, '');
  return (
    stem
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[^A-Za-z0-9]+/, '')
      .slice(0, 100) || 'attachment'
  );
}

export async function ingestEmailAttachments(
  deps: { db: Db; client: Client; taskQueue?: string },
  input: { orgId: string; email: InboundEmail },
): Promise<{ documents: AttachmentDocument[]; skipped: SkippedAttachment[] }> {
  const documents: AttachmentDocument[] = [];
  const skipped: SkippedAttachment[] = [];
  // ingestFile reads a path (its type from the extension): each attachment is written to a
  // private temporary folder under a name whose extension is its declared content type.
  const dir = await mkdtemp(join(tmpdir(), 'cs-email-'));
  try {
    for (const [i, a] of input.email.attachments.entries()) {
      const ext = EXTENSION[a.contentType];
      if (!ext) {
        skipped.push({
          filename: a.filename,
          contentType: a.contentType,
          reason: `type ${a.contentType} is not a document type (PDF, HTML, text, XML)`,
        });
        continue;
      }
      if (a.size === 0) {
        skipped.push({
          filename: a.filename,
          contentType: a.contentType,
          reason: 'the attachment is empty',
        });
        continue;
      }
      const path = join(dir, `${i}-${safeStem(a.filename)}${ext}`);
      await writeFile(path, a.bytes);
      try {
        const r = await ingestFile(deps, {
          orgId: input.orgId,
          path,
          title: a.filename,
          docType: 'email-attachment',
        });
        documents.push({
          filename: a.filename,
          sha256: a.sha256,
          documentId: r.document.id,
          status: 'ready',
          error: null,
        });
      } catch (err) {
        // The ingestion refused the file (corrupt, encrypted, no text): it stays stored, failed.
        const stored = (await listDocuments(deps.db, input.orgId)).find(
          (d) => d.sha256 === a.sha256,
        );
        if (!stored) throw err;
        documents.push({
          filename: a.filename,
          sha256: a.sha256,
          documentId: stored.id,
          status: 'failed',
          error: stored.error ?? (err instanceof Error ? err.message : String(err)),
        });
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { documents, skipped };
}
