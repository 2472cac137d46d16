import iconv from 'iconv-lite';
import { StatementParseError } from './statement';

/**
 * Bytes → text in the encoding a file declares. UTF-8 is decoded strictly (an invalid byte is
 * refused with its line, never replaced by U+FFFD and imported as garbage); single-byte code
 * pages go through iconv-lite.
 */
export function decodeText(bytes: Uint8Array, encoding: string): string {
  const enc = normalizeEncoding(encoding);
  if (enc === 'utf-8' || enc === 'us-ascii') {
    try {
      // Files that say ASCII but carry UTF-8 are common, so ASCII is read as UTF-8.
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      const at = firstInvalidUtf8(bytes);
      const line = bytes.subarray(0, at).reduce((n, b) => (b === 10 ? n + 1 : n), 1);
      throw new StatementParseError(
        'Encoding',
        line,
        `invalid ${enc === 'us-ascii' ? 'ASCII/UTF-8' : 'UTF-8'} byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at offset ${at}`,
      );
    }
  }
  if (!iconv.encodingExists(enc)) {
    throw new StatementParseError('Encoding', null, `unsupported text encoding "${encoding}"`);
  }
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), enc);
}

export function normalizeEncoding(encoding: string): string {
  const e = encoding.trim().toLowerCase().replace(/_/g, '-');
  if (e === 'utf8' || e === 'utf-8') return 'utf-8';
  if (e === 'usascii' || e === 'us-ascii' || e === 'ascii') return 'us-ascii';
  if (/^\d{3,4}$/.test(e)) return `windows-${e}`;
  if (e === 'latin1' || e === 'latin-1') return 'iso-8859-1';
  return e;
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    let n = 0;
    if (b < 0x80) n = 0;
    else if (b >= 0xc2 && b <= 0xdf) n = 1;
    else if (b >= 0xe0 && b <= 0xef) n = 2;
    else if (b >= 0xf0 && b <= 0xf4) n = 3;
    else return i;
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += n + 1;
  }
  return Math.max(0, bytes.length - 1);
}
