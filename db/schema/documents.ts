import {
  pgTable,
  text,
  timestamp,
  integer,
  bigserial,
  primaryKey,
  unique,
  index,
  customType,
  check,
  foreignKey,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { organizations } from './organizations';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({
  dataType: () => 'bytea',
});
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const DOCUMENT_STATUSES = ['stored', 'ingesting', 'ready', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/**
 * One uploaded filing. The same bytes uploaded twice by one org are one document. Keyed by
 * (org, id): document ids are the uploader's, so two orgs may use the same one.
 */
export const documents = pgTable(
  'documents',
  {
    id: text('id').notNull(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    title: text('title').notNull(),
    docType: text('doc_type'),
    mimeType: text('mime_type').notNull(),
    sha256: text('sha256').notNull(),
    byteSize: integer('byte_size').notNull(),
    status: text('status').$type<DocumentStatus>().notNull().default('stored'),
    pageCount: integer('page_count'),
    pagesDone: integer('pages_done').notNull().default(0),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    ingestedAt: timestamp('ingested_at', { withTimezone: true }),
    /** Wall time of the ingestion that made the document ready (pages/s is measured from it). */
    ingestMs: integer('ingest_ms'),
  },
  (t) => [
    primaryKey({ name: 'documents_org_pk', columns: [t.orgId, t.id] }),
    unique('documents_org_sha256').on(t.orgId, t.sha256),
    check('documents_status_known', sql`${t.status} in ('stored','ingesting','ready','failed')`),
  ],
);

/** The original bytes, kept in the database so any worker on any machine can ingest them. */
export const documentFiles = pgTable(
  'document_files',
  {
    orgId: text('org_id').notNull(),
    documentId: text('document_id').notNull(),
    bytes: bytea('bytes').notNull(),
  },
  (t) => [
    primaryKey({ name: 'document_files_org_pk', columns: [t.orgId, t.documentId] }),
    foreignKey({
      name: 'document_files_document_same_org',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }),
  ],
);

/** Full text of each page (0-based page index); citation offsets point into this text. */
export const documentPages = pgTable(
  'document_pages',
  {
    orgId: text('org_id').notNull(),
    documentId: text('document_id').notNull(),
    page: integer('page').notNull(),
    text: text('text').notNull(),
  },
  (t) => [
    primaryKey({ name: 'document_pages_org_pk', columns: [t.orgId, t.documentId, t.page] }),
    foreignKey({
      name: 'document_pages_document_same_org',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }),
  ],
);

/** Retrieval units: a span of one page, ranked by PostgreSQL full-text search. */
export const chunks = pgTable(
  'chunks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orgId: text('org_id')
      .notNull()
      .references(() => organizations.id),
    documentId: text('document_id').notNull(),
    page: integer('page').notNull(),
    chunkIndex: integer('chunk_index').notNull(),
    charStart: integer('char_start').notNull(),
    charEnd: integer('char_end').notNull(),
    text: text('text').notNull(),
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english', "text")`),
  },
  (t) => [
    unique('chunks_org_doc_page_index').on(t.orgId, t.documentId, t.page, t.chunkIndex),
    foreignKey({
      name: 'chunks_document_same_org',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }),
    index('chunks_tsv_gin').using('gin', t.tsv),
    index('chunks_org_doc').on(t.orgId, t.documentId),
    check('chunks_offsets_ordered', sql`${t.charStart} >= 0 and ${t.charEnd} > ${t.charStart}`),
  ],
);
