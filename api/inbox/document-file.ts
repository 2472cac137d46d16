/**
 * The headers a stored original is served with. Its stored type is sent as is when it is a
 * plain type token (else as bytes to download), never sniffed into another; markup (HTML,
 * XHTML, XML, SVG) is opened under CSP `sandbox` — a unique origin, no script, no forms, no
 * access to the inbox's cookies — with nothing loaded from anywhere. A PDF opens inline in
 * the browser's viewer (which a sandbox would refuse to run) and is what pdf.js fetches.
 */
const MIME_TOKEN = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
const MARKUP =
  /^(text\/html|application\/xhtml\+xml|text\/xml|application\/xml|image\/svg\+xml|application\/[a-z0-9.+-]*\+xml)$/;

/** Markup opens sandboxed; only what it carries inline (styles, data: images) is drawn. */
export const SANDBOXED_FILE_CSP =
  "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'";

export function isMarkup(mimeType: string): boolean {
  return MARKUP.test(mimeType.toLowerCase());
}

export function documentFileHeaders(mimeType: string, title: string): Record<string, string> {
  const type = mimeType.trim().toLowerCase();
  const known = MIME_TOKEN.test(type);
  const markup = known && isMarkup(type);
  const textual = type.startsWith('text/') || markup;
  // The title as a filename: printable ASCII only, quotes and backslashes left out.
  const filename = title.replace(/[^\x20-\x7e]|["\\]/g, '_').slice(0, 120) || 'document';
  return {
    'content-type': known
      ? `${type}${textual ? '; charset=utf-8' : ''}`
      : 'application/octet-stream',
    'content-disposition': `${known ? 'inline' : 'attachment'}; filename="${filename}"`,
    'x-content-type-options': 'nosniff',
    'cache-control': 'private, no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // Not framed either way; the PDF viewer is left to run (a sandbox stops it drawing).
    'content-security-policy': markup ? SANDBOXED_FILE_CSP : "frame-ancestors 'none'",
  };
}
