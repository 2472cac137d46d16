import { abs, cmp, dec, toString } from '../../../workflows/analysis/decimal-core';
import type { StoredFact } from '../../../db/repositories/filing-facts';
import { indexDocument } from '../extraction/extract-metric';
import { convertScale, scaleForOffset, type Scale } from '../extraction/scale';
import type { IndexedLine, PageText } from '../extraction/statement-table';
import { factMetric, rowNamesMetric } from './concept-map';
import type { PeriodInfo } from './fiscal-calendar';
import { namesPart } from './segment-member';

/**
 * The second reading of a fact: the number printed in the rendered statement table at the
 * same row and column, read as a person reads it — the row's label, the cell as printed, the
 * scale the table declares ("in millions"), the column's heading — by the text path's own
 * table reader, without the tag's concept, context, scale or sign. The fact and this reading
 * must agree (same line item, same value, the sign as printed, the column's year) before an
 * answer is delivered; a disagreement (a mis-tagged fact, a restated column, a sign mistake)
 * goes to a person with both.
 */
export interface PrintedReading {
  agreed: boolean;
  /** The row label as printed, the cell as printed, and the value it reads (units, after scale). */
  label: string | null;
  cell: string | null;
  value: string | null;
  /** The scale the table declares, when one is declared. */
  scale: Scale | null;
  /** Why the readings disagree (empty when they agree). */
  reasons: string[];
}

function linesOf(pages: PageText[], page: number): IndexedLine[] {
  return indexDocument(pages).pages.find((x) => x.page === page)?.lines ?? [];
}

/**
 * The names a printed row goes by: its own label, the label above it when the figures sit on
 * the next line, and the group heading it belongs to ("Earnings per share:" over "Basic").
 */
function rowNames(lines: IndexedLine[], at: number): string[] {
  const line = lines[at]!;
  const own = line.row.label.trim() || (line.contextRaw ?? '').trim();
  const names = [own];
  if (line.contextRaw) names.push(line.contextRaw);
  for (let i = at - 1; i >= 0 && i >= at - 8; i--) {
    const l = lines[i]!;
    if (l.header !== null && l.row.cells.length === 0 && l.index === l.header.lineIndex) break;
    if (l.row.cells.length === 0 && /:\s*$/.test(l.text)) {
      names.push(`${l.text.trim().replace(/:\s*$/, '')} ${own}`);
      break;
    }
  }
  return names.filter((n) => n !== '');
}

/**
 * The title printed just above the table's heading line ("United States and Canada (UCAN)"
 * over "Year ended December 31," and "2024 2023"): at most two value-less lines. It names the
 * part of the company a table is about, never the line item (only the part check reads it).
 */
function tableTitles(lines: IndexedLine[], at: number): string[] {
  const headerAt = lines[at]?.header?.lineIndex;
  if (headerAt === undefined) return [];
  const i = lines.findIndex((l) => l.index === headerAt);
  const out: string[] = [];
  for (let k = i - 1; k >= 0 && k >= i - 3 && out.length < 2; k--) {
    const l = lines[k]!;
    if (l.row.cells.length > 0) break;
    const text = l.text.trim();
    if (text !== '' && text.length <= 80) out.push(text);
  }
  return out;
}

/** A line of running prose: a long sentence, not a heading or a row. */
const isProse = (text: string) => {
  const t = text.trim();
  return t.length >= 60 && (t.match(/[a-z]{2,}/gi)?.length ?? 0) >= 8 && /[.:]$/.test(t);
};

/**
 * The scale that governs a row: the nearest declaration above it, except one stated inside a
 * sentence ("… were as follows (in billions):") once more prose follows — such a declaration
 * speaks for the table it introduces. The page's own declaration, a line by itself ("Amounts
 * in millions of dollars except … as otherwise specified", printed as a running header or
 * footer), governs the rest of the page, wherever the page prints it.
 */
function scaleAt(pages: PageText[], page: number, offset: number) {
  const p = indexDocument(pages).pages.find((x) => x.page === page);
  if (!p) return null;
  const lineOf = (d: { offset: number }) =>
    p.lines.find((l) => l.start <= d.offset && d.offset < l.end);
  const standalone = (d: { offset: number; text: string }) => {
    const line = lineOf(d);
    return line !== undefined && line.text.trim().length <= d.text.trim().length + 20;
  };
  const above = p.scales.filter((d) => d.offset <= offset);
  for (let i = above.length - 1; i >= 0; i--) {
    const d = above[i]!;
    const line = lineOf(d);
    const spent =
      line !== undefined &&
      !standalone(d) &&
      p.lines.some((l) => l.start > line.end && l.end <= offset && isProse(l.text));
    if (!spent) return d;
  }
  if (above.length > 0) return p.scales.find((d) => d.offset > offset && standalone(d)) ?? null;
  return scaleForOffset(p.scales, offset) ?? p.scales[0] ?? null;
}

/** Whether a printed column heading names the period's year (or its fiscal year). */
function headingFits(
  col: { year?: number; fiscalYear?: number; date?: { year: number; month: number; day: number } },
  p: PeriodInfo,
): boolean {
  const endYear = Number(p.end.slice(0, 4));
  if (col.date) {
    const printed = Date.UTC(col.date.year, col.date.month - 1, col.date.day);
    return Math.abs(printed - Date.parse(`${p.end}T00:00:00Z`)) <= 7 * 86_400_000;
  }
  if (col.fiscalYear !== undefined) return col.fiscalYear === p.fiscalYear;
  if (col.year !== undefined) return col.year === endYear || col.year === p.fiscalYear;
  return true;
}

/**
 * Reads the printed table at a fact's place and compares it with the fact (see the module
 * comment). For a part of the company (`part`, the words the question names it by), the row or
 * its column heading must name that part, and a row that does not name it itself ("Net sales"
 * under "Greater China:", or under a "Beauty" column) must name the line item.
 */
export function readPrinted(
  fact: StoredFact,
  metricId: string,
  period: PeriodInfo,
  pages: PageText[],
  part: string | null = null,
): PrintedReading {
  const none = (reason: string): PrintedReading => ({
    agreed: false,
    label: null,
    cell: null,
    value: null,
    scale: null,
    reasons: [reason],
  });
  if (!fact.location)
    return none(`fact ${fact.factId} is not displayed: no printed figure to compare`);
  if (fact.value === null) return none(`fact ${fact.factId} has no value`);
  const loc = fact.location;
  const lines = linesOf(pages, loc.page);
  const at = lines.findIndex((l) => l.start <= loc.start && loc.start < l.end);
  const line = lines[at];
  if (!line) return none(`no printed line at p.${loc.page} offset ${loc.start}`);
  const cellIndex = line.row.cells.findIndex(
    (c) => line.start + c.start <= loc.start && loc.end <= line.start + c.end + 1,
  );
  const cell = line.row.cells[cellIndex];
  if (!cell)
    return none(
      `fact ${fact.factId} is not a cell of a table row on p.${loc.page} ("${line.text.trim().slice(0, 80)}")`,
    );
  const names = rowNames(lines, at);
  const reasons: string[] = [];
  const metric = factMetric(metricId);
  // The column: its heading, when the header maps one heading to each value column.
  const cols = line.header?.columns ?? [];
  const n = line.row.cells.length;
  // One heading per value column, or a repeated block ("2025 2024" under "Three Months" and
  // "Six Months"); a header the reader split across lines maps no column and is not checked.
  const col =
    cols.length === n
      ? cols[cellIndex]
      : cols.length > 1 && n % cols.length === 0
        ? cols[cellIndex % cols.length]
        : undefined;
  let label: string;
  if (part === null) {
    label = names.find((nm) => rowNamesMetric(metricId, nm)) ?? names[0] ?? '';
    if (!rowNamesMetric(metricId, label))
      reasons.push(`the row "${label}" does not name ${metric?.name ?? metricId}`);
  } else {
    const own = line.row.label.trim() || names[0] || '';
    // A value-less line of as many headings as the row has cells ("Beauty   Grooming   …")
    // heads each column in order: the cell's own heading names the part, not the whole line.
    const prev = lines[at - 1];
    const headings = prev && prev.row.cells.length === 0 ? prev.text.trim().split(/\s{3,}/) : [];
    const inColumns = headings.length >= 2;
    const heading =
      inColumns && headings.length === line.row.cells.length ? headings[cellIndex] : undefined;
    const rowLabels = inColumns ? names.filter((nm) => nm !== line.contextRaw) : names;
    const partRow =
      rowLabels.find((nm) => namesPart(nm, part)) ??
      tableTitles(lines, at)
        .filter((t) => namesPart(t, part))
        .map((t) => `${t} ${own}`)[0];
    const columnHeading =
      col !== undefined && namesPart(col.raw, part)
        ? col.raw
        : heading !== undefined && namesPart(heading, part)
          ? heading
          : null;
    label = partRow ?? (columnHeading !== null ? `${columnHeading} ${own}` : own);
    // The line item: a row of the part may qualify it ("Streaming revenues", "Automotive
    // sales"), so the words that end the label may name it.
    const words = own.split(/\s+/);
    const namesItem =
      rowLabels.some((nm) => rowNamesMetric(metricId, nm)) ||
      words.some((_, k) => k > 0 && rowNamesMetric(metricId, words.slice(k).join(' ')));
    if (!partRow && columnHeading === null)
      reasons.push(`neither the row "${own}" nor its column names ${part}`);
    else if (!namesPart(own, part) && !namesItem)
      reasons.push(`the row "${own}" does not name ${metric?.name ?? metricId}`);
  }
  // The scale a person reads: the table's declaration (per-share figures are printed in units).
  const decl = scaleAt(pages, loc.page, line.start);
  let scale: Scale | null = null;
  if (metric?.kind === 'per_share') scale = 'units';
  else if (metric?.kind === 'count') scale = decl ? (decl.shareScale ?? decl.scale) : null;
  else scale = decl?.scale ?? null;
  if (scale === null) reasons.push(`no scale is declared for the table on p.${loc.page}`);
  const printedUnits =
    scale === null ? null : convertScale(cell.parsed.value.replace(/^-/, ''), scale, 'units');
  const factValue = dec(fact.value);
  if (printedUnits !== null && cmp(dec(printedUnits), abs(factValue)) !== 0)
    reasons.push(
      `printed ${cell.text} (${scale}) reads ${printedUnits}, the fact is ${fact.value}`,
    );
  // The sign: a negative fact must be printed negative; a positive one printed in parentheses
  // only where the line is an outflow or expense that statements print so.
  const printedNegative = cell.parsed.negative;
  const negative = factValue.m < 0n;
  if (negative && !printedNegative)
    reasons.push(`the fact is negative but "${cell.text}" is printed positive`);
  if (!negative && printedNegative && metric?.sign === 'as_printed' && !cell.parsed.dash)
    reasons.push(`the fact is positive but "${cell.text}" is printed negative`);
  if (col && !headingFits(col, period))
    reasons.push(
      `the column is headed "${col.raw}", the fact is for ${period.start ?? ''}${period.start ? '..' : ''}${period.end}`,
    );
  return {
    agreed: reasons.length === 0,
    label,
    cell: cell.text,
    value:
      printedUnits === null
        ? null
        : (negative && printedNegative ? '-' : '') + toString(dec(printedUnits)),
    scale,
    reasons,
  };
}
