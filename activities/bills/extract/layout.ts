import { amountsIn, currencyOfMarker } from '../amounts';
import { datesIn } from '../dates';
import { TABLE_HEADER, labelsIn } from '../labels';

/** One printed line of a bill, in reading order over all pages. */
export interface Line {
  page: number;
  text: string;
  /** Made from a header row and the row below it ("Factuur: VF100"), not printed as is. */
  synthetic: boolean;
}

/** The cells of a line: text between column gaps (two spaces or more, or a tab). */
export const cells = (line: string) =>
  line
    .split(/\s{2,}|\t/)
    .map((c) => c.trim())
    .filter(Boolean);

/**
 * Cells a layout split apart but that print one value or one label: a lone currency marker
 * joins the figure after it (or before it, when last), a lone rate ("19%", "(0%)") the label
 * before it.
 */
export function mergeCells(cs: string[]): string[] {
  const out: string[] = [];
  const hasMarker = (c: string) => amountsIn(c).some((a) => a.currency !== null);
  for (let i = 0; i < cs.length; i++) {
    const c = cs[i]!;
    const prev = out[out.length - 1];
    const marker = /^\S{1,3}$/.test(c) && currencyOfMarker(c) !== null;
    // A date the layout split at its spaces ("27. Juni   2016"): the cells joined again.
    let dateCells = 0;
    for (const n of [3, 2]) {
      if (i + n > cs.length || datesIn(c).length > 0) continue;
      const joined = cs.slice(i, i + n).join(' ');
      const d = datesIn(joined)[0];
      if (d && d.index === 0 && d.end === joined.length) {
        dateCells = n;
        break;
      }
    }
    if (dateCells > 0) {
      out.push(cs.slice(i, i + dateCells).join(' '));
      i += dateCells - 1;
    } else if (marker && prev !== undefined && /\d$/.test(prev) && !hasMarker(prev)) {
      // A marker after a bare figure is its suffix ("314,86   €"), else a prefix.
      out[out.length - 1] += ` ${c}`;
    } else if (marker && i + 1 < cs.length && /^[-−(]?\d/.test(cs[i + 1]!)) {
      out.push(`${c} ${cs[++i]!}`);
    } else if (
      /^\(?\d{1,2}(?:[.,]\d{1,2})?\s?%\)?$/.test(c) &&
      prev !== undefined &&
      /\p{L}/u.test(prev)
    ) {
      out[out.length - 1] += ` ${c}`;
    } else out.push(c);
    // "zzgl. 7%" then "MwSt.": a qualifier cell belongs to the label after it.
    const last = out[out.length - 1]!;
    if (
      /^(?:zzgl|zuzügl|zuzüglich|inkl|incl|plus|dont|davon)\.?(?:\s+\d{1,2}(?:[.,]\d{1,2})?\s?%)?$/iu.test(
        last,
      ) &&
      i + 1 < cs.length &&
      labelsIn(cs[i + 1]!).length > 0
    )
      out[out.length - 1] = `${last} ${cs[++i]!}`;
  }
  return out;
}

/** How many line-table column heads ("Description", "Qty", "Amount") a line prints. */
export const headerHits = (line: string) => (line.match(TABLE_HEADER) ?? []).length;

/** The cells of a line with where each starts and ends. */
function cellSpans(line: string): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (const m of line.matchAll(/\S+(?:\s(?!\s)\S+)*/g)) {
    const text = m[0];
    if (text.includes('\t')) continue;
    out.push({ text, start: m.index, end: m.index + text.length });
  }
  return out;
}

/**
 * The cell of `below` under the cell of `line` that holds position `at`: same index when both
 * lines have as many cells, else the last under a last cell, else the one starting nearest.
 */
export function cellBelow(line: string, at: number, below: string): string | null {
  const top = cellSpans(line);
  const bottom = cellSpans(below);
  const k = top.findIndex((c) => at >= c.start && at < c.end);
  if (k < 0 || bottom.length === 0) return null;
  if (top.length === bottom.length) return bottom[k]!.text;
  if (k === top.length - 1 && top.length > 1) return bottom[bottom.length - 1]!.text;
  if (k === 0 && bottom.length === 1) return bottom[0]!.text;
  const near = [...bottom].sort(
    (a, b) => Math.abs(a.start - top[k]!.start) - Math.abs(b.start - top[k]!.start),
  )[0]!;
  return Math.abs(near.start - top[k]!.start) <= 4 ? near.text : null;
}

/**
 * A space-grouped amount that the page layout split at its group spaces ("2   180,00" for
 * "2 180,00"): the groups joined again. Only for a money label's own value, where a bare small
 * integer before an amount has no other reading; the arithmetic checks still apply.
 */
export const joinSpacedGroups = (seg: string) =>
  seg.replace(
    /(?<![\d.,])(\d{1,3})((?:\s{1,3}\d{3})+)(?=[.,]\d{2}(?!\d))/g,
    (_, head: string, groups: string) => `${head}${groups.replace(/\s+/g, ' ')}`,
  );

/**
 * The printed lines of every page, each followed by the "label: value" lines its cells
 * make with the row below when it is a header row of labels over a row of values.
 */
export function readLines(pages: readonly string[]): Line[] {
  const lines: Line[] = [];
  pages.forEach((text, page) => {
    const raw = text.split(/\r?\n/);
    raw.forEach((t, i) => {
      lines.push({ page, text: t, synthetic: false });
      for (const paired of pairHeaderRow(raw, i))
        lines.push({ page, text: paired, synthetic: true });
    });
  });
  return lines;
}

/** A header row of labels above a row of values: the pairs, cell by cell ("Factuur: VF100"). */
function pairHeaderRow(raw: string[], i: number): string[] {
  const t = raw[i]!;
  const head = mergeCells(cells(t));
  const next = raw.slice(i + 1).find((x) => x.trim() !== '');
  if (!next || head.length < 2) return [];
  const labelled = head.filter((c) => labelsIn(c).length > 0).length;
  // A line-table header ("Description  Qty  Price  Amount") pairs with nothing; a row of
  // labels with at most one unlabelled cell is a header row of values even with such words.
  if (headerHits(t) >= 2 && labelled < head.length - 1) return [];
  const values = mergeCells(cells(next));
  // Several rows of figures under such a head are line items, not one row of totals: the
  // first item's net, tax and total must not pass for the bill's.
  const after = raw.slice(raw.indexOf(next, i + 1) + 1).find((x) => x.trim() !== '');
  if (
    after !== undefined &&
    mergeCells(cells(after)).length === values.length &&
    amountsIn(after).length > 0 &&
    labelsIn(after).length === 0
  )
    return [];
  if (
    labelled >= 2 &&
    values.length === head.length &&
    amountsIn(t).length === 0 &&
    datesIn(t).length === 0 &&
    values.every((v) => labelsIn(v).length === 0)
  )
    return head.map((h, k) => `${h.replace(/:$/, '')}: ${values[k]}`);
  return [];
}
