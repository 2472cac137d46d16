import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../connection';
import { filingFacts, filingFactSets, type FilingFactSetStatus } from '../schema';
import {
  type DeiSummary,
  type FactDimension,
  type InlineFact,
  type InlineXbrlIssue,
  type RefusedFact,
} from '../../workflows/inline-fact';

/** What one ingestion read of a filing's inline XBRL, as stored. */
export interface FilingFactSetInput {
  status: FilingFactSetStatus;
  reason: string | null;
  factElements: number;
  facts: InlineFact[];
  refused: RefusedFact[];
  dei: DeiSummary;
  issues: InlineXbrlIssue[];
}

/** At most this many refusals and issues are kept on the set (the counts are exact). */
const MAX_LISTED = 1_000;
/** 26 columns a row: 1,000 rows stay under PostgreSQL's 65,535 parameters. */
const INSERT_BATCH = 1_000;

/** PostgreSQL text holds no NUL and no lone surrogate; a filing may hold either. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const clean = (s: string) => s.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
const cleanOrNull = (s: string | null) => (s === null ? null : clean(s));
const cleanJson = <T>(v: T): T =>
  JSON.parse(JSON.stringify(v), (_k, x: unknown) => (typeof x === 'string' ? clean(x) : x)) as T;

/**
 * Replaces the document's facts in one transaction: a retried ingestion writes the same rows
 * again, never twice, and a reader sees the old set or the new one, never half.
 */
export async function replaceFilingFacts(
  db: Db,
  orgId: string,
  documentId: string,
  set: FilingFactSetInput,
  /** Runs in the same transaction after the facts (ingestion marks the document ready). */
  andThen?: (tx: Db) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await deleteFacts(tx as unknown as Db, orgId, documentId);
    await tx.insert(filingFactSets).values({
      orgId,
      documentId,
      status: set.status,
      reason: set.reason,
      factElements: set.factElements,
      factCount: set.facts.length,
      refusedCount: set.refused.length,
      dei: cleanJson(set.dei),
      refused: cleanJson(set.refused.slice(0, MAX_LISTED)),
      issues: cleanJson(set.issues.slice(0, MAX_LISTED)),
    });
    for (let i = 0; i < set.facts.length; i += INSERT_BATCH) {
      await tx.insert(filingFacts).values(
        set.facts.slice(i, i + INSERT_BATCH).map((f) => ({
          orgId,
          documentId,
          factId: clean(f.id),
          concept: clean(f.concept),
          conceptNs: clean(f.conceptNs),
          numeric: f.numeric,
          value: cleanOrNull(f.value),
          valueTruncated: f.valueTruncated,
          contextId: clean(f.contextId),
          unitId: cleanOrNull(f.unitId),
          unit: cleanOrNull(f.unit),
          decimals: cleanOrNull(f.decimals),
          scale: f.scale,
          sign: f.sign,
          format: cleanOrNull(f.format),
          periodType: f.period.type,
          periodStart: f.period.type === 'duration' ? f.period.start : null,
          periodEnd:
            f.period.type === 'duration'
              ? f.period.end
              : f.period.type === 'instant'
                ? f.period.instant
                : null,
          dimensions: cleanJson(f.dimensions),
          dimensionCount: f.dimensions.length,
          displayedText: clean(f.displayedText),
          hidden: f.hidden,
          page: f.location?.page ?? null,
          charStart: f.location?.start ?? null,
          charEnd: f.location?.end ?? null,
          duplicateIds: f.duplicateIds.map(clean),
        })),
      );
    }
    if (andThen) await andThen(tx as unknown as Db);
  });
}

async function deleteFacts(db: Db, orgId: string, documentId: string): Promise<void> {
  await db
    .delete(filingFacts)
    .where(and(eq(filingFacts.orgId, orgId), eq(filingFacts.documentId, documentId)));
  await db
    .delete(filingFactSets)
    .where(and(eq(filingFactSets.orgId, orgId), eq(filingFactSets.documentId, documentId)));
}

/** Removes a document's facts (a failed ingestion leaves nothing half-written). */
export async function discardFilingFacts(db: Db, orgId: string, documentId: string): Promise<void> {
  await db.transaction((tx) => deleteFacts(tx as unknown as Db, orgId, documentId));
}

const DimensionsSchema = z.array(
  z.object({
    dimension: z.string(),
    member: z.string().optional(),
    typedValue: z.string().optional(),
  }),
);

const DeiSchema = z.object({
  registrantName: z.string().optional(),
  cik: z.string().optional(),
  documentType: z.string().optional(),
  fiscalYearFocus: z.string().optional(),
  fiscalPeriodFocus: z.string().optional(),
  periodEndDate: z.string().optional(),
});

export interface StoredFactSet {
  status: FilingFactSetStatus;
  reason: string | null;
  factElements: number;
  factCount: number;
  refusedCount: number;
  dei: DeiSummary;
  refused: unknown[];
  issues: unknown[];
}

export async function getFilingFactSet(
  db: Db,
  orgId: string,
  documentId: string,
): Promise<StoredFactSet | undefined> {
  const [row] = await db
    .select()
    .from(filingFactSets)
    .where(and(eq(filingFactSets.orgId, orgId), eq(filingFactSets.documentId, documentId)));
  if (!row) return undefined;
  return {
    status: row.status,
    reason: row.reason,
    factElements: row.factElements,
    factCount: row.factCount,
    refusedCount: row.refusedCount,
    dei: DeiSchema.parse(row.dei),
    refused: z.array(z.unknown()).parse(row.refused),
    issues: z.array(z.unknown()).parse(row.issues),
  };
}

export interface StoredFact {
  factId: string;
  concept: string;
  conceptNs: string;
  numeric: boolean;
  value: string | null;
  unit: string | null;
  decimals: string | null;
  period: { type: 'instant' | 'duration' | 'forever'; start: string | null; end: string | null };
  dimensions: FactDimension[];
  displayedText: string;
  hidden: boolean;
  /** Page and [start, end) offsets of the displayed text in document_pages.text. */
  location: { page: number; start: number; end: number } | null;
  duplicateIds: string[];
  contextId: string;
  unitId: string | null;
  scale: number | null;
  sign: string | null;
  format: string | null;
}

/**
 * How a fact query names a period: `2024-09-28` (an instant on, or a duration ending on,
 * that day), `2023-10-01..2024-09-28` (that exact duration), or `2024` (ending in that year).
 */
export const FactPeriodQuery = z.union([
  z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  z.string().regex(/^\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2}$/),
  z.string().regex(/^\d{4}$/),
]);

export interface FactQuery {
  /** `us-gaap:Revenues` exactly, or a local name (`Revenues`) under any prefix. */
  concept?: string;
  period?: string;
  /**
   * `none` (default): company totals only; `any`: every context; a list: exactly these
   * dimension members.
   */
  dimensions?: 'none' | 'any' | FactDimension[];
  limit?: number;
}

/** Facts of one document by concept, period and dimensions; company totals by default. */
export async function queryFilingFacts(
  db: Db,
  orgId: string,
  documentId: string,
  q: FactQuery = {},
): Promise<StoredFact[]> {
  const where: SQL[] = [eq(filingFacts.orgId, orgId), eq(filingFacts.documentId, documentId)];
  if (q.concept !== undefined) {
    if (q.concept.includes(':')) where.push(eq(filingFacts.concept, q.concept));
    else where.push(sql`split_part(${filingFacts.concept}, ':', 2) = ${q.concept}`);
  }
  if (q.period !== undefined) {
    const p = FactPeriodQuery.parse(q.period);
    if (p.includes('..')) {
      const [start, end] = p.split('..') as [string, string];
      where.push(eq(filingFacts.periodStart, start), eq(filingFacts.periodEnd, end));
    } else if (p.length === 4)
      where.push(sql`extract(year from ${filingFacts.periodEnd}) = ${Number(p)}`);
    else where.push(eq(filingFacts.periodEnd, p));
  }
  const dims = q.dimensions ?? 'none';
  if (dims === 'none') where.push(eq(filingFacts.dimensionCount, 0));
  else if (dims !== 'any') {
    where.push(eq(filingFacts.dimensionCount, dims.length));
    if (dims.length > 0)
      where.push(sql`${filingFacts.dimensions} @> ${JSON.stringify(dims)}::jsonb`);
  }
  const rows = await db
    .select()
    .from(filingFacts)
    .where(and(...where))
    .orderBy(asc(filingFacts.concept), asc(filingFacts.periodEnd), asc(filingFacts.factId))
    .limit(Math.min(q.limit ?? 1_000, 10_000));
  return rows.map(toStoredFact);
}

/** One fact by its id (or the id of a duplicate folded into it). */
export async function getFilingFact(
  db: Db,
  orgId: string,
  documentId: string,
  factId: string,
): Promise<StoredFact | undefined> {
  const [row] = await db
    .select()
    .from(filingFacts)
    .where(
      and(
        eq(filingFacts.orgId, orgId),
        eq(filingFacts.documentId, documentId),
        sql`(${filingFacts.factId} = ${factId} or ${factId} = any(${filingFacts.duplicateIds}))`,
      ),
    )
    .limit(1);
  return row ? toStoredFact(row) : undefined;
}

function toStoredFact(r: typeof filingFacts.$inferSelect): StoredFact {
  return {
    factId: r.factId,
    concept: r.concept,
    conceptNs: r.conceptNs,
    numeric: r.numeric,
    value: r.value,
    unit: r.unit,
    decimals: r.decimals,
    period: { type: r.periodType, start: r.periodStart, end: r.periodEnd },
    dimensions: DimensionsSchema.parse(r.dimensions),
    displayedText: r.displayedText,
    hidden: r.hidden,
    location:
      r.page === null || r.charStart === null || r.charEnd === null
        ? null
        : { page: r.page, start: r.charStart, end: r.charEnd },
    duplicateIds: r.duplicateIds,
    contextId: r.contextId,
    unitId: r.unitId,
    scale: r.scale,
    sign: r.sign,
    format: r.format,
  };
}
