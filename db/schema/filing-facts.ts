import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { documents } from './documents';

export const FILING_FACT_SET_STATUSES = ['facts', 'text-only'] as const;
export type FilingFactSetStatus = (typeof FILING_FACT_SET_STATUSES)[number];

/**
 * What ingestion made of an HTML filing's inline XBRL, one row per document that has ix:
 * markup: `facts` (its facts are in filing_facts) or `text-only` with the reason (too many
 * facts, say); the dei summary (filer, CIK, fiscal focus, period end), the facts refused one
 * by one with their typed reason, and parser issues (inconsistent duplicates …).
 */
export const filingFactSets = pgTable(
  'filing_fact_sets',
  {
    orgId: text('org_id').notNull(),
    documentId: text('document_id').notNull(),
    status: text('status').$type<FilingFactSetStatus>().notNull(),
    reason: text('reason'),
    /** Fact elements in the file; facts stored (duplicates folded); facts refused. */
    factElements: integer('fact_elements').notNull(),
    factCount: integer('fact_count').notNull(),
    refusedCount: integer('refused_count').notNull(),
    dei: jsonb('dei').notNull().default({}),
    refused: jsonb('refused').notNull().default([]),
    issues: jsonb('issues').notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'filing_fact_sets_org_pk', columns: [t.orgId, t.documentId] }),
    foreignKey({
      name: 'filing_fact_sets_document_same_org',
      columns: [t.orgId, t.documentId],
      foreignColumns: [documents.orgId, documents.id],
    }),
    check('filing_fact_sets_status_known', sql`${t.status} in ('facts','text-only')`),
    check(
      'filing_fact_sets_text_only_has_reason',
      sql`${t.status} <> 'text-only' or ${t.reason} is not null`,
    ),
  ],
);

/**
 * One inline XBRL fact of a filing (duplicates folded into the most precise): concept, exact
 * value (a decimal string for numeric facts), unit, decimals, period, dimensions, and where
 * its displayed text sits in the stored page text (page + offsets into document_pages.text),
 * so a citation highlights what a person sees. A hidden fact has none, unless EDGAR displays
 * it elsewhere (`-sec-ix-hidden`): then it is that text.
 */
export const filingFacts = pgTable(
  'filing_facts',
  {
    orgId: text('org_id').notNull(),
    documentId: text('document_id').notNull(),
    factId: text('fact_id').notNull(),
    concept: text('concept').notNull(),
    conceptNs: text('concept_ns').notNull(),
    numeric: boolean('numeric').notNull(),
    value: text('value'),
    valueTruncated: boolean('value_truncated').notNull().default(false),
    contextId: text('context_id').notNull(),
    unitId: text('unit_id'),
    unit: text('unit'),
    decimals: text('decimals'),
    scale: integer('scale'),
    sign: text('sign'),
    format: text('format'),
    periodType: text('period_type').$type<'instant' | 'duration' | 'forever'>().notNull(),
    /** Null for an instant; an instant is its `period_end`. */
    periodStart: date('period_start', { mode: 'string' }),
    periodEnd: date('period_end', { mode: 'string' }),
    dimensions: jsonb('dimensions').notNull().default([]),
    /** 0 for company totals: the default filter of fact queries. */
    dimensionCount: integer('dimension_count').notNull().default(0),
    displayedText: text('displayed_text').notNull(),
    hidden: boolean('hidden').notNull().default(false),
    page: integer('page'),
    charStart: integer('char_start'),
    charEnd: integer('char_end'),
    duplicateIds: text('duplicate_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
  },
  (t) => [
    primaryKey({ name: 'filing_facts_org_pk', columns: [t.orgId, t.documentId, t.factId] }),
    foreignKey({
      name: 'filing_facts_set_same_org',
      columns: [t.orgId, t.documentId],
      foreignColumns: [filingFactSets.orgId, filingFactSets.documentId],
    }),
    index('filing_facts_concept').on(t.orgId, t.documentId, t.concept),
    check(
      'filing_facts_period_type_known',
      sql`${t.periodType} in ('instant','duration','forever')`,
    ),
    check(
      'filing_facts_location_whole',
      sql`(${t.page} is null and ${t.charStart} is null and ${t.charEnd} is null) or (${t.page} >= 0 and ${t.charStart} >= 0 and ${t.charEnd} > ${t.charStart})`,
    ),
  ],
);
