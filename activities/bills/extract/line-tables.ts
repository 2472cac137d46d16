import { amountsIn } from '../amounts';
import { INCLUDED_COMPONENT, labelsIn } from '../labels';
import { cells, headerHits, joinSpacedGroups, type Line } from './layout';

/** One item line: its description, its amount, and the amount with space groups joined. */
export interface Row {
  description: string;
  cents: bigint;
  alt: bigint;
}

/** The line tables a bill prints, each as read and as its second readings. */
export interface LineTables {
  /** The tables with at least one row, as read. */
  found: { rows: Row[] }[];
  /** Each table as read, and (when some row has one) with its space-grouped second readings. */
  withRows: { rows: Row[] }[];
}

/**
 * Item tables. A head row of column names opens a table; its rows are lines ending in
 * an amount after a description, until a total or tax figure (or the next page) ends it.
 */
export function readLineTables(lines: readonly Line[]): LineTables {
  const tables: { rows: Row[] }[] = [];
  let current: { rows: Row[] } | null = null;
  let lastPage = -1;
  for (const line of lines) {
    if (line.synthetic) continue;
    if (line.page !== lastPage) {
      current = null;
      lastPage = line.page;
    }
    const t = line.text;
    const amounts = amountsIn(t);
    if (headerHits(t) >= 2 && amounts.length === 0) {
      current = { rows: [] };
      tables.push(current);
      continue;
    }
    if (!current) continue;
    // A row of total labels (the head of a totals table) ends the lines.
    if (
      labelsIn(t).filter((h) => ['gross', 'due', 'net', 'tax'].includes(h.kind)).length >= 2 &&
      amounts.length === 0
    ) {
      current = null;
      continue;
    }
    const kinds = labelsIn(t)
      .filter((h) => amountsIn(t.slice(h.end)).length > 0)
      .map((h) => h.kind);
    if (kinds.some((k) => k === 'gross' || k === 'due' || k === 'tax')) {
      current = null;
      continue;
    }
    if (kinds.includes('net') || INCLUDED_COMPONENT.test(t) || amounts.length === 0) continue;
    const last = amounts[amounts.length - 1]!;
    if (t.slice(last.end).trim() !== '' || !/\p{L}{2,}/u.test(t.slice(0, last.index))) continue;
    // The same row with space groups joined ("6   700,00" as 6 700,00): a second reading.
    const joined = amountsIn(joinSpacedGroups(t));
    const alt = joined[joined.length - 1]?.cents ?? last.cents;
    current.rows.push({ description: cells(t)[0] ?? t.trim(), cents: last.cents, alt });
  }
  const found = tables.filter((tb) => tb.rows.length > 0);
  // Each table as read, and (when some row has one) with its space-grouped second readings.
  const withRows = [
    ...found,
    ...found
      .filter((tb) => tb.rows.some((r) => r.alt !== r.cents))
      .map((tb) => ({ rows: tb.rows.map((r) => ({ ...r, cents: r.alt })) })),
  ];
  return { found, withRows };
}
