import { z } from 'zod';
import { dec, shift10, toString } from '../../../workflows/analysis/decimal-core';

export const ScaleSchema = z.enum(['units', 'thousands', 'millions', 'billions']);
export type Scale = z.infer<typeof ScaleSchema>;

export const SCALE_EXPONENT: Record<Scale, number> = {
  units: 0,
  thousands: 3,
  millions: 6,
  billions: 9,
};

export interface ScaleDeclaration {
  scale: Scale;
  /** "except per share" style carve-out: per-share figures are printed in units. */
  exceptPerShare: boolean;
  /** "except share data" / "shares in thousands" style statement about share counts. */
  shareScale: Scale | null;
  /** Offset of the declaration in the page text. */
  offset: number;
  text: string;
}

const SCALE_WORD = '(thousands|millions|billions)';
// Headers print the scale in many forms: "(in millions, except per share data)",
// "(Amounts in millions...)", "$ and shares in millions", "(Dollars in thousands)",
// "In millions of dollars", "($ in millions)".
const DECLARATION = new RegExp(
  [
    String.raw`(?:\(|^|\b)(?:[$]\s*(?:and shares\s+)?|amounts\s+|dollars\s+|dollar amounts\s+|U\.?S\.? dollars\s+)?in\s+${SCALE_WORD}(?:\s+of\s+(?:U\.?S\.?\s+)?dollars)?([^)\n]{0,80})`,
    // "(Millions, except per share amounts)", "($ millions)", "(Dollars, millions)"
    String.raw`\(\s*(?:[$]\s*|US\$\s*|dollars,?\s+|u\.?s\.?\s+dollars,?\s+)?${SCALE_WORD}(?:\s+of\s+(?:U\.?S\.?\s+)?dollars)?([^)\n]{0,80})`,
    // A statement or note heading line that opens with it: "Millions, Except Per Share
    // Amounts", "Millions, for the Years Ended December 31,", "Millions   Dec. 31, 2024".
    String.raw`^[ \t]*${SCALE_WORD}(?:,\s+((?:except|for|as of|as at)\b[^)\n]{0,80})|(?=[ \t]{2,}|[ \t]*$))`,
  ].join('|'),
  'gim',
);

function wordToScale(w: string): Scale {
  const l = w.toLowerCase();
  if (l.startsWith('thousand')) return 'thousands';
  if (l.startsWith('billion')) return 'billions';
  return 'millions';
}

const WHITESPACE = /\s/;

/**
 * All scale declarations on a page, in order.
 *
 * Linear in the page: matches come in increasing offset order, so the line bounds, the last
 * non-blank character before a match and each line's collapsed length are found by one cursor
 * moving forward, never by rescanning the line per match (a 520 KB one-line text filing with
 * tens of thousands of matches took minutes that way).
 */
export function findScaleDeclarations(pageText: string): ScaleDeclaration[] {
  const out: ScaleDeclaration[] = [];
  const re = new RegExp(DECLARATION.source, DECLARATION.flags);
  // Cursor state, valid for offsets < cursor: the start of the current line and the last
  // non-whitespace character at or after it (-1 when none yet).
  let cursor = 0;
  let lineStart = 0;
  let lastNonBlank = -1;
  // The current line's end and whether it is short, computed once per line.
  let lineEnd = -1;
  let lineIsShort = false;
  let m: RegExpExecArray | null;
  while ((m = re.exec(pageText)) !== null) {
    if (m[0].length === 0) re.lastIndex++;
    for (; cursor < m.index; cursor++) {
      const ch = pageText[cursor]!;
      if (ch === '\n') {
        lineStart = cursor + 1;
        lastNonBlank = -1;
      } else if (!WHITESPACE.test(ch)) {
        lastNonBlank = cursor;
      }
    }
    if (lineEnd < m.index) {
      const nl = pageText.indexOf('\n', m.index);
      lineEnd = nl < 0 ? pageText.length : nl;
      lineIsShort = collapsedLengthAtMost(pageText, lineStart, lineEnd, 120);
    }
    const scale = wordToScale(m[1] ?? m[3] ?? m[5] ?? 'millions');
    const tail = (m[2] ?? m[4] ?? m[6] ?? '').toLowerCase();
    const whole = m[0].toLowerCase();
    // Prose such as "increased in millions of units" is rare but would mislead; a header
    // declaration is short and sits on its own line or in parentheses.
    const inParens =
      pageText[m.index] === '(' || (lastNonBlank >= lineStart && pageText[lastNonBlank] === '(');
    if (!inParens && !lineIsShort) continue;
    const exceptPerShare =
      /except\s+(?:for\s+)?(?:per[- ]share|share and per[- ]share|per[- ]unit|earnings per share|share[- ]related)/.test(
        tail,
      );
    let shareScale: Scale | null = null;
    if (/shares\s+in\s+/.test(whole) || /and shares/.test(whole)) shareScale = scale;
    const sh = /shares\s+in\s+(thousands|millions|billions)/.exec(tail);
    if (sh) shareScale = wordToScale(sh[1]!);
    if (
      /except\s+(?:for\s+)?(?:share|shares)\b/.test(tail) &&
      !/per[- ]share/.test(tail.replace(/share and per[- ]share/, ''))
    ) {
      shareScale = 'units';
    }
    if (/except\s+share and per[- ]share/.test(tail) || /except\s+(?:for\s+)?share data/.test(tail))
      shareScale = 'units';
    out.push({ scale, exceptPerShare, shareScale, offset: m.index, text: m[0].trim() });
  }
  return out;
}

/**
 * Whether text[start, end) with whitespace runs collapsed to one space and trimmed is at most
 * `limit` characters; stops reading once it is longer.
 */
function collapsedLengthAtMost(text: string, start: number, end: number, limit: number): boolean {
  let length = 0;
  let pendingSpace = false;
  for (let i = start; i < end; i++) {
    if (WHITESPACE.test(text[i]!)) {
      pendingSpace = length > 0;
      continue;
    }
    length += pendingSpace ? 2 : 1;
    pendingSpace = false;
    if (length > limit) return false;
  }
  return true;
}

/**
 * The declaration governing a row at `offset`: the nearest one above it on the page,
 * else the first one below it within the header zone (some layouts print the scale in
 * the column-header line after the title). Null means the scale is unknown.
 */
export function scaleForOffset(
  decls: readonly ScaleDeclaration[],
  offset: number,
): ScaleDeclaration | null {
  let best: ScaleDeclaration | null = null;
  for (const d of decls) {
    if (d.offset <= offset) best = d;
  }
  return best ?? null;
}

/** Convert a decimal string printed at `from` scale to `to` scale, exactly. */
export function convertScale(value: string, from: Scale, to: Scale): string {
  return toString(shift10(dec(value), SCALE_EXPONENT[from] - SCALE_EXPONENT[to]));
}

/** "USD millions", "in thousands", "($ in billions)" in a question. */
export function parseRequestedScale(text: string): Scale | null {
  const m =
    /\b(?:in\s+)?(?:USD|US\$|\$|dollars?|U\.S\. dollars)?\s*(thousands|millions|billions)\b/i.exec(
      text,
    );
  if (m) return wordToScale(m[1]!);
  const m2 = /\bin\s+(?:USD|US\$|\$)\s*(k|mm|m|bn|b)\b/i.exec(text);
  if (m2) {
    const w = m2[1]!.toLowerCase();
    if (w === 'k') return 'thousands';
    if (w === 'b' || w === 'bn') return 'billions';
    return 'millions';
  }
  return null;
}
