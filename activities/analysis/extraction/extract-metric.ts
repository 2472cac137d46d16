import { createHash } from 'node:crypto';
import { z } from 'zod';
import { abs, cmp, dec, toString } from '../../../workflows/analysis/decimal-core';
import { getMetric, matchLabel, type MetricDefinition, type StatementKind } from './metric-catalog';
import { convertScale, scaleForOffset, ScaleSchema, type Scale } from './scale';
import {
  indexPage,
  learnFiscalYearEnd,
  learnFiscalYearOffset,
  learnOffsetFromQuarterDates,
  PageTextSchema,
  PeriodSchema,
  resolveColumn,
  type IndexedLine,
  type IndexedPage,
  type PageText,
  type Section,
} from './statement-table';
import { extraColumnLayout, percentsOfBaseAgree } from './column-layout';
import { matchesNamedPeriod, periodLabel, pinToCalendar } from './period-words';

export const UnitSchema = z.enum(['USD', 'percent', 'shares', 'USD/share', 'ratio']);
export type Unit = z.infer<typeof UnitSchema>;

export const CitationSchema = z.object({
  page: z.number().int().nonnegative(),
  charStart: z.number().int().nonnegative(),
  charEnd: z.number().int().nonnegative(),
  quote: z.string(),
});
export type Citation = z.infer<typeof CitationSchema>;

export const ExtractedValueSchema = z.object({
  amount: z.string(),
  unit: UnitSchema,
  scale: ScaleSchema,
  printed: z.string(),
});
export type ExtractedValue = z.infer<typeof ExtractedValueSchema>;

export const CandidateSummarySchema = z.object({
  page: z.number().int(),
  label: z.string(),
  amount: z.string().nullable(),
  periodHeader: z.string().nullable(),
  confidence: z.number(),
  note: z.string(),
});
export type CandidateSummary = z.infer<typeof CandidateSummarySchema>;

export const ExtractMetricInputSchema = z.object({
  pages: z.array(PageTextSchema),
  metric: z.string(),
  period: PeriodSchema,
  /** Fiscal year the document reports (from filing metadata), used to settle January year-ends. */
  docPeriod: z.number().int().optional(),
  /** Scale the caller wants the amount in; defaults to the table's own scale. */
  targetScale: ScaleSchema.optional(),
  /** Statement the question points at ("using the cash flow statement"). */
  preferStatement: z.enum(['income', 'balance', 'cash_flow', 'capital', 'any']).optional(),
});
export type ExtractMetricInput = z.infer<typeof ExtractMetricInputSchema>;

export const ExtractMetricFoundSchema = z.object({
  status: z.literal('found'),
  metric: z.string(),
  period: PeriodSchema,
  value: ExtractedValueSchema,
  citation: CitationSchema,
  confidence: z.number().min(0).max(1),
  matchedLabel: z.string(),
  periodHeader: z.string(),
  statement: z.string(),
  alternatives: z.array(CandidateSummarySchema),
});
export const ExtractMetricNotFoundSchema = z.object({
  status: z.literal('not_found'),
  metric: z.string(),
  period: PeriodSchema,
  reason: z.string(),
  candidates: z.array(CandidateSummarySchema),
});
export const ExtractMetricResultSchema = z.discriminatedUnion('status', [
  ExtractMetricFoundSchema,
  ExtractMetricNotFoundSchema,
]);
export type ExtractMetricFound = z.infer<typeof ExtractMetricFoundSchema>;
export type ExtractMetricNotFound = z.infer<typeof ExtractMetricNotFoundSchema>;
export type ExtractMetricResult = z.infer<typeof ExtractMetricResultSchema>;

export interface DocumentIndex {
  pages: IndexedPage[];
  fiscalOffset: number | null;
  /** Calendar month the fiscal year ends in; dates elsewhere are interim. */
  fiscalYearEndMonth?: number | null;
}

const INDEX_CACHE = new WeakMap<readonly PageText[], DocumentIndex>();
// Page stores hand out a fresh array per call, so identity alone misses; a content
// fingerprint keeps the last few documents.
const FINGERPRINT_CACHE = new Map<string, DocumentIndex>();
const FINGERPRINT_CACHE_SIZE = 8;

/**
 * A digest of every character of every page: two documents that differ in one figure (a
 * restated filing, an amendment) must never share an index, or one is answered from the other.
 */
function fingerprint(pages: readonly PageText[]): string {
  const h = createHash('sha256');
  for (const p of pages) h.update(`${p.page}\u0000${p.text.length}\u0000`).update(p.text);
  return `${pages.length}:${h.digest('hex')}`;
}

/** Parse every page once; questions about the same document reuse the index. */
export function indexDocument(pages: readonly PageText[]): DocumentIndex {
  const cached = INDEX_CACHE.get(pages);
  if (cached) return cached;
  const fp = fingerprint(pages);
  const byContent = FINGERPRINT_CACHE.get(fp);
  if (byContent) {
    INDEX_CACHE.set(pages, byContent);
    return byContent;
  }
  const indexed = pages.map(indexPage);
  carryContinuedStatements(indexed);
  const fiscalYearEndMonth = learnFiscalYearEnd(pages, indexed);
  const idx: DocumentIndex = {
    pages: indexed,
    fiscalOffset:
      learnFiscalYearOffset(pages) ??
      learnOffsetFromTables(indexed) ??
      learnOffsetFromQuarterDates(pages, fiscalYearEndMonth),
    fiscalYearEndMonth,
  };
  INDEX_CACHE.set(pages, idx);
  FINGERPRINT_CACHE.set(fp, idx);
  if (FINGERPRINT_CACHE.size > FINGERPRINT_CACHE_SIZE) {
    const oldest = FINGERPRINT_CACHE.keys().next().value;
    if (oldest !== undefined) FINGERPRINT_CACHE.delete(oldest);
  }
  return idx;
}

/**
 * A statement spilling onto the next page often repeats neither title nor column header
 * ("... (continued)"): such rows inherit the previous page's section and header.
 */
function carryContinuedStatements(pages: IndexedPage[]): void {
  for (let i = 1; i < pages.length; i++) {
    const prev = pages[i - 1]!;
    const cur = pages[i]!;
    const top = cur.lines
      .slice(0, 8)
      .map((l) => l.text.toLowerCase())
      .join(' ');
    if (!/\bcontinued\b/.test(top)) continue;
    const lastPrev = [...prev.lines]
      .reverse()
      .find((l) => l.header !== null && l.row.cells.length > 0);
    if (!lastPrev || !lastPrev.section.primary) continue;
    for (const l of cur.lines) {
      if (l.header !== null) break;
      if (l.section.kind === 'other' || l.section.kind === lastPrev.section.kind) {
        l.section = lastPrev.section;
        if (l.row.cells.length > 0) l.header = lastPrev.header;
      }
    }
    if (cur.scales.length === 0 && prev.scales.length > 0) {
      const last = prev.scales[prev.scales.length - 1]!;
      cur.scales = [{ ...last, offset: 0 }];
    }
  }
}

/**
 * When the wording never says how January year-ends are named, the document's own tables
 * usually do: MD&A tables headed "2017  2016" repeat figures that the statements head
 * "January 28, 2017  January 30, 2016". Matching the values reveals the convention.
 */
export function learnOffsetFromTables(pages: readonly IndexedPage[]): number | null {
  const byLabel = new Map<string, Map<string, Set<number>>>();
  const dated: { label: string; year: number; value: string }[] = [];
  for (const p of pages) {
    for (const l of p.lines) {
      const h = l.header;
      if (!h || l.row.cells.length !== h.columns.length || l.normLabel === '') continue;
      h.columns.forEach((c, i) => {
        const v = l.row.cells[i]!.parsed.value.replace('-', '');
        // Short figures coincide by chance; only distinctive ones vote.
        if (v.replace(/\D/g, '').length < 3) return;
        if (c.date && c.date.month <= 2)
          dated.push({ label: l.normLabel, year: c.date.year, value: v });
        else if (!c.date && (c.fiscalYear ?? c.year) !== undefined) {
          const fy = (c.fiscalYear ?? c.year)!;
          let m = byLabel.get(l.normLabel);
          if (!m) byLabel.set(l.normLabel, (m = new Map()));
          let s = m.get(v);
          if (!s) m.set(v, (s = new Set()));
          s.add(fy);
        }
      });
    }
  }
  let v0 = 0;
  let v1 = 0;
  for (const d of dated) {
    const years = byLabel.get(d.label)?.get(d.value);
    if (!years) continue;
    if (years.has(d.year)) v0++;
    if (years.has(d.year - 1)) v1++;
  }
  if (v0 >= 3 && v0 >= 4 * v1) return 0;
  if (v1 >= 3 && v1 >= 4 * v0) return 1;
  return null;
}

interface Candidate {
  page: IndexedPage;
  line: IndexedLine;
  labelScore: number;
  rank: number;
  matchedLabel: string;
  periodHeader: string;
  cellIndex: number;
  amount: string;
  scale: Scale;
  printed: string;
  statementFactor: number;
  periodFactor: number;
  scaleFactor: number;
  valueFactor: number;
  confidence: number;
  section: Section;
  /** The row's values in its other annual columns, in units (money metrics only). */
  otherYears: { fiscalYear: number; units: string }[];
}

function unitFor(metric: MetricDefinition): Unit {
  switch (metric.kind) {
    case 'money':
      return 'USD';
    case 'per_share':
      return 'USD/share';
    case 'count':
      return 'shares';
    case 'ratio_percent':
      return 'percent';
  }
}

function statementFactor(
  metric: MetricDefinition,
  section: Section,
  prefer: StatementKind | undefined,
): number {
  const want = prefer && prefer !== 'any' ? prefer : metric.statement;
  if (want === 'any') return section.primary ? 1 : 0.9;
  if (want === 'capital')
    return section.kind === 'capital' ? 1 : section.kind === 'other' ? 0.9 : 0.6;
  if (section.kind === want && section.primary) return section.consolidated ? 1 : 0.95;
  if (section.kind === 'other' || !section.primary) return 0.8;
  // Same figure, another primary statement: net income opens the cash-flow statement,
  // but an inventory line there is a change, not a balance.
  if (metric.statement === 'income' && section.kind === 'cash_flow' && metric.id === 'net_income')
    return 0.85;
  if (
    metric.statement === 'cash_flow' &&
    section.kind === 'income' &&
    metric.id === 'depreciation_amortization'
  )
    return 0.85;
  return 0.5;
}

const FLOW_DURATIONS = new Set(['year', 'unknown', 'instant']);

function withinPlausible(metric: MetricDefinition, amountUnits: string): boolean {
  const v = dec(amountUnits);
  if (metric.plausible.min !== undefined && cmp(v, dec(metric.plausible.min)) < 0) return false;
  if (metric.plausible.max !== undefined && cmp(v, dec(metric.plausible.max)) > 0) return false;
  return true;
}

function summarize(c: Candidate, note: string): CandidateSummary {
  return {
    page: c.page.page,
    label: c.line.row.label,
    amount: c.amount,
    periodHeader: c.periodHeader,
    confidence: Math.round(c.confidence * 1000) / 1000,
    note,
  };
}

function collectCandidates(
  doc: DocumentIndex,
  metric: MetricDefinition,
  input: ExtractMetricInput,
  rejected: CandidateSummary[],
): Candidate[] {
  const out: Candidate[] = [];
  for (const page of doc.pages) {
    for (const line of page.lines) {
      const cells = line.row.cells;
      if (cells.length === 0) continue;
      // A label starting in lower case continues the line above ("...net of non-cash" /
      // "capital expenditures   (930)"): only the joined label names the row.
      // A label opening with an amount ("$13,663 and $13,000 (Note 8)") is the tail of a
      // wrapped "..., net of accumulated depreciation -" line.
      const continuation = /^(?:[a-z]|\$\s?\d)/.test(line.row.label) && line.contextLabel !== null;
      let lm = continuation ? null : matchLabel(metric, line.row.label, line.normLabel);
      let matchedLabel = line.row.label;
      if (line.contextLabel) {
        const ctx = matchLabel(metric, line.contextRaw ?? line.contextLabel, line.contextLabel);
        // A grouping heading joined to a row only counts when the pair names the item
        // exactly ("Earnings per share" + "Diluted"); a prefix would turn "Net revenues" +
        // "Product sales" into revenue.
        if (continuation && ctx) {
          lm = { ...ctx, score: ctx.score * 0.95 };
          matchedLabel = line.contextLabel;
        } else if (
          ctx &&
          ctx.score === 1 &&
          (!lm ||
            ctx.score * 0.95 > lm.score ||
            (ctx.rank < lm.rank && ctx.score * 0.95 >= lm.score))
        ) {
          lm = { ...ctx, score: ctx.score * 0.95 };
          matchedLabel = line.contextLabel;
        }
      }
      if (!lm) continue;
      const reject = (note: string) => {
        if (rejected.length < 40)
          rejected.push({
            page: page.page,
            label: line.row.label,
            amount: null,
            periodHeader: null,
            confidence: 0,
            note,
          });
      };
      const header = line.header;
      if (!header) {
        reject('no period header above the row');
        continue;
      }
      let valueCells = cells;
      let periodFactor = 1;
      const H = header.columns.length;
      if (cells.length !== H) {
        const first = cells[0]!;
        const layout = cells.length > H ? extraColumnLayout(cells, H) : null;
        if (cells.length === H + 1 && /^\d{1,2}$/.test(first.text)) {
          valueCells = cells.slice(1);
        } else if (layout) {
          valueCells = layout.cells;
          periodFactor = layout.factor;
          const table = page.lines.filter((l) => l.header === header && l.row.cells.length > 0);
          if (
            layout.percents &&
            percentsOfBaseAgree(
              layout.cells,
              layout.percents,
              table.map((l) => l.row),
            )
          )
            periodFactor = 1;
        } else if (cells.length > H) {
          // More amounts than the header has periods: the header does not describe the
          // columns (a year over "Q1  Q2  Six months"), so no column can be trusted.
          reject(`row has ${cells.length} values for ${H} period columns and they are not changes`);
          continue;
        } else {
          reject(`row has ${cells.length} values for ${H} period columns`);
          continue;
        }
      }
      const latestYear = Math.max(
        ...header.columns.map((c) => c.date?.year ?? c.fiscalYear ?? c.year ?? 0),
      );
      const matches: number[] = [];
      const annualColumns: { ci: number; fiscalYear: number }[] = [];
      let certainty = 1;
      header.columns.forEach((col, ci) => {
        const r = resolveColumn(
          col,
          doc.fiscalOffset,
          input.docPeriod,
          latestYear,
          doc.fiscalYearEndMonth,
        );
        if (FLOW_DURATIONS.has(r.duration) && r.quarter === undefined)
          annualColumns.push({ ci, fiscalYear: r.fiscalYear });
        const named = matchesNamedPeriod(input.period, col, r, metric.instant);
        if (named !== null) {
          if (!named) return;
          matches.push(ci);
          // The printed date is the one the question quotes: no calendar convention between.
          if (!input.period.endDate) certainty = Math.min(certainty, r.certainty);
          return;
        }
        if (r.fiscalYear !== input.period.fiscalYear) return;
        if (input.period.quarter !== undefined) {
          if (r.quarter !== input.period.quarter) return;
          // A quarter-end date heads a balance, or a flow only over "three months ended".
          if (r.interim && !metric.instant && r.duration !== 'quarter') return;
        } else if (!FLOW_DURATIONS.has(r.duration) || r.quarter !== undefined) {
          return;
        }
        matches.push(ci);
        certainty = Math.min(certainty, r.certainty);
      });
      if (matches.length === 0) {
        reject(
          `no column for ${periodLabel(input.period)} in header "${header.columns.map((c) => c.raw).join(' | ')}"`,
        );
        continue;
      }
      const distinctValues = new Set(matches.map((ci) => valueCells[ci]?.parsed.value));
      if (distinctValues.size > 1) periodFactor *= 0.5;
      const ci = matches[0]!;
      const cell = valueCells[ci];
      if (!cell) continue;
      const decl = scaleForOffset(page.scales, line.start) ?? page.scales[0] ?? null;
      let scaleFactor = 1;
      if (!scaleForOffset(page.scales, line.start) && decl) scaleFactor = 0.9;
      let scale: Scale = 'units';
      let valueFactor = 1;
      if (metric.kind === 'money') {
        if (decl) scale = decl.scale;
        else scaleFactor = 0.6;
      } else if (metric.kind === 'count') {
        if (decl) scale = decl.shareScale ?? decl.scale;
        else scaleFactor = 0.6;
      } else if (metric.kind === 'ratio_percent') {
        if (!cell.parsed.percent && !/ratio/.test(line.normLabel)) {
          reject('percentage metric but the cell is not a percentage');
          continue;
        }
      }
      if (metric.kind === 'money' && cell.parsed.percent) {
        reject('money metric but the cell is a percentage');
        continue;
      }
      let amount = cell.parsed.value;
      if (metric.sign === 'magnitude') amount = toString(abs(dec(amount)));
      if (metric.sign === 'expense' && valueCells.every((c) => c.parsed.negative || c.parsed.dash))
        amount = toString(abs(dec(amount)));
      if (cell.parsed.dash) valueFactor = 0.8;
      const inUnits =
        metric.kind === 'money' || metric.kind === 'count'
          ? convertScale(amount, scale, 'units')
          : amount;
      if (!withinPlausible(metric, inUnits)) {
        reject(`value ${cell.text} outside the plausible range`);
        continue;
      }
      const otherYears: { fiscalYear: number; units: string }[] = [];
      if (input.period.quarter === undefined && metric.kind === 'money')
        for (const a of annualColumns) {
          const c = valueCells[a.ci];
          if (a.fiscalYear === input.period.fiscalYear || !c || c.parsed.dash) continue;
          const v =
            metric.sign === 'magnitude' ? toString(abs(dec(c.parsed.value))) : c.parsed.value;
          otherYears.push({ fiscalYear: a.fiscalYear, units: convertScale(v, scale, 'units') });
        }
      const sf = statementFactor(metric, line.section, input.preferStatement);
      const col = header.columns[ci]!;
      const confidence =
        0.97 * lm.score * periodFactor * certainty * scaleFactor * sf * valueFactor;
      out.push({
        page,
        line,
        labelScore: lm.score,
        rank: lm.rank,
        matchedLabel,
        periodHeader: col.raw,
        cellIndex: ci,
        amount,
        scale,
        printed: cell.text,
        statementFactor: sf,
        periodFactor: periodFactor * certainty,
        scaleFactor,
        valueFactor,
        confidence,
        section: line.section,
        otherYears,
      });
    }
  }
  return out;
}

/**
 * A row outside the primary statement (a segment reconciliation, a footnote table) can
 * share the line item's name yet be another quantity ("Property, plant and equipment, net
 * (3)" of unallocated corporate assets). Where its other year columns overlap the primary
 * statement's and disagree with it, it is not the line item: drop it. Mutates `cands`.
 */
function closeTo(a: string, b: string): boolean {
  const x = Number(a);
  const y = Number(b);
  const m = Math.max(Math.abs(x), Math.abs(y));
  return m === 0 || Math.abs(x - y) / m <= 0.005;
}

function contradictPrimary(
  doc: DocumentIndex,
  metric: MetricDefinition,
  input: Omit<ExtractMetricInput, 'pages'>,
  cands: Candidate[],
  rejected: CandidateSummary[],
): void {
  if (metric.kind !== 'money' || metric.statement === 'any' || metric.statement === 'capital')
    return;
  const isPrimary = (c: Candidate) => c.section.primary && c.section.kind === metric.statement;
  const primaryByYear = new Map<number, string[] | null>();
  const primaryValues = (fiscalYear: number): string[] | null => {
    if (primaryByYear.has(fiscalYear)) return primaryByYear.get(fiscalYear)!;
    const cs = collectCandidates(
      doc,
      metric,
      { ...input, pages: [], period: { fiscalYear } },
      [],
    ).filter(isPrimary);
    const top = Math.max(0, ...cs.map((c) => c.labelScore));
    const vals = cs
      .filter((c) => c.labelScore === top)
      .map((c) => convertScale(c.amount, c.scale, 'units'));
    const out = vals.length > 0 ? vals : null;
    primaryByYear.set(fiscalYear, out);
    return out;
  };
  for (let i = cands.length - 1; i >= 0; i--) {
    const c = cands[i]!;
    if (isPrimary(c) || c.otherYears.length === 0) continue;
    const clash = c.otherYears.find((o) => {
      const p = primaryValues(o.fiscalYear);
      // Tables printed in a coarser scale round: half a percent is the same figure.
      return p !== null && !p.some((v) => closeTo(v, o.units));
    });
    if (clash) {
      cands.splice(i, 1);
      if (rejected.length < 40)
        rejected.push({
          ...summarize(c, `contradicts the primary statement for FY${clash.fiscalYear}`),
        });
    }
  }
}

/** Confidence ceiling when two equally good rows disagree: below the 0.70 answer floor. */
const AMBIGUOUS_CAP = 0.6;

export function extractMetric(rawInput: ExtractMetricInput): ExtractMetricResult {
  const input = ExtractMetricInputSchema.parse(rawInput);
  return extractMetricFromIndex(indexDocument(rawInput.pages), input);
}

export function extractMetricFromIndex(
  doc: DocumentIndex,
  asked: Omit<ExtractMetricInput, 'pages'>,
  /**
   * A line item the catalog does not name, built from the filing's own row labels
   * (definition/line-item.ts); read by the same column, scale and conflict rules.
   */
  lineItem?: MetricDefinition,
): ExtractMetricResult {
  let input = asked;
  const metric = lineItem ?? getMetric(input.metric);
  if (!metric) {
    return {
      status: 'not_found',
      metric: input.metric,
      period: input.period,
      reason: `unknown metric "${input.metric}"`,
      candidates: [],
    };
  }
  // A date the question quotes is placed in this filing's fiscal calendar first.
  const pinned = pinToCalendar(input.period, { ...doc, docPeriod: input.docPeriod });
  if (!pinned.ok)
    return {
      status: 'not_found',
      metric: metric.id,
      period: input.period,
      reason: pinned.reason,
      candidates: [],
    };
  input = { ...input, period: pinned.period };
  const rejected: CandidateSummary[] = [];
  const cands = collectCandidates(doc, metric, { ...input, pages: [] }, rejected);
  if (cands.length === 0) {
    return {
      status: 'not_found',
      metric: metric.id,
      period: input.period,
      reason:
        rejected.length > 0
          ? `no usable row for ${metric.name} ${periodLabel(input.period)}: ${rejected[0]!.note}`
          : `no row labelled like ${metric.name}`,
      candidates: rejected.slice(0, 10),
    };
  }
  contradictPrimary(doc, metric, input, cands, rejected);
  if (cands.length === 0) {
    return {
      status: 'not_found',
      metric: metric.id,
      period: input.period,
      reason: `no usable row for ${metric.name} ${periodLabel(input.period)}: ${rejected[rejected.length - 1]?.note ?? 'all rows contradict the primary statement'}`,
      candidates: rejected.slice(-10),
    };
  }
  cands.sort(
    (a, b) =>
      b.statementFactor - a.statementFactor ||
      a.rank - b.rank ||
      b.labelScore - a.labelScore ||
      b.confidence - a.confidence ||
      a.page.page - b.page.page,
  );
  const best = cands[0]!;
  let confidence = best.confidence;
  const toUnits = (c: Candidate) =>
    metric.kind === 'money' || metric.kind === 'count'
      ? convertScale(c.amount, c.scale, 'units')
      : c.amount;
  const bestUnits = toUnits(best);
  const rivals = cands.filter(
    (c) =>
      c !== best &&
      c.statementFactor === best.statementFactor &&
      c.rank === best.rank &&
      c.labelScore >= best.labelScore - 0.05 &&
      // A rival read through a layout guess is weaker evidence than a clean match.
      c.confidence >= best.confidence - 0.15 &&
      cmp(dec(toUnits(c)), dec(bestUnits)) !== 0,
  );
  const notes: CandidateSummary[] = [];
  if (rivals.length > 0) {
    // The same line item printed twice at the same authority with different values:
    // a restatement, a parent-only statement, a segment table. Do not guess.
    confidence = Math.min(confidence, AMBIGUOUS_CAP);
    for (const r of rivals.slice(0, 5))
      notes.push(summarize(r, 'conflicting value for the same label and period'));
  }
  const agreeing = cands.filter(
    (c) => c !== best && cmp(dec(toUnits(c)), dec(bestUnits)) === 0,
  ).length;
  for (const c of cands.filter((c) => c !== best && !rivals.includes(c)).slice(0, 5))
    notes.push(summarize(c, 'lower-ranked match'));
  const targetScale =
    metric.kind === 'money' || metric.kind === 'count'
      ? (input.targetScale ?? best.scale)
      : 'units';
  const amount =
    metric.kind === 'money' || metric.kind === 'count'
      ? convertScale(best.amount, best.scale, targetScale)
      : best.amount;
  const line = best.line;
  return {
    status: 'found',
    metric: metric.id,
    period: input.period,
    value: { amount, unit: unitFor(metric), scale: targetScale, printed: best.printed },
    citation: {
      page: best.page.page,
      charStart: line.start,
      charEnd: line.end,
      quote: best.page.text.slice(line.start, line.end),
    },
    confidence:
      Math.round(
        Math.min(1, confidence + (rivals.length === 0 && agreeing > 0 ? 0.01 : 0)) * 1000,
      ) / 1000,
    matchedLabel: best.matchedLabel,
    periodHeader: best.periodHeader,
    statement: best.section.title || best.section.kind,
    alternatives: notes,
  };
}
