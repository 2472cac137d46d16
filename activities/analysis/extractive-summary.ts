import type { Citation } from '../../workflows/analysis/evidence';

/**
 * An extractive summary, code mode: the documents' own sentences that bear most on the
 * question, each cited to its page and offsets, in document order. Nothing is paraphrased,
 * so nothing is said that the filing does not say, and a reviewer checks each line against
 * its span.
 */
export interface SummarySentence {
  text: string;
  citation: Citation;
  score: number;
}

const STOPWORDS = new Set(
  'about above after again against also and any are because been before being below between both but can could did does doing down during each few for from further had has have having her here hers his how into its itself just more most other our ours out over own same she should some such than that the their theirs them then there these they this those through under until very was were what when where which while who whom why will with would you your summarise summarize summary describe explain discuss give list tell show company companys'.split(
    ' ',
  ),
);

/** Lower-case stems of the question's content words ("weaknesses" → "weakn"). */
export function questionStems(question: string): string[] {
  const words = question.toLowerCase().match(/[a-z][a-z-]{2,}/g) ?? [];
  return [...new Set(words.filter((w) => !STOPWORDS.has(w)).map((w) => w.slice(0, 5)))];
}

/**
 * Sentences of a page with their offsets. Filings are hard-wrapped, so a single line break
 * does not end a sentence; a blank line does, and so does the end of a short line without
 * closing punctuation (a heading such as "Liquidity and Capital Resources").
 */
function sentencesOf(text: string): { start: number; end: number }[] {
  const segments: { start: number; end: number }[] = [];
  let segStart = 0;
  const lineRe = /[^\n]*(\n|$)/g;
  for (let m = lineRe.exec(text); m && m[0].length > 0; m = lineRe.exec(text)) {
    const line = m[0].trim();
    const end = m.index + m[0].length;
    const heading = line.length > 0 && line.length < 60 && !/[.!?:;,]$/.test(line);
    if (line.length === 0 || heading) {
      segments.push({ start: segStart, end: heading ? end : m.index });
      segStart = end;
    }
  }
  segments.push({ start: segStart, end: text.length });
  const out: { start: number; end: number }[] = [];
  for (const seg of segments) {
    const body = text.slice(seg.start, seg.end);
    // A stop inside a number or an abbreviation ("1,577.5", "U.S.") does not end a sentence.
    const re = /(?:[^.!?]|[.!?](?!\s|$))+(?:[.!?]+|$)/g;
    for (let m = re.exec(body); m && m[0].length > 0; m = re.exec(body)) {
      const lead = m[0].length - m[0].trimStart().length;
      const start = seg.start + m.index + lead;
      const end = seg.start + m.index + m[0].trimEnd().length;
      if (end > start) out.push({ start, end });
    }
  }
  return out;
}

/** A sentence a reader can take alone: words, not a table row or a page header. */
function readable(s: string): boolean {
  if (s.length < 40 || s.length > 400) return false;
  const letters = (s.match(/[A-Za-z]/g) ?? []).length;
  const digits = (s.match(/\d/g) ?? []).length;
  return letters / s.length > 0.6 && digits / s.length < 0.15 && /\s/.test(s);
}

export function extractiveSummary(
  question: string,
  docs: { docId: string; pages: { page: number; text: string }[] }[],
  maxSentences = 5,
): SummarySentence[] {
  const stems = questionStems(question);
  if (stems.length === 0) return [];
  const found: (SummarySentence & { order: number })[] = [];
  let order = 0;
  for (const d of docs)
    for (const p of d.pages)
      for (const s of sentencesOf(p.text)) {
        const text = p.text.slice(s.start, s.end);
        order++;
        if (!readable(text)) continue;
        const lower = text.toLowerCase();
        const score = stems.filter((st) => lower.includes(st)).length;
        if (score === 0) continue;
        found.push({
          text,
          score,
          order,
          citation: {
            docId: d.docId,
            page: p.page,
            charStart: s.start,
            charEnd: s.end,
            quote: text,
          },
        });
      }
  // The best-scoring sentences, one copy of each (filings repeat boilerplate), read in order.
  const seen = new Set<string>();
  return found
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .filter((s) => {
      const key = s.text.replace(/\s+/g, ' ').toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, maxSentences)
    .sort((a, b) => a.order - b.order)
    .map(({ text, citation, score }) => ({ text, citation, score }));
}
