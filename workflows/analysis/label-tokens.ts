/**
 * The label agreement check's reading of text (label-agreement.ts): the tokenizer and crude
 * stemmer, the asking part of a question, the head phrase found in it, and the options the
 * check is called with. Pure, workflow-safe.
 */
import { LABEL_SYNONYMS, NUMBER_WORDS } from './label-words';

export interface Tok {
  raw: string;
  norm: string;
  stem: string;
  possessive: boolean;
  capitalized: boolean;
  /** Punctuation or a clause end right after this token. */
  breakAfter: boolean;
  /** A year, a fiscal-year tag or a number: never a qualifier, and a phrase boundary. */
  numeric: boolean;
}

/** A crude English stem: enough to equate taxes/tax, payments/payment, products/product. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  if (w.length > 4 && w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(w)) return w;
  if (w.length > 3 && /(?:x|ch|sh|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith('s')) return w.slice(0, -1);
  return w;
}

export function tokenize(text: string, opts: LabelCheckOptions = {}): Tok[] {
  const out: Tok[] = [];
  const re = /[A-Za-z0-9&][A-Za-z0-9&'’.]*[A-Za-z0-9'’]|[A-Za-z0-9]|[,;:?!()"]/g;
  for (const m of text.replace(/[-–/]/g, ' ').matchAll(re)) {
    const piece = m[0];
    if (/^[,;:?!()"]$/.test(piece)) {
      const last = out[out.length - 1];
      if (last) last.breakAfter = true;
      continue;
    }
    let raw = piece.replace(/’/g, "'");
    let breakAfter = false;
    if (raw.endsWith('.')) {
      raw = raw.slice(0, -1);
      breakAfter = true;
    }
    const possessive = /'s?$/i.test(raw) && !/^\w'\w$/.test(raw);
    const bare = raw.replace(/'s?$/i, '');
    const norm = bare.toLowerCase().replace(/\.$/, '');
    if (norm === '') continue;
    out.push({
      raw: bare,
      norm,
      stem: stem(norm),
      possessive,
      capitalized: /^[A-Z]/.test(bare),
      breakAfter,
      // A quarter or half-year tag ("Q2", "H1") names a period, like a year (runs recorded
      // before this was read replay with the earlier reading: LabelCheckOptions).
      numeric:
        /^(?:fy|q[1-4])?'?\d+$|^\d/.test(norm) ||
        (opts.periodTags === true && /^(?:q[1-4]|h[12])$/.test(norm)) ||
        NUMBER_WORDS.has(norm),
    });
  }
  return out;
}

export function stemsOf(text: string): string[] {
  return tokenize(text).map((t) => t.stem);
}

export function synonymsOf(s: string): string[] {
  const group = LABEL_SYNONYMS.find((g) => g.includes(s));
  return group ? [...group] : [s];
}

/**
 * The part of the question that names what is asked: the first sentence that asks (a
 * question word, no "=" definition), before any "defined as" clause.
 */
export function askingPart(question: string): string {
  const sentences = question.split(/(?<=\?)\s+|\.\s+(?=[A-Z])/).filter((x) => x.trim() !== '');
  const asking =
    sentences.find(
      (x) =>
        /\b(?:what|how|calculate|compute|find|determine|give|report)\b/i.test(x) &&
        !x.includes('='),
    ) ??
    sentences[0] ??
    question;
  const noDef =
    asking.split(
      /\b(?:is|are)?\s*(?:defined|calculated|computed|measured|taken) as\b|\bdefine\b|\bwhere\b|\bi\.e\./i,
    )[0] ?? asking;
  // "(in USD millions)" and similar parentheticals give units, never the line item.
  return noDef.replace(/\([^)]*\)/g, ' , ');
}

export interface HeadMatch {
  start: number;
  end: number; // exclusive
}

export function findHead(toks: Tok[], phrases: readonly string[]): HeadMatch | null {
  let best: HeadMatch | null = null;
  const stemsSeq = toks.map((t) => t.stem);
  const sorted = [...new Set(phrases.map((p) => p.toLowerCase().replace(/\s\*$/, '').trim()))]
    .map((p) => stemsOf(p))
    .filter((p) => p.length > 0);
  for (const p of sorted) {
    for (let i = 0; i + p.length <= stemsSeq.length; i++) {
      let hit = true;
      for (let j = 0; j < p.length; j++) {
        if (stemsSeq[i + j] !== p[j]) {
          hit = false;
          break;
        }
        // A phrase cannot span a clause break.
        if (j < p.length - 1 && toks[i + j]!.breakAfter) {
          hit = false;
          break;
        }
      }
      if (!hit) continue;
      if (
        !best ||
        p.length > best.end - best.start ||
        (p.length === best.end - best.start && i < best.start)
      )
        best = { start: i, end: i + p.length };
    }
  }
  return best;
}

export function isFiler(t: Tok, filer: ReadonlySet<string>): boolean {
  return t.capitalized && filer.has(t.norm);
}

export interface LabelCheckOptions {
  /** "Q2", "H1" are period tags, never qualifiers (the workflow's patch 'label-period-tags'). */
  periodTags?: boolean;
  /**
   * Read the question's clause too: the phrase after what/how much, a part of the filer as
   * subject, a pay verb (the workflow's patch 'label-agreement-clause'; default on).
   */
  clause?: boolean;
  /**
   * "How much higher or lower was X", "more or less": the words ask for the direction of a
   * change, never a qualifier of the line item (the workflow's patch 'label-comparatives').
   */
  comparatives?: boolean;
  /**
   * "As a share of net sales", "as a proportion of revenue": the words ask for a ratio to the
   * named base, like "as a percentage of", never a qualifier of the line item (the workflow's
   * patch 'label-share-of').
   */
  shareOf?: boolean;
  /**
   * Over several rows read (a computed definition): "plus", "less", "divided by", "exceed"
   * join two operands, and "what share of" asks for the quotient, never a qualifier of a row
   * (the workflow's patch 'label-definition-words').
   */
  definitionWords?: boolean;
}
