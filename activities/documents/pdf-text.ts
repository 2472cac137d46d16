/**
 * Page-by-page text extraction for SEC filings (10-K, 10-Q, 8-K, earnings
 * releases) on top of pdf.js, with a line/column layout that keeps
 * financial-statement rows on one line: label, then every period column,
 * columns separated by three spaces so they can be split on /\s{2,}/.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfPage {
  /** 0-based page index, as the PDF orders them. */
  page: number;
  text: string;
}

export type PdfErrorCode = 'EMPTY' | 'CORRUPT' | 'PASSWORD_PROTECTED' | 'NO_TEXT_LAYER';

export class PdfTextError extends Error {
  readonly code: PdfErrorCode;

  constructor(code: PdfErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PdfTextError';
    this.code = code;
  }
}

export interface PdfTextOptions {
  /**
   * Called after each page with pages done and total, for activity heartbeats.
   * `pagesDone` counts from the start of the document (a run resumed at page
   * 100 of 250 reports 101, 102, ...), so it can be stored as the resume point.
   */
  onProgress?: (pagesDone: number, pageCount: number) => void;
  /** Resume: skip pages below this 0-based index (they were already stored). */
  fromPage?: number;
}

type PdfJsModule = typeof PdfJs;
type PdfDocument = PdfJs.PDFDocumentProxy;

/** The subset of pdf.js' TextItem that the layout reads. */
interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
}

// ---------------------------------------------------------------------------
// Loading pdf.js
// ---------------------------------------------------------------------------

interface Runtime {
  pdfjs: PdfJsModule;
  /** Uint8Array of the realm pdf.js runs in; its `instanceof` checks reject foreign ones. */
  Bytes: Uint8ArrayConstructor;
  cMapUrl: string;
  standardFontDataUrl: string;
}

let runtimePromise: Promise<Runtime> | undefined;

function loadRuntime(): Promise<Runtime> {
  runtimePromise ??= importRuntime().catch((err: unknown) => {
    // A failed import (e.g. a missing package during a deploy) must not poison
    // every later call in this long-lived worker process.
    runtimePromise = undefined;
    throw err;
  });
  return runtimePromise;
}

/**
 * pdf.js ships only as ESM while this project compiles to CommonJS, where
 * TypeScript would turn `import()` into `require()`; a Function body keeps a
 * real `import()`. Jest evaluates modules in a vm sandbox that rejects such an
 * import (without --experimental-vm-modules), so there the import is compiled
 * in Node's main context with its default ESM loader instead. That path is
 * only a fallback because Node 20 flags it as experimental with a warning.
 */
async function importEsm(url: string): Promise<unknown> {
  const viaFunction = new Function('url', 'return import(url)') as (
    url: string,
  ) => Promise<unknown>;
  try {
    return await viaFunction(url);
  } catch (err) {
    const code =
      typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
    const mainContextLoader = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
    if (
      typeof code !== 'string' ||
      !code.startsWith('ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING') ||
      !mainContextLoader
    ) {
      throw err;
    }
    const viaMainContext = vm.runInThisContext('(url) => import(url)', {
      importModuleDynamically: mainContextLoader,
    }) as (url: string) => Promise<unknown>;
    return viaMainContext(url);
  }
}

async function importRuntime(): Promise<Runtime> {
  const entry = require.resolve('pdfjs-dist/legacy/build/pdf.mjs');
  const pdfjs = (await importEsm(pathToFileURL(entry).href)) as PdfJsModule;
  // Node has no web Worker, so pdf.js parses on this thread through its
  // "fake worker". Loading the worker module up front registers its message
  // handler on globalThis, so pdf.js never has to resolve a worker URL at
  // run time (which breaks once this file is bundled or moved).
  const workerUrl = pathToFileURL(path.join(path.dirname(entry), 'pdf.worker.mjs')).href;
  await importEsm(workerUrl);
  pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

  const packageRoot = path.resolve(path.dirname(entry), '..', '..');
  return {
    pdfjs,
    Bytes: vm.runInThisContext('Uint8Array') as Uint8ArrayConstructor,
    // Without CMaps, text in CID fonts that rely on predefined CMaps decodes to nothing.
    cMapUrl: path.join(packageRoot, 'cmaps') + path.sep,
    standardFontDataUrl: path.join(packageRoot, 'standard_fonts') + path.sep,
  };
}

// ---------------------------------------------------------------------------
// Extraction
// ---------------------------------------------------------------------------

export async function extractPdfText(
  bytes: Uint8Array,
  opts: PdfTextOptions = {},
): Promise<{ pageCount: number; pages: PdfPage[] }> {
  if (!ArrayBuffer.isView(bytes)) {
    throw new TypeError('extractPdfText: bytes must be a Uint8Array');
  }
  if (bytes.byteLength === 0) {
    throw new PdfTextError('EMPTY', 'PDF is empty (0 bytes)');
  }
  const fromPage = normalizeFromPage(opts.fromPage);
  const doc = await openPdf(bytes);

  try {
    const pageCount = doc.numPages;
    const pages: PdfPage[] = [];
    let anyText = false;
    for (let index = fromPage; index < pageCount; index++) {
      const text = await extractPage(doc, index);
      if (text !== '') anyText = true;
      pages.push({ page: index, text });
      opts.onProgress?.(index + 1, pageCount);
    }
    // Only a run that saw every page can tell that the whole document lacks
    // text; a resumed run may be past the pages that had it.
    if (!anyText && fromPage === 0) {
      throw new PdfTextError(
        'NO_TEXT_LAYER',
        pageCount === 0
          ? 'PDF has no pages'
          : `PDF has no text layer on any of its ${pageCount} pages (scanned or image-only; needs OCR)`,
      );
    }
    return { pageCount, pages };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** Opens a PDF with pdf.js, or throws the typed PdfTextError of why it does not open. */
async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const runtime = await loadRuntime();
  // pdf.js keeps (and may transfer) the buffer it is given and rejects Node
  // Buffers; a private copy in its own realm avoids all of that.
  const data = new runtime.Bytes(bytes.byteLength);
  data.set(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const loadingTask = runtime.pdfjs.getDocument({
    data,
    // An empty user password is tried by pdf.js itself; a missing onPassword
    // handler turns "a real password is needed" into a rejected promise.
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
    cMapUrl: runtime.cMapUrl,
    cMapPacked: true,
    standardFontDataUrl: runtime.standardFontDataUrl,
  });
  try {
    return await loadingTask.promise;
  } catch (err) {
    await loadingTask.destroy().catch(() => undefined);
    throw toOpenError(err);
  }
}

function normalizeFromPage(fromPage: number | undefined): number {
  if (fromPage === undefined) return 0;
  if (!Number.isFinite(fromPage)) {
    throw new RangeError(`extractPdfText: fromPage must be a finite number, got ${fromPage}`);
  }
  return Math.max(0, Math.floor(fromPage));
}

async function extractPage(doc: PdfDocument, index: number): Promise<string> {
  let page: PdfJs.PDFPageProxy | undefined;
  try {
    page = await doc.getPage(index + 1);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    return layoutPage(content.items as RawTextItem[], viewport.transform);
  } catch (err) {
    if (err instanceof PdfTextError) throw err;
    throw new PdfTextError('CORRUPT', `PDF page ${index} could not be read: ${errorMessage(err)}`, {
      cause: err,
    });
  } finally {
    // Fonts and parsed content streams are cached per page; a 250-page filing
    // would otherwise hold all of them until the document is destroyed.
    page?.cleanup();
  }
}

/** pdf.js's own exception classes (the `BaseException` subclasses of pdfjs-dist). */
const PDFJS_EXCEPTIONS = new Set([
  'AbortException',
  'DNLMarkerError',
  'EOIMarkerError',
  'FormatError',
  'InvalidPDFException',
  'JpegError',
  'JpxError',
  'MissingDataException',
  'ParserEOFException',
  'PasswordException',
  'RenderingCancelledException',
  'ResponseException',
  'UnknownErrorException',
  'XRefEntryException',
  'XRefParseException',
]);

/**
 * The name of a pdf.js error. pdf.js runs in Node's main realm, so under jest its errors are
 * not `instanceof Error` here: they are recognised by name.
 */
function errorName(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { name?: unknown }).name : undefined;
}

/** An exception pdf.js raised itself (a parse error of the file, not a fault of ours). */
export function isPdfJsException(err: unknown): boolean {
  const name = errorName(err);
  return typeof name === 'string' && PDFJS_EXCEPTIONS.has(name);
}

function toOpenError(err: unknown): PdfTextError {
  if (errorName(err) === 'PasswordException') {
    return new PdfTextError('PASSWORD_PROTECTED', 'PDF is encrypted and needs a password to open', {
      cause: err,
    });
  }
  return new PdfTextError('CORRUPT', `PDF could not be parsed: ${errorMessage(err)}`, {
    cause: err,
  });
}

function errorMessage(err: unknown): string {
  if (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { message?: unknown }).message === 'string'
  ) {
    return (err as { message: string }).message;
  }
  return String(err);
}

// ---------------------------------------------------------------------------
// Layout: text items -> lines -> page text
// ---------------------------------------------------------------------------

/** A text run in a frame where its baseline runs along +x and y grows downwards. */
interface Run {
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

interface Line {
  runs: Run[];
  /** Baseline and size of the largest run: superscripts must not move the line. */
  y: number;
  size: number;
}

/** Share of the smaller run's height that must overlap a line's band to join it outright. */
const LINE_OVERLAP = 0.5;
/** Overlap that still joins a run to the line it overlaps most (0.3 = baselines 0.7 em apart). */
const WEAK_LINE_OVERLAP = 0.3;
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
/** A vertical gap between baselines above this many line heights is a paragraph/table break. */
const BLANK_LINE_GAP = 2.1;

const COLUMN_SEPARATOR = '   ';
const SOFT_HYPHEN = '\u00AD';

function layoutPage(items: readonly RawTextItem[], viewportTransform: readonly number[]): string {
  // Runs are bucketed by reading direction, so that a page drawn rotated by
  // its content stream (common for landscape statement tables) is laid out
  // in its own frame, and a vertical margin label does not shred the body.
  const byDirection = new Map<number, Run[]>();
  for (const item of items) {
    if (typeof item.str !== 'string' || item.str.trim() === '') continue;
    const placed = placeRun(item, viewportTransform);
    if (!placed) continue;
    let bucket = byDirection.get(placed.direction);
    if (!bucket) byDirection.set(placed.direction, (bucket = []));
    bucket.push(placed.run);
  }

  const blocks = [...byDirection.values()]
    .map((runs) => ({ runs, weight: runs.reduce((n, r) => n + r.text.length, 0) }))
    .sort((a, b) => b.weight - a.weight)
    // Blank lines mark paragraph and table breaks of the page body; between
    // the scattered labels of a rotated chart axis they would only be noise.
    .map((block, i) => layoutRuns(block.runs, i === 0))
    .filter((t) => t !== '');
  return blocks.join('\n\n');
}

function placeRun(
  item: RawTextItem,
  vt: readonly number[],
): { direction: number; run: Run } | undefined {
  const t = item.transform;
  const [a0 = 0, b0 = 0, c0 = 0, d0 = 0, e0 = 0, f0 = 0] = t;
  const [va = 1, vb = 0, vc = 0, vd = 1, ve = 0, vf = 0] = vt;
  // Item matrix in display space (viewport applies /Rotate and flips y down).
  const a = va * a0 + vc * b0;
  const b = vb * a0 + vd * b0;
  const c = va * c0 + vc * d0;
  const d = vb * c0 + vd * d0;
  const e = va * e0 + vc * f0 + ve;
  const f = vb * e0 + vd * f0 + vf;

  const size = Math.hypot(c, d) || item.height || Math.hypot(a, b);
  if (!(size > 0) || !Number.isFinite(e) || !Number.isFinite(f)) return undefined;

  const quarterTurns = ((Math.round(Math.atan2(b, a) / (Math.PI / 2)) % 4) + 4) % 4;
  // Rotate the origin back so this direction's baselines run along +x.
  let x: number;
  let y: number;
  switch (quarterTurns) {
    case 0:
      x = e;
      y = f;
      break;
    case 1:
      x = f;
      y = -e;
      break;
    case 2:
      x = -e;
      y = -f;
      break;
    default:
      x = -f;
      y = e;
      break;
  }

  const raw = normalizeChars(item.str);
  const leading = raw.length - raw.trimStart().length;
  const trailing = raw.length - raw.trimEnd().length;
  const text = raw.trim();
  if (text === '') return undefined;
  const width = Math.max(0, item.width);
  // pdf.js reports the advance of the whole string; shift the box to the
  // visible glyphs so gaps are measured between ink, not between spaces.
  const perChar = raw.length > 0 ? width / raw.length : 0;
  return {
    direction: quarterTurns,
    run: {
      text,
      x: x + leading * perChar,
      y,
      width: Math.max(0, width - (leading + trailing) * perChar),
      size,
      spaceBefore: leading > 0,
      spaceAfter: trailing > 0,
    },
  };
}

function layoutRuns(runs: Run[], blankLines: boolean): string {
  runs.sort((p, q) => p.y - q.y || p.x - q.x);

  // Runs that only graze the current line (superscripts between two tightly
  // set header lines, checkboxes centred on two lines, labels set a little
  // above their row's figures) are placed once all lines exist, on the line
  // they overlap most.
  const deferred: Run[] = [];
  const lines = groupLines(runs, deferred);
  const orphans: Run[] = [];
  for (const run of deferred) {
    let best: Line | undefined;
    let bestOverlap = WEAK_LINE_OVERLAP;
    for (const line of lines) {
      const overlap = lineOverlap(line, run);
      if (overlap >= bestOverlap) {
        best = line;
        bestOverlap = overlap;
      }
    }
    if (best) best.runs.push(run);
    else orphans.push(run);
  }
  if (orphans.length > 0) {
    lines.push(...groupLines(orphans, undefined));
    lines.sort((p, q) => p.y - q.y);
  }

  const out: string[] = [];
  let previous: Line | undefined;
  for (const line of lines) {
    const text = renderLine(line.runs);
    if (text === '') continue;
    if (
      blankLines &&
      previous &&
      line.y - previous.y > BLANK_LINE_GAP * Math.max(line.size, previous.size)
    ) {
      out.push('');
    }
    out.push(text);
    previous = line;
  }
  return joinSoftHyphenated(out).join('\n');
}

/**
 * A soft hyphen only prints at a line break, where it splits a word: glue
 * the word back together on the first line. Anywhere else it is invisible.
 */
function joinSoftHyphenated(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const original = lines[i] ?? '';
    let line = original;
    const next = lines[i + 1];
    if (line.endsWith(SOFT_HYPHEN) && next) {
      const word = /^\S+/.exec(next)?.[0];
      if (word) {
        line = line.slice(0, -1) + word;
        const rest = next.slice(word.length).trimStart();
        if (rest === '') i++;
        else lines[i + 1] = rest;
      }
    }
    line = line.replaceAll(SOFT_HYPHEN, '').trimEnd();
    const isBlankMarker = original === '';
    if (line === '' && !isBlankMarker) continue;
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Greedy grouping of runs sorted by baseline; weak matches go to `deferred` when given. */
function groupLines(sorted: readonly Run[], deferred: Run[] | undefined): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const run of sorted) {
    const overlap = current ? lineOverlap(current, run) : 0;
    if (current && overlap >= LINE_OVERLAP) {
      current.runs.push(run);
      // The largest run defines the line, so superscripts cannot drag it up.
      if (run.size > current.size) {
        current.size = run.size;
        current.y = run.y;
      }
    } else if (current && deferred && overlap >= WEAK_LINE_OVERLAP) {
      deferred.push(run);
    } else {
      current = { runs: [run], y: run.y, size: run.size };
      lines.push(current);
    }
  }
  return lines;
}

/** Vertical overlap of the glyph bands (baseline-ascent .. baseline+descent), in units of the smaller one. */
function lineOverlap(line: Line, run: Run): number {
  const top = Math.max(line.y - 0.8 * line.size, run.y - 0.8 * run.size);
  const bottom = Math.min(line.y + 0.2 * line.size, run.y + 0.2 * run.size);
  return (bottom - top) / Math.min(line.size, run.size);
}

/** Amounts, percentages, years, footnote-free placeholders ("—") and bare currency signs. */
const NUMBERISH =
  /^(?:\(?\$ ?)?\(?[-+]?\$?\d[\d,]*(?:\.\d+)?\)?%?\)?$|^\(?\.\d+\)?%?$|^[-–—]+%?$|^\(?\$$|^[)%]+$/;
const ENDS_WITH_NUMBER = /\d[.,]?$|\d\)$/;
const CURRENCY = /^\(?\$$/;
/** The end of an amount: a digit, a closing parenthesis of a negative, a percent sign. */
const AMOUNT_END = /(?:\d|\d\)|\)|%)$/;
const BULLET = /^[•◦▪▫●○■□‣∙·➢►✓-]$/;
const CHECKBOX = /^[☐☑☒]$/;

function renderLine(runs: Run[]): string {
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

function normalizeChars(s: string): string {
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

// ---------------------------------------------------------------------------
// Embedded files
// ---------------------------------------------------------------------------

export interface PdfAttachment {
  filename: string;
  content: Uint8Array;
}

/**
 * The files embedded in a PDF (its EmbeddedFiles name tree: where PDF/A-3 e-invoices such as
 * Factur-X / ZUGFeRD carry their XML). Files over `maxBytes` are left out; a PDF that does not
 * open is the same typed PdfTextError as for its text.
 */
export async function extractPdfAttachments(
  bytes: Uint8Array,
  maxBytes = 10 * 1024 * 1024,
): Promise<PdfAttachment[]> {
  if (bytes.byteLength === 0) throw new PdfTextError('EMPTY', 'PDF is empty (0 bytes)');
  const doc = await openPdf(bytes);
  try {
    const found = ((await doc.getAttachments()) ?? {}) as Record<
      string,
      { filename?: string; content?: Uint8Array }
    >;
    return Object.entries(found).flatMap(([key, a]) =>
      a?.content && a.content.byteLength <= maxBytes
        ? [{ filename: a.filename || key, content: new Uint8Array(a.content) }]
        : [],
    );
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
