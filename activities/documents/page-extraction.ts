import { ErrorType } from '../../workflows/errors';
import { MAX_DOCUMENT_BYTES } from '../../workflows/input-bounds';
import { extractPdfText, PdfTextError } from './pdf-text';
import { htmlToPages } from './html-text';
import {
  DEFAULT_INLINE_XBRL_LIMITS,
  hasInlineXbrl,
  parseInlineXbrl,
  type InlineXbrlResult,
} from './inline-xbrl';
import { textToPages } from './text-pages';

/** Why a document cannot be read: permanent, never retried (the same bytes fail the same way). */
export class ExtractionRefusal extends Error {
  override readonly name = 'ExtractionRefusal';
  constructor(
    readonly errorType: ErrorType,
    message: string,
  ) {
    super(message);
  }
}

const PDF_ERROR_TYPES = {
  EMPTY: ErrorType.EmptyDocument,
  CORRUPT: ErrorType.CorruptDocument,
  PASSWORD_PROTECTED: ErrorType.PasswordProtected,
  NO_TEXT_LAYER: ErrorType.NoTextLayer,
} as const;

/** A filing's inline XBRL as read with its pages (all pages' facts, whatever `fromPage`). */
export type InlineXbrlExtract =
  | { status: 'text-only'; reason: string; factElements: number }
  | (Omit<Extract<InlineXbrlResult, { status: 'facts' }>, 'pages'> & { status: 'facts' });

export interface ExtractedPages {
  pageCount: number;
  pages: { page: number; text: string }[];
  /** Present for HTML with inline XBRL markup. */
  inlineXbrl?: InlineXbrlExtract;
}

/**
 * HTML pages, with the inline XBRL facts read in the same pass when the filing declares the
 * namespace. The pages are the same either way; a failure of the fact reading (a parser bug on
 * a hostile file) leaves a text-only ingestion with the reason, never a refused document.
 */
function htmlPages(
  text: string,
  maxFacts: number,
): { all: string[]; inlineXbrl?: InlineXbrlExtract } {
  if (!hasInlineXbrl(text)) return { all: htmlToPages(text) };
  let r: InlineXbrlResult;
  try {
    r = parseInlineXbrl(text, { ...DEFAULT_INLINE_XBRL_LIMITS, maxFacts });
  } catch (err) {
    return {
      all: htmlToPages(text),
      inlineXbrl: {
        status: 'text-only',
        reason: `The inline XBRL could not be read: ${err instanceof Error ? err.message : String(err)}`,
        factElements: 0,
      },
    };
  }
  if (r.status === 'none') return { all: r.pages };
  if (r.status === 'text-only')
    return {
      all: r.pages,
      inlineXbrl: { status: 'text-only', reason: r.reason, factElements: r.factElements },
    };
  const { pages, ...facts } = r;
  return { all: pages, inlineXbrl: facts };
}

/**
 * The text of every page from `fromPage` on. Runs inside the extraction worker thread
 * (isolated-extraction.ts), which bounds its time and memory; every text path here is linear
 * in the input.
 */
export async function extractPages(
  mimeType: string,
  bytes: Uint8Array,
  fromPage: number,
  onProgress: (done: number, total: number) => void,
  opts: { maxFacts?: number } = {},
): Promise<ExtractedPages> {
  if (bytes.byteLength === 0)
    throw new ExtractionRefusal(ErrorType.EmptyDocument, 'The file is empty');
  // A document stored by another path than ingestFile is bounded here too: never retried.
  if (bytes.byteLength > MAX_DOCUMENT_BYTES)
    throw new ExtractionRefusal(
      ErrorType.UnsupportedDocument,
      `The file is ${bytes.byteLength} bytes; documents are at most ${MAX_DOCUMENT_BYTES} bytes`,
    );
  if (mimeType === 'application/pdf') {
    try {
      return await extractPdfText(bytes, { fromPage, onProgress });
    } catch (err) {
      if (err instanceof PdfTextError)
        throw new ExtractionRefusal(PDF_ERROR_TYPES[err.code], err.message);
      throw err;
    }
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.includes('\u0000'))
    throw new ExtractionRefusal(ErrorType.CorruptDocument, `Binary content in a ${mimeType} file`);
  const { all, inlineXbrl } =
    mimeType === 'text/html' || mimeType === 'application/xhtml+xml'
      ? htmlPages(text, opts.maxFacts ?? DEFAULT_INLINE_XBRL_LIMITS.maxFacts)
      : { all: textToPages(text), inlineXbrl: undefined };
  if (all.every((p) => p.trim() === ''))
    throw new ExtractionRefusal(ErrorType.EmptyDocument, 'The document has no text');
  const pages = all.map((t, page) => ({ page, text: t })).filter((p) => p.page >= fromPage);
  onProgress(all.length, all.length);
  return inlineXbrl
    ? { pageCount: all.length, pages, inlineXbrl }
    : { pageCount: all.length, pages };
}
