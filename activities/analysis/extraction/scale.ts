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
  ].join('|'),
  'gim',
);

function wordToScale(w: string): Scale {
  const l = w.toLowerCase();
  if (l.startsWith('thousand')) return 'thousands';
  if (l.startsWith('billion')) return 'billions';
  return 'millions';
}

/** All scale declarations on a page, in order. */
export function findScaleDeclarations(pageText: string): ScaleDeclaration[] {
  const out: ScaleDeclaration[] = [];
  DECLARATION.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = DECLARATION.exec(pageText)) !== null) {
    const scale = wordToScale(m[1] ?? m[3] ?? 'millions');
    const tail = (m[2] ?? m[4] ?? '').toLowerCase();
    const whole = m[0].toLowerCase();
    // Prose such as "increased in millions of units" is rare but would mislead; a header
    // declaration is short and sits on its own line or in parentheses.
    const lineStart = pageText.lastIndexOf('\n', m.index) + 1;
    const lineEndIdx = pageText.indexOf('\n', m.index);
    const line = pageText.slice(lineStart, lineEndIdx < 0 ? pageText.length : lineEndIdx);
    const inParens = pageText[m.index] === '(' || /\(\s*$/.test(pageText.slice(lineStart, m.index));
    const shortLine = line.replace(/\s+/g, ' ').trim().length <= 120;
    if (!inParens && !shortLine) continue;
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
