import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import { chunks, documentFiles, documentPages, documents, type DocumentStatus } from '../schema';

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class DuplicateDocumentIdError extends Error {
  override readonly name = 'DuplicateDocumentIdError';
}

export interface StoredDocument {
  id: string;
  orgId: string;
  title: string;
  docType: string | null;
  mimeType: string;
  sha256: string;
  status: DocumentStatus;
  pageCount: number | null;
  pagesDone: number;
  error: string | null;
  ingestMs: number | null;
}

const docColumns = {
  id: documents.id,
  orgId: documents.orgId,
  title: documents.title,
  docType: documents.docType,
  mimeType: documents.mimeType,
  sha256: documents.sha256,
  status: documents.status,
  pageCount: documents.pageCount,
  pagesDone: documents.pagesDone,
  error: documents.error,
  ingestMs: documents.ingestMs,
};

/**
 * Stores the bytes of an upload once per (org, content hash): the same file uploaded again
 * returns the existing document, whatever id was asked for.
 */
export async function storeDocument(
  db: Db,
  d: {
    id: string;
    /** false when the id was only derived from a file name. */
    idIsExplicit?: boolean;
    orgId: string;
    title: string;
    docType: string | null;
    mimeType: string;
    bytes: Uint8Array;
  },
): Promise<{ document: StoredDocument; created: boolean }> {
  const sha = sha256Hex(d.bytes);
  return db.transaction(async (tx) => {
    const existing = await tx
      .select(docColumns)
      .from(documents)
      .where(and(eq(documents.orgId, d.orgId), eq(documents.sha256, sha)));
    if (existing[0]) return { document: existing[0], created: false };
    let id = d.id;
    const clash = await tx
      .select({ orgId: documents.orgId })
      .from(documents)
      .where(and(eq(documents.orgId, d.orgId), eq(documents.id, id)));
    if (clash[0]) {
      // Ids are per org: a name the org already uses for other content gets the content hash
      // appended when it was only derived from a file name, and is refused when chosen.
      if (d.idIsExplicit) {
        throw new DuplicateDocumentIdError(
          `Document id "${d.id}" is already used for different content`,
        );
      }
      id = `${d.id}-${sha.slice(0, 12)}`;
    }
    const [row] = await tx
      .insert(documents)
      .values({
        id,
        orgId: d.orgId,
        title: d.title,
        docType: d.docType,
        mimeType: d.mimeType,
        sha256: sha,
        byteSize: d.bytes.byteLength,
      })
      .returning(docColumns);
    await tx
      .insert(documentFiles)
      .values({ orgId: d.orgId, documentId: id, bytes: Buffer.from(d.bytes) });
    return { document: row as StoredDocument, created: true };
  });
}

export async function getDocument(
  db: Db,
  orgId: string,
  id: string,
): Promise<StoredDocument | undefined> {
  const rows = await db
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.orgId, orgId), eq(documents.id, id)));
  return rows[0];
}

export async function getDocuments(
  db: Db,
  orgId: string,
  ids: string[],
): Promise<StoredDocument[]> {
  if (ids.length === 0) return [];
  return db
    .select(docColumns)
    .from(documents)
    .where(and(eq(documents.orgId, orgId), inArray(documents.id, ids)));
}

export async function listDocuments(db: Db, orgId: string): Promise<StoredDocument[]> {
  return db
    .select(docColumns)
    .from(documents)
    .where(eq(documents.orgId, orgId))
    .orderBy(asc(documents.id));
}

export async function getDocumentBytes(
  db: Db,
  orgId: string,
  id: string,
): Promise<Buffer | undefined> {
  const rows = await db
    .select({ bytes: documentFiles.bytes })
    .from(documentFiles)
    .where(and(eq(documentFiles.orgId, orgId), eq(documentFiles.documentId, id)));
  return rows[0]?.bytes;
}

export async function setDocumentStatus(
  db: Db,
  orgId: string,
  id: string,
  patch: {
    status: DocumentStatus;
    error?: string | null;
    pageCount?: number;
    pagesDone?: number;
    ingestedAt?: Date;
    ingestMs?: number;
  },
): Promise<void> {
  await db
    .update(documents)
    .set(patch)
    .where(and(eq(documents.orgId, orgId), eq(documents.id, id)));
}

export interface PageWithChunks {
  page: number;
  text: string;
  chunks: { chunkIndex: number; charStart: number; charEnd: number; text: string }[];
}

/** Writes a batch of pages and their chunks in one transaction; re-writing a page is a no-op. */
export async function storePages(
  db: Db,
  orgId: string,
  documentId: string,
  batch: PageWithChunks[],
): Promise<void> {
  if (batch.length === 0) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(documentPages)
      .values(batch.map((p) => ({ orgId, documentId, page: p.page, text: p.text })))
      .onConflictDoNothing();
    const chunkRows = batch.flatMap((p) =>
      p.chunks.map((c) => ({ orgId, documentId, page: p.page, ...c })),
    );
    for (let i = 0; i < chunkRows.length; i += 500) {
      await tx
        .insert(chunks)
        .values(chunkRows.slice(i, i + 500))
        .onConflictDoNothing();
    }
    const maxPage = Math.max(...batch.map((p) => p.page));
    await tx
      .update(documents)
      .set({ pagesDone: sql`greatest(${documents.pagesDone}, ${maxPage + 1})` })
      .where(and(eq(documents.orgId, orgId), eq(documents.id, documentId)));
  });
}

/** Removes everything a failed ingestion wrote, so nothing half-ingested remains searchable. */
export async function discardPages(db: Db, orgId: string, documentId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(chunks).where(and(eq(chunks.orgId, orgId), eq(chunks.documentId, documentId)));
    await tx
      .delete(documentPages)
      .where(and(eq(documentPages.orgId, orgId), eq(documentPages.documentId, documentId)));
    await tx
      .update(documents)
      .set({ pagesDone: 0 })
      .where(and(eq(documents.orgId, orgId), eq(documents.id, documentId)));
  });
}

export async function storedPageCount(db: Db, orgId: string, documentId: string): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(documentPages)
    .where(and(eq(documentPages.orgId, orgId), eq(documentPages.documentId, documentId)));
  return rows[0]?.n ?? 0;
}

export async function loadPages(
  db: Db,
  orgId: string,
  documentId: string,
): Promise<{ page: number; text: string }[]> {
  return db
    .select({ page: documentPages.page, text: documentPages.text })
    .from(documentPages)
    .where(and(eq(documentPages.orgId, orgId), eq(documentPages.documentId, documentId)))
    .orderBy(asc(documentPages.page));
}

export async function loadPage(
  db: Db,
  orgId: string,
  documentId: string,
  page: number,
): Promise<string | undefined> {
  const rows = await db
    .select({ text: documentPages.text })
    .from(documentPages)
    .where(
      and(
        eq(documentPages.orgId, orgId),
        eq(documentPages.documentId, documentId),
        eq(documentPages.page, page),
      ),
    );
  return rows[0]?.text;
}

export interface ChunkHit {
  chunkId: number;
  docId: string;
  page: number;
  charStart: number;
  charEnd: number;
  quote: string;
  rank: number;
}

/**
 * Full-text search over the org's chunks of the given documents. Terms are OR-ed (any match
 * ranks), and ts_rank_cd rewards chunks where they appear close together.
 */
export async function searchChunks(
  db: Db,
  orgId: string,
  docIds: string[],
  query: string,
  limit: number,
): Promise<ChunkHit[]> {
  const terms = [...new Set(query.toLowerCase().match(/[a-z0-9]{2,}/g) ?? [])].slice(0, 24);
  if (terms.length === 0) return [];
  const orQuery = terms.join(' | ');
  const result = await db.execute<{
    id: string;
    document_id: string;
    page: number;
    char_start: number;
    char_end: number;
    text: string;
    rank: number;
  }>(sql`
    select c.id, c.document_id, c.page, c.char_start, c.char_end, c.text,
           ts_rank_cd(c.tsv, q) as rank
    from ${chunks} c, to_tsquery('english', ${orQuery}) q
    where c.org_id = ${orgId}
      and c.document_id in (${sql.join(
        docIds.map((d) => sql`${d}`),
        sql`, `,
      )})
      and c.tsv @@ q
    order by rank desc, c.document_id, c.page, c.chunk_index
    limit ${limit}`);
  return result.rows.map((r) => ({
    chunkId: Number(r.id),
    docId: r.document_id,
    page: r.page,
    charStart: r.char_start,
    charEnd: r.char_end,
    quote: r.text,
    rank: Number(r.rank),
  }));
}
