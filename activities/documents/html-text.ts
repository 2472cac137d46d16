import { Parser } from 'htmlparser2';

/**
 * HTML to page text in the same layout the PDF extractor produces: one line per block or
 * table row, table cells separated by three spaces, script/style dropped, entities decoded
 * by the parser. A CSS page break (`page-break-before/after`) or <hr> with a page-break class
 * starts a new page, which is how EDGAR HTML filings mark their printed pages.
 */
const BLOCK = new Set([
  'p',
  'div',
  'br',
  'li',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'table',
  'section',
  'article',
  'header',
  'footer',
  'ul',
  'ol',
  'title',
  'blockquote',
  'pre',
]);
const CELL = new Set(['td', 'th']);
const SKIP = new Set(['script', 'style', 'head', 'noscript', 'template']);
const PAGE_BREAK_AFTER = /page-break-after\s*:\s*always/i;
const CELL_MARK = '\uE000';

/** A place in the rendered text: the page (0-based, as stored) and a character offset in it. */
export interface TextPosition {
  page: number;
  offset: number;
}

/**
 * A point in the HTML taken while the text is being built; `position` is filled once the line
 * it fell on is laid out (undefined until then, and for a point on a line that is never laid
 * out, e.g. after the last page).
 */
export interface TextMark {
  position?: TextPosition;
}

/**
 * Sees every element and text node of the same parse that builds the text, after the text pass
 * has handled it, so a mark taken there lands exactly where the element's text is rendered.
 */
export interface HtmlTextObserver {
  onopentag?(name: string, attrs: Record<string, string>, selfClosing: boolean): void;
  /** `visible` is false inside script/style/head, whose text the pages leave out. */
  ontext?(text: string, visible: boolean): void;
  onclosetag?(name: string, implied: boolean): void;
  /** The input is over: what is still open is closed next (a truncated file). */
  onend?(): void;
}

export function htmlToPages(html: string): string[] {
  return renderHtml(html).pages;
}

/**
 * The pages of `htmlToPages` (character for character) plus marks: `mark()` called from an
 * observer's callback returns a point resolved to its page and offset in that text. Lines with
 * no mark take the plain path, so the cost is paid only where something is marked.
 */
export function renderHtml(
  html: string,
  makeObserver?: (mark: () => TextMark) => HtmlTextObserver,
): { pages: string[] } {
  const pages: string[] = [];
  let lines: string[] = [];
  /** Length of the page text laid out so far, counting the newline before the next line. */
  let pageChars = 0;
  let current = '';
  let skipDepth = 0;
  let cellIndex = 0;
  /** Marks taken on the current line, at raw indices into `current`. */
  let lineMarks: { mark: TextMark; raw: number }[] = [];
  /** Marks resolved to an offset on the page being built, waiting for its page number. */
  let pageMarks: { mark: TextMark; offset: number }[] = [];

  const flushLine = () => {
    const t = current
      .replace(/[ \t\u00a0]+/g, ' ')
      .replace(/ {0,2}\uE000 {0,2}/g, '   ')
      .trim();
    if (lineMarks.length > 0) {
      const offsets = mapOffsets(current, t, lineMarks);
      lineMarks.forEach((m, i) => {
        const o = offsets?.[i];
        if (o !== undefined) pageMarks.push({ mark: m.mark, offset: pageChars + o });
      });
      lineMarks = [];
    }
    if (t) {
      lines.push(t);
      pageChars += t.length + 1;
    }
    current = '';
  };
  const flushPage = () => {
    flushLine();
    if (lines.length) {
      const page = pages.length;
      const text = lines.join('\n');
      pages.push(text);
      // A page the final clean-up below would change has no trustworthy offsets.
      if (!/\n{3,}/.test(text))
        for (const m of pageMarks)
          m.mark.position = { page, offset: Math.min(m.offset, text.length) };
    }
    // Marks on an empty page belong to nothing a person sees: left unresolved.
    pageMarks = [];
    lines = [];
    pageChars = 0;
  };
  const mark = (): TextMark => {
    const m: TextMark = {};
    lineMarks.push({ mark: m, raw: current.length });
    return m;
  };
  const observer = makeObserver?.(mark);

  const parser: Parser = new Parser(
    {
      onopentag(name, attrs) {
        if (SKIP.has(name)) skipDepth++;
        const style = (attrs.style ?? '').toLowerCase();
        if (/page-break-(before)\s*:\s*always/.test(style)) flushPage();
        if (BLOCK.has(name)) flushLine();
        // <hr style="page-break-after:always"> and similar close a page after the tag.
        if (name === 'hr' && Object.values(attrs).some((v) => PAGE_BREAK_AFTER.test(v)))
          flushPage();
        if (name === 'tr') cellIndex = 0;
        if (CELL.has(name)) {
          if (cellIndex > 0) current += CELL_MARK;
          cellIndex++;
        }
        // In HTML mode the parser keeps `<x/>` open; the observer is told it closed itself.
        if (observer?.onopentag)
          observer.onopentag(name, attrs, html.charCodeAt(parser.endIndex - 1) === 47);
      },
      ontext(text) {
        if (skipDepth === 0) current += text.replace(/\s+/g, ' ');
        observer?.ontext?.(text, skipDepth === 0);
      },
      onclosetag(name, implied) {
        if (SKIP.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        observer?.onclosetag?.(name, implied);
        if (BLOCK.has(name)) flushLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  observer?.onend?.();
  parser.end();
  flushPage();
  return { pages: pages.map((p) => p.replace(/\n{3,}/g, '\n\n')) };
}

/**
 * Where each raw index of a line lands in its laid-out text: the same three steps as
 * `flushLine` (collapse spaces, widen cell marks, trim), each carrying every output
 * character's raw origin. An index maps to the first output character from at or after it.
 * Returns undefined if the replay does not reproduce `expected` (then nothing is marked).
 */
function mapOffsets(raw: string, expected: string, marks: { raw: number }[]): number[] | undefined {
  let s = raw;
  let origin: number[] = Array.from({ length: raw.length }, (_, i) => i);
  for (const [re, rep] of [
    [/[ \t\u00a0]+/g, ' '],
    [/ {0,2}\uE000 {0,2}/g, '   '],
  ] as const) {
    let out = '';
    const o: number[] = [];
    let last = 0;
    for (const m of s.matchAll(re)) {
      const at = m.index;
      out += s.slice(last, at);
      for (let k = last; k < at; k++) o.push(origin[k] ?? raw.length);
      out += rep;
      for (let k = 0; k < rep.length; k++) o.push(origin[at] ?? raw.length);
      last = at + m[0].length;
    }
    out += s.slice(last);
    for (let k = last; k < s.length; k++) o.push(origin[k] ?? raw.length);
    s = out;
    origin = o;
  }
  const lead = s.length - s.trimStart().length;
  const t = s.trim();
  if (t !== expected) return undefined;
  const kept = origin.slice(lead, lead + t.length);
  return marks.map((m) => {
    // Binary search: origins are non-decreasing.
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((kept[mid] ?? raw.length) < m.raw) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
}
