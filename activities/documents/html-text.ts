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

export function htmlToPages(html: string): string[] {
  const pages: string[] = [];
  let lines: string[] = [];
  let current = '';
  let skipDepth = 0;
  let cellIndex = 0;

  const flushLine = () => {
    const t = current
      .replace(/[ \t\u00a0]+/g, ' ')
      .replace(/ {0,2}\uE000 {0,2}/g, '   ')
      .trim();
    if (t) lines.push(t);
    current = '';
  };
  const flushPage = () => {
    flushLine();
    if (lines.length) pages.push(lines.join('\n'));
    lines = [];
  };

  const parser = new Parser(
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
          if (cellIndex > 0) current += '\uE000';
          cellIndex++;
        }
      },
      ontext(text) {
        if (skipDepth === 0) current += text.replace(/\s+/g, ' ');
      },
      onclosetag(name) {
        if (SKIP.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        if (BLOCK.has(name)) flushLine();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flushPage();
  return pages.map((p) => p.replace(/\n{3,}/g, '\n\n'));
}
