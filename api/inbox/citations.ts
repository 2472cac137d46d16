import { z } from 'zod';
import { FactRefSchema, type Citation } from '../../workflows/analysis/evidence';

/**
 * A cited span as a reviewer checks it: a little of the page around it, the span itself, and
 * inside the span the number the claim rests on. Only the span is highlighted (not the page),
 * and only the printed number is marked inside it.
 */
export const HighlightedCitationSchema = z.object({
  docId: z.string(),
  page: z.number().int(),
  charStart: z.number().int(),
  charEnd: z.number().int(),
  /** Page text before the span (at most CONTEXT_CHARS). */
  before: z.string(),
  /** The span, split where the claimed number is ('' number: none printed in it). */
  spanBefore: z.string(),
  number: z.string(),
  spanAfter: z.string(),
  /** Page text after the span (at most CONTEXT_CHARS). */
  after: z.string(),
  /** The inline XBRL fact the marked number is (its concept, period and id), when it is one. */
  fact: FactRefSchema.optional(),
  /** The cited document's stored type: a PDF's page is drawn by pdf.js beside the text. */
  mimeType: z.string().optional(),
});
export type HighlightedCitation = z.infer<typeof HighlightedCitationSchema>;

const CONTEXT_CHARS = 160;

/** The span in a window of its page (`context` characters each side; Infinity: the whole page). */
export function highlight(
  pageText: string,
  c: Citation,
  printed: string | null,
  context: number = CONTEXT_CHARS,
): HighlightedCitation {
  const charStart = Math.min(c.charStart, pageText.length);
  const charEnd = Math.min(Math.max(c.charEnd, charStart), pageText.length);
  const span = pageText.slice(charStart, charEnd);
  const at = printed ? span.indexOf(printed) : -1;
  const [nStart, nEnd] =
    at >= 0 ? [at, at + (printed as string).length] : [span.length, span.length];
  // Context stops at a word boundary, so a reader never sees half a word at either edge.
  const from = Math.max(0, charStart - context);
  const to = Math.min(pageText.length, charEnd + context);
  const before = pageText.slice(from, charStart).replace(from > 0 ? /^\S*\s/ : /^$/, '');
  const after = pageText.slice(charEnd, to).replace(to < pageText.length ? /\s\S*$/ : /^$/, '');
  return {
    docId: c.docId,
    page: c.page,
    charStart,
    charEnd,
    before,
    spanBefore: span.slice(0, nStart),
    number: span.slice(nStart, nEnd),
    spanAfter: span.slice(nEnd),
    after,
    ...(c.fact ? { fact: c.fact } : {}),
  };
}

/** The stored quote alone, when the page text is not there (a document deleted since). */
export function quoteOnly(c: Citation, printed: string | null): HighlightedCitation {
  return highlight(c.quote, { ...c, charStart: 0, charEnd: c.quote.length }, printed);
}
