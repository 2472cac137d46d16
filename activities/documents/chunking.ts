/**
 * Splits a page into retrieval chunks on line boundaries, so a statement-table row is never
 * cut in two. Offsets index into the page text; the chunk text is that exact slice.
 */
export interface Chunk {
  chunkIndex: number;
  charStart: number;
  charEnd: number;
  text: string;
}

export function chunkPage(text: string, targetChars = 1200): Chunk[] {
  const out: Chunk[] = [];
  let start = 0;
  while (start < text.length) {
    // Skip leading newlines so a chunk starts on content.
    while (start < text.length && text[start] === '\n') start++;
    if (start >= text.length) break;
    let end = Math.min(text.length, start + targetChars);
    if (end < text.length) {
      const nl = text.lastIndexOf('\n', end);
      if (nl > start + targetChars / 3) end = nl;
      else {
        const next = text.indexOf('\n', end);
        end = next === -1 ? text.length : next;
      }
    }
    const slice = text.slice(start, end);
    if (slice.trim().length > 0)
      out.push({ chunkIndex: out.length, charStart: start, charEnd: end, text: slice });
    start = end;
  }
  return out;
}
