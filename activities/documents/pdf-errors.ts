/**
 * The typed errors of PDF text extraction (PdfTextError and its codes), and how a pdf.js
 * failure is told apart and turned into one.
 */

export type PdfErrorCode = 'EMPTY' | 'CORRUPT' | 'PASSWORD_PROTECTED' | 'NO_TEXT_LAYER';

export class PdfTextError extends Error {
  readonly code: PdfErrorCode;

  constructor(code: PdfErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PdfTextError';
    this.code = code;
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

export function toOpenError(err: unknown): PdfTextError {
  if (errorName(err) === 'PasswordException') {
    return new PdfTextError('PASSWORD_PROTECTED', 'PDF is encrypted and needs a password to open', {
      cause: err,
    });
  }
  return new PdfTextError('CORRUPT', `PDF could not be parsed: ${errorMessage(err)}`, {
    cause: err,
  });
}

export function errorMessage(err: unknown): string {
  if (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { message?: unknown }).message === 'string'
  ) {
    return (err as { message: string }).message;
  }
  return String(err);
}
