/**
 * The candidate rows for a metric (extract-metric.ts): every indexed row whose label matches,
 * read in the asked period's column with its scale, scored by statement, period, scale and
 * value; and the rule that drops a non-primary row contradicting the primary statement.
 */
import { abs, cmp, dec, toString } from '../../../workflows/analysis/decimal-core';
import { matchLabel, type MetricDefinition, type StatementKind } from './metric-catalog';
import { convertScale, scaleForOffset, type Scale } from './scale';
import { resolveColumn, type IndexedLine, type IndexedPage, type Section } from './statement-table';
import { extraColumnLayout, percentsOfBaseAgree } from './column-layout';
import { matchesNamedPeriod, periodLabel } from './period-words';
import type { CandidateSummary, DocumentIndex, ExtractMetricInput } from './extract-metric-schemas';

export interface Candidate {
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

export function summarize(c: Candidate, note: string): CandidateSummary {
  return {
    page: c.page.page,
    label: c.line.row.label,
    amount: c.amount,
    periodHeader: c.periodHeader,
    confidence: Math.round(c.confidence * 1000) / 1000,
    note,
  };
}

export function collectCandidates(
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

export function contradictPrimary(
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
