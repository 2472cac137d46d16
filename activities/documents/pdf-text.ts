/**
 * Page-by-page text extraction for SEC filings (10-K, 10-Q, 8-K, earnings
 * releases) on top of pdf.js, with a line/column layout that keeps
 * financial-statement rows on one line: label, then every period column,
 * columns separated by three spaces so they can be split on /\s{2,}/.
 */
import type * as PdfJs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { errorMessage, PdfTextError } from './pdf-errors';
import { layoutPage, type RawTextItem } from './pdf-layout';
import { openPdf, type PdfDocument } from './pdf-runtime';

export { isPdfJsException, PdfTextError, type PdfErrorCode } from './pdf-errors';
export { extractPdfAttachments, type PdfAttachment } from './pdf-attachments';

export interface PdfPage {
  /** 0-based page index, as the PDF orders them. */
  page: number;
  text: string;
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
