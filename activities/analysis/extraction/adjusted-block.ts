import type { IndexedLine, IndexedPage } from './statement-table';

/**
 * Whether a row stands in a block of non-GAAP figures: an earnings release prints its
 * statement, then "Adjusted earnings before provision for taxes and net earnings (1)" with a
 * second "Net earnings" row beneath. The caption above the row says which: the nearest line
 * without figures (within a few lines, and not past the table's period header). A question
 * that asks for the adjusted figure is refused before this is read (the question parser's
 * non-GAAP rule), so a row in such a block is never the figure asked, only a rival of it.
 */
const ADJUSTED_CAPTION =
  /\badjusted\b|\bnon-?\s?gaap\b|\bexcluding (?:special|certain|one-time)\b/i;
const CAPTION_REACH = 6;

export function inAdjustedBlock(page: IndexedPage, line: IndexedLine): boolean {
  const at = page.lines.indexOf(line);
  if (at < 0) return false;
  for (let i = at - 1; i >= 0 && at - i <= CAPTION_REACH; i--) {
    const above = page.lines[i]!;
    // A period header above the row ends the search: the table starts there.
    if (
      above.header !== null &&
      above.row.cells.length === 0 &&
      above.header.lineIndex === above.index
    )
      return false;
    if (above.row.cells.length === 0 && above.row.label !== '')
      return ADJUSTED_CAPTION.test(above.row.label);
  }
  return false;
}
