import { dec, neg, toString } from '../../../workflows/analysis/decimal-core';

/** A number as printed in a filing, parsed without ever going through a float. */
export interface ParsedNumber {
  /** Plain decimal string, sign included: "-1577", "12.5", "0". */
  value: string;
  negative: boolean;
  percent: boolean;
  /** The cell printed a dash (em/en dash or hyphen): filings use it for nil. */
  dash: boolean;
  currency: boolean;
}

const DASHES = /^[—–‒―-]+$/;
const MINUS = /^[-−‒–]/;

/**
 * Parse one printed cell: "1,577", "(1,577)", "-1,577", "1577.0", "12.5%", "$ 6,489",
 * "$(0.04)", "—". Anything else (words, dates, footnote letters) is null so a caller
 * never mistakes a label fragment for a figure.
 */
export function parsePrintedNumber(raw: string): ParsedNumber | null {
  let s = raw.trim().replace(/\u00a0/g, ' ');
  if (s === '') return null;
  let currency = false;
  let percent = false;
  let negative = false;
  if (s.startsWith('$')) {
    currency = true;
    s = s.slice(1).trim();
  }
  if (DASHES.test(s)) {
    return { value: '0', negative: false, percent: false, dash: true, currency };
  }
  if (s.startsWith('(') && s.endsWith(')')) {
    negative = true;
    s = s.slice(1, -1).trim();
  } else if (s.startsWith('(') && s.endsWith(')%')) {
    negative = true;
    percent = true;
    s = s.slice(1, -2).trim();
  }
  if (s.startsWith('$')) {
    currency = true;
    s = s.slice(1).trim();
  }
  if (s.endsWith('%')) {
    percent = true;
    s = s.slice(0, -1).trim();
  }
  if (MINUS.test(s) && s.length > 1) {
    negative = !negative;
    s = s.slice(1).trim();
    if (s.startsWith('$')) {
      currency = true;
      s = s.slice(1).trim();
    }
  }
  // Thousands separators must sit in groups of three; "1,57" is not a number we trust.
  if (!/^(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$|^\.\d+$/.test(s)) return null;
  const plain = s.replace(/,/g, '');
  let d = dec(plain);
  if (negative) d = neg(d);
  const value = toString(d);
  return { value, negative: negative && value !== '0', percent, dash: false, currency };
}

/** One value cell of a table row, with offsets into the row line. */
export interface RowCell {
  text: string;
  start: number;
  end: number;
  parsed: ParsedNumber;
}

export interface SplitRow {
  label: string;
  labelEnd: number;
  cells: RowCell[];
}

interface Token {
  text: string;
  start: number;
  end: number;
  /** Whitespace before this token was a column gap (two or more spaces). */
  gapBefore: boolean;
}

function tokenize(line: string): Token[] {
  const out: Token[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  let prevEnd = 0;
  while ((m = re.exec(line)) !== null) {
    const start = m.index;
    const gap = line.slice(prevEnd, start);
    out.push({
      text: m[0],
      start,
      end: start + m[0].length,
      gapBefore: out.length > 0 && gap.length >= 2,
    });
    prevEnd = start + m[0].length;
  }
  return out;
}

/**
 * Value tokens are merged so "$ 6,489", "( 1,577 )", "12.5 %" become one cell.
 * Returns merged tokens (text from the line, so offsets stay exact).
 */
function mergeValueTokens(line: string, tokens: Token[]): Token[] {
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const next = tokens[i + 1];
    if ((t.text === '$' || t.text === '($' || t.text === '(') && next && !next.gapBefore) {
      out.push({
        text: line.slice(t.start, next.end),
        start: t.start,
        end: next.end,
        gapBefore: t.gapBefore,
      });
      i++;
      continue;
    }
    if ((t.text === '%' || t.text === ')' || t.text === ')%') && out.length > 0 && !t.gapBefore) {
      const prev = out[out.length - 1]!;
      out[out.length - 1] = {
        text: line.slice(prev.start, t.end),
        start: prev.start,
        end: t.end,
        gapBefore: prev.gapBefore,
      };
      continue;
    }
    out.push(t);
  }
  return out;
}

/** Footnote markers such as "(1)" or "(a)" glued to a label are not figures. */
function looksLikeFootnote(tok: Token, parsed: ParsedNumber): boolean {
  if (!/^\(\d\)$/.test(tok.text)) return false;
  return !parsed.currency && !parsed.percent;
}

/**
 * Split a row line into its label and trailing value cells. The label is everything up
 * to the first value cell; value cells are read from the right, stopping at the first
 * token that is not a printed number, so numbers inside a label ("Notes due 2025",
 * "2,400,000,000 shares authorized") stay in the label unless a column gap separates them.
 */
export function splitRow(line: string): SplitRow {
  const tokens = mergeValueTokens(line, tokenize(line));
  const values: RowCell[] = [];
  let i = tokens.length - 1;
  for (; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.text === '$') continue;
    const parsed = parsePrintedNumber(t.text);
    if (!parsed) break;
    values.unshift({ text: t.text, start: t.start, end: t.end, parsed });
  }
  // The leftmost value must be separated from the label by a column gap, or look like money;
  // otherwise it is part of the label text ("Note 7", "2.375% notes due 2025").
  while (values.length > 0) {
    const first = values[0]!;
    const tok = tokens.find((t) => t.start === first.start);
    const labelTokens = tokens.filter((t) => t.end <= first.start && t.text !== '$');
    if (labelTokens.length === 0) break;
    const gap = tok?.gapBefore ?? false;
    const moneyLike = /[,$()]/.test(first.text) || /\.\d/.test(first.text) || first.parsed.dash;
    if (tok && looksLikeFootnote(tok, first.parsed) && !gap) {
      values.shift();
      continue;
    }
    // "net of allowances - $46 and $41   2,133   1,836": amounts glued to the label by a
    // connective word describe the line item; the columns start after the gap.
    const prevTok = labelTokens[labelTokens.length - 1]!;
    const connective = /^(?:and|or|of|to|-|–|—)$/i.test(prevTok.text);
    // A dash glued to the label ("net of accumulated depreciation -") wraps the label
    // onto the next line; a nil cell sits behind a column gap.
    if ((!gap && connective && values.length > 1) || (!gap && first.parsed.dash)) {
      values.shift();
      continue;
    }
    if (gap || moneyLike) break;
    values.shift();
  }
  const labelEnd = values.length > 0 ? values[0]!.start : line.length;
  const label = line
    .slice(0, labelEnd)
    .replace(/[\s$]+$/, '')
    .trim();
  return { label, labelEnd, cells: values };
}
