/** The files embedded in a PDF (PDF/A-3 e-invoices carry their XML there). */
import { PdfTextError } from './pdf-errors';
import { openPdf } from './pdf-runtime';

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
