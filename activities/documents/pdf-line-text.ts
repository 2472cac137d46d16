/**
 * One line of a PDF page as text: the runs of a line joined by a space, nothing, or a column
 * separator depending on the gap between them and what they are (numbers, currency signs,
 * closers, bullets), and the character clean-up of each pdf.js text item.
 */

/** A text run in a frame where its baseline runs along +x and y grows downwards. */
export interface Run {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
  width: number;
  /** Font size (em) in page units. */
  size: number;
  /** The source item had leading / trailing whitespace, i.e. a space is printed there. */
  spaceBefore: boolean;
  spaceAfter: boolean;
}

/** Gaps up to this (in em) are touching glyphs: split words, kerning, font switches. */
const TOUCH_GAP = 0.12;
/** Gaps from this (in em) between two text runs are column gaps. */
const TEXT_COLUMN_GAP = 1.0;
/** Gaps from this (in em) between a text and a number are column gaps; prose spacing stays below. */
const NUMBER_COLUMN_GAP = 0.6;
/** Gaps from this (in em) between two numbers are column gaps; "2019 (1)" footnote marks stay below. */
const NUMBERS_COLUMN_GAP = 0.4;
/** A "$" this far (in em) after an amount opens the next column. */
const CURRENCY_AFTER_NUMBER_GAP = 0.05;
/** A ')' or '%' this close (in em) after a number prints as part of it. */
const CLOSER_GAP = 0.6;
/** A lone '%' (or the ')' of an open negative) this close (in em) after a number still belongs to it. */
const DETACHED_CLOSER_GAP = 2;
/** A '$' stays with the amount that follows it within its column, up to this (in em). */
const CURRENCY_GAP = 12;

const COLUMN_SEPARATOR = '   ';

/** Amounts, percentages, years, footnote-free placeholders ("—") and bare currency signs. */
const NUMBERISH =
  /^(?:\(?\$ ?)?\(?[-+]?\$?\d[\d,]*(?:\.\d+)?\)?%?\)?$|^\(?\.\d+\)?%?$|^[-–—]+%?$|^\(?\$$|^[)%]+$/;
const ENDS_WITH_NUMBER = /\d[.,]?$|\d\)$/;
const CURRENCY = /^\(?\$$/;
/** The end of an amount: a digit, a closing parenthesis of a negative, a percent sign. */
const AMOUNT_END = /(?:\d|\d\)|\)|%)$/;
const BULLET = /^[•◦▪▫●○■□‣∙·➢►✓-]$/;
const CHECKBOX = /^[☐☑☒]$/;

export function renderLine(runs: Run[]): string {
  runs.sort((p, q) => p.x - q.x);
  const [first, ...rest] = runs;
  if (!first) return '';
  let text = first.text;
  let last = first;
  // Gaps are measured from the rightmost ink so far: overlapping runs must not open a column.
  let right = first.x + first.width;
  for (const run of rest) {
    // Fake bold: the same string drawn twice with a tiny offset.
    if (run.text === last.text && Math.abs(run.x - last.x) < 0.3 * run.size) continue;
    const em = (last.size + run.size) / 2;
    text += separator(last, run, (run.x - right) / em, last === first) + run.text;
    last = run;
    right = Math.max(right, run.x + run.width);
  }
  return (
    text
      // An en dash directly before a digit is a minus sign, unless it joins a range ("2019–2021").
      .replace(/(^|[^\d\p{L}])[\u2012\u2013](?=\$?\.?\d)/gu, '$1-')
      .trimEnd()
  );
}

function separator(prev: Run, next: Run, gap: number, first: boolean): string {
  const prevText = prev.text;
  const nextText = next.text;
  const prevNumber = NUMBERISH.test(prevText);
  const nextNumber = NUMBERISH.test(nextText);

  // "$" is printed at the left edge of its column, the amount flush right.
  if (CURRENCY.test(prevText) && /^[(\d.\-–—]/.test(nextText) && gap < CURRENCY_GAP) return ' ';
  if (/^[)%]/.test(nextText) && ENDS_WITH_NUMBER.test(prevText)) {
    // Some tables set the closing sign of every cell in a column of its own a
    // little to the right; it still belongs to the figure.
    const detached =
      /^%\)?$/.test(nextText) || (/^\)%?$/.test(nextText) && unbalancedParen(prevText));
    if (gap < (detached ? DETACHED_CLOSER_GAP : CLOSER_GAP)) return '';
  }
  if (prevText === '(' && /^[\d$.]/.test(nextText) && gap < CLOSER_GAP) return '';
  // A "$" right after an amount can only open the next column, however tight the table.
  if (CURRENCY.test(nextText) && AMOUNT_END.test(prevText) && gap >= CURRENCY_AFTER_NUMBER_GAP) {
    return COLUMN_SEPARATOR;
  }
  // A hanging bullet is list layout, not a column.
  if (first && BULLET.test(prevText) && gap > TOUCH_GAP) return ' ';

  const columnGap =
    prevNumber && nextNumber
      ? NUMBERS_COLUMN_GAP
      : prevNumber || nextNumber
        ? NUMBER_COLUMN_GAP
        : TEXT_COLUMN_GAP;
  if (gap >= columnGap) return COLUMN_SEPARATOR;
  // Form check boxes are drawn tight against their caption.
  if (prev.spaceAfter || next.spaceBefore || CHECKBOX.test(prevText)) return ' ';
  if (gap <= TOUCH_GAP) return '';
  return ' ';
}

function unbalancedParen(s: string): boolean {
  return s.lastIndexOf('(') > s.lastIndexOf(')');
}

const LIGATURES: Record<string, string> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};

export function normalizeChars(s: string): string {
  return (
    s
      .replace(/[\uFB00-\uFB06]/g, (ch) => LIGATURES[ch] ?? ch)
      // Zero-width characters are invisible in print (soft hyphens are handled per line).
      .replace(/[\u200B-\u200D\u2060\uFEFF]/g, '')
      .replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000\t\r\n\f\v]/g, ' ')
      .replace(/[\u2212\uFE63\uFF0D]/g, '-')
      // Glyphs without a Unicode mapping come out as control characters.
      // eslint-disable-next-line no-control-regex -- stripping them is the point
      .replace(/[\u0000-\u001F\u007F\uFFFD]/g, '')
      // Items rarely carry runs of spaces; three or more are alignment padding (a column gap).
      .replace(/ {2,}/g, (run) => (run.length >= 3 ? COLUMN_SEPARATOR : ' '))
  );
}
