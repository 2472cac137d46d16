import { z } from 'zod';

/**
 * The label agreement check: the row extraction read must be the thing the question asks
 * for. The answer-form contract checks the kind, scale and operation of the answer; nothing
 * there checks that "discount revenue" was not answered from "Total revenues".
 *
 * The rules are lexical and generic, so that they hold on filings never seen:
 *
 * 1. The question's **head phrase** is the longest phrase of the catalog entry extraction
 *    used (its question phrases, its known row labels, its name) found in the question.
 *    The head itself is not compared with the row label: extraction only reads rows whose
 *    label is one of the catalog's known labels for that entry, so "revenue" read from
 *    "Net sales" is the catalog's documented alias, not a disagreement.
 * 2. The head's **qualifiers** are the words of the same noun phrase the head does not
 *    cover: to its left up to a determiner, a question word, a year or the filer's own
 *    name ("cash paid for income taxes", "other unallocated cost of sales", "the F-35
 *    program's revenue"), a conjunct to its right ("sales and marketing"), and a
 *    prepositional complement to its right ("revenue from products", "income available to
 *    common shareholders"). Words that never change the line item (total, amount, fiscal,
 *    reported…) and complements that name the source ("in the income statement") are not
 *    qualifiers.
 * 3. Every qualifier must be **supported** by every row label read (or its table heading):
 *    the same token, the same stem, or a member of the same group in the small synonym table
 *    below (accounting vocabulary only: never company names, ids or answers).
 * 4. An unsupported qualifier sends the answer to review with the exact reason; when another
 *    row on the cited page carries the qualifier, the reason names it.
 *
 * When no head phrase is found in the question the check does not run (`not_checked`): it
 * only ever refuses, it never delivers.
 */
export const LabelReadSchema = z.object({
  /** The catalog metric whose row was read. */
  metric: z.string(),
  /** The row label as extraction matched it (the joined heading + row when it used both). */
  label: z.string(),
  /** The statement or table title the row sits under, when known. */
  heading: z.string().nullable(),
  page: z.number().int().min(0),
});
export type LabelRead = z.infer<typeof LabelReadSchema>;

export const LabelEvidenceSchema = z.object({
  question: z.string(),
  /** The catalog entry extraction used (metric or formula name): its own words are not qualifiers. */
  entry: z.string(),
  /** Whether the entry is a formula over several different rows (not one line item). */
  formula: z.boolean().default(false),
  /** Phrases the catalog accepts for the entry extraction used (metric or formula). */
  catalogPhrases: z.array(z.string()).max(200),
  /** Every printed row the answer was read from or computed from. */
  read: z.array(LabelReadSchema).max(20),
  /** Words naming the filer (from the filing's cover page): a possessive owner, never a qualifier. */
  filerWords: z.array(z.string()).max(400),
  /** Row labels printed on the cited pages, to name a row that does carry a missing qualifier. */
  pageLabels: z.array(z.object({ page: z.number().int().min(0), label: z.string() })).max(600),
});
export type LabelEvidence = z.infer<typeof LabelEvidenceSchema>;

export const LabelCheckSchema = z.object({
  ok: z.boolean(),
  status: z.enum(['agree', 'mismatch', 'not_checked']),
  /** The asked phrase: qualifiers and head, as the question words them. */
  asked: z.string().nullable(),
  head: z.string().nullable(),
  qualifiers: z.array(z.string()),
  /** Qualifiers some read label does not support. */
  unsupported: z.array(z.string()),
  read: z.array(z.string()),
  reasons: z.array(z.string()),
});
export type LabelCheck = z.infer<typeof LabelCheckSchema>;

/**
 * Accounting synonyms: words that name the same thing in questions and row labels. Each
 * group is symmetric; a qualifier is supported when the label has any word of its group.
 */
export const LABEL_SYNONYMS: readonly (readonly string[])[] = [
  ['shareholder', 'stockholder', 'shareowner', 'owner'],
  ['available', 'attributable', 'applicable'],
  ['paid', 'payment', 'pay'],
  ['received', 'receipt', 'proceed'],
  ['purchase', 'acquisition', 'addition', 'expenditure', 'investment'],
  ['repurchase', 'buyback'],
  ['sale', 'revenue'],
  ['earning', 'income', 'profit'],
  ['expense', 'cost', 'charge', 'provision'],
  ['tax', 'taxation'],
  ['product', 'merchandise', 'good'],
  ['service', 'service'],
  ['sg', 'selling', 'administrative', 'sga'],
  ['r', 'research', 'rd'],
];

/**
 * Words that never change which line item is meant: a question may add them freely. "net"
 * is here because catalog labels differ on it ("revenues" / "net revenues") for the same line.
 */
export const NEUTRAL_WORDS: ReadonlySet<string> = new Set([
  'total',
  'amount',
  'value',
  'figure',
  'number',
  'reported',
  'recorded',
  'stated',
  'consolidated',
  'net',
  'gaap',
  'overall',
  'annual',
  'yearly',
  'full',
  'fiscal',
  'year',
  'quarter',
  'quarterly',
  'period',
  'ended',
  'ending',
  'end',
  'usd',
  'dollar',
  'million',
  'billion',
  'thousand',
  'percent',
  'percentage',
  'approximate',
  'approximately',
  'company',
  'firm',
  'entire',
  'respective',
  'actual',
  'unadjusted',
  'level',
  'balance',
  'absolute',
  'change',
  'growth',
  'increase',
  'decrease',
  'average',
  'sum',
  'combined',
  'cumulative',
  'changed',
  'averaged',
  'increased',
  'decreased',
  'grew',
  'declined',
  'across',
  'recognized',
  'recognised',
  'incurred',
  'realized',
  'disclosed',
  'shown',
  'presented',
  'listed',
  'included',
  'compound',
  'compounded',
  'cagr',
  'spend',
  'spent',
  'spending',
  'aggregate',
  'yoy',
  'over',
  'ratio',
  'rate',
]);

/** Words that end a noun phrase walking left from the head. */
const LEFT_STOPS: ReadonlySet<string> = new Set([
  'what',
  'which',
  'how',
  'much',
  'many',
  'was',
  'were',
  'is',
  'are',
  'be',
  'been',
  'did',
  'does',
  'do',
  'the',
  'a',
  'an',
  'its',
  'their',
  'this',
  'that',
  'in',
  'on',
  'at',
  'by',
  'during',
  'between',
  'and',
  'or',
  'calculate',
  'compute',
  'find',
  'give',
  'report',
  'state',
  'provide',
  'show',
  'using',
  'use',
  'based',
  'as',
  'per',
  'with',
]);
/** Prepositions that join a left qualifier to the head ("cash paid for income taxes"). */
const LEFT_JOINS: ReadonlySet<string> = new Set(['for', 'of', 'from', 'to', 'on']);
/** Prepositions that open a qualifying complement to the right of the head. */
const RIGHT_OPENERS: ReadonlySet<string> = new Set([
  'from',
  'of',
  'for',
  'in',
  'within',
  'attributable',
  'available',
  'applicable',
  'generated',
  'at',
]);
/** A right complement naming one of these is the source or the period, not the line item. */
const SOURCE_WORDS: ReadonlySet<string> = new Set([
  'statement',
  'sheet',
  'note',
  'table',
  'report',
  'filing',
  'disclosure',
  'year',
  'quarter',
  'period',
  'fiscal',
  'company',
  'business',
  'firm',
  'total',
  'fy',
  'month',
  'week',
  'close',
  'closing',
  'end',
  'beginning',
  'start',
  'opening',
  'date',
  'day',
]);
const RIGHT_SKIP: ReadonlySet<string> = new Set(['the', 'its', 'their', 'to', 'by', 'a', 'an']);

/** Counts, ordinals and month names: period words, never a line item's qualifier. */
const NUMBER_WORDS: ReadonlySet<string> = new Set(
  (
    'one two three four five six seven eight nine ten first second third fourth fifth ' +
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec'
  ).split(' '),
);

interface Tok {
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

function tokenize(text: string, opts: LabelCheckOptions = {}): Tok[] {
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

function stemsOf(text: string): string[] {
  return tokenize(text).map((t) => t.stem);
}

function synonymsOf(s: string): string[] {
  const group = LABEL_SYNONYMS.find((g) => g.includes(s));
  return group ? [...group] : [s];
}

/**
 * The part of the question that names what is asked: the first sentence that asks (a
 * question word, no "=" definition), before any "defined as" clause.
 */
function askingPart(question: string): string {
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

interface HeadMatch {
  start: number;
  end: number; // exclusive
}

function findHead(toks: Tok[], phrases: readonly string[]): HeadMatch | null {
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

function isFiler(t: Tok, filer: ReadonlySet<string>): boolean {
  return t.capitalized && filer.has(t.norm);
}

/**
 * The arithmetic a definition is written in ("A plus B", "A less B", "A divided by B", "did A
 * exceed B"): words that join two operands. Where extraction computed from several rows, they
 * end an operand's noun phrase and never qualify it.
 */
const OPERATOR_WORDS: ReadonlySet<string> = new Set([
  'plus',
  'less',
  'minus',
  'times',
  'divided',
  'multiplied',
  'exceed',
  'exceeds',
  'exceeded',
]);

/** "What share of X was Y": the word names the quotient asked, not a qualifier of X or Y. */
const QUOTIENT_NOUNS: ReadonlySet<string> = new Set(['share', 'proportion', 'fraction', 'portion']);

/** The qualifier tokens (indices) of the head's noun phrase. */
function qualifierIndices(
  toks: Tok[],
  head: HeadMatch,
  filer: ReadonlySet<string>,
  operators = false,
): number[] {
  const picked: number[] = [];
  // Left: up to a stop word, a year, a clause break or the filer's possessive name (or, over
  // several rows, an operator joining this operand to the one before).
  for (let i = head.start - 1; i >= 0; i--) {
    const t = toks[i]!;
    if (t.breakAfter || t.numeric || isFiler(t, filer)) break;
    if (operators && OPERATOR_WORDS.has(t.norm)) break;
    if (LEFT_JOINS.has(t.norm)) {
      const before = toks[i - 1];
      if (
        !before ||
        before.breakAfter ||
        before.numeric ||
        LEFT_STOPS.has(before.norm) ||
        LEFT_JOINS.has(before.norm) ||
        isFiler(before, filer)
      )
        break;
      continue;
    }
    if (LEFT_STOPS.has(t.norm)) break;
    picked.push(i);
  }
  // Right: "A and B" makes another line item; "A from/of/for/in X" qualifies A.
  let i = head.end;
  if (i > 0 && toks[i - 1]!.breakAfter) return picked.sort((a, b) => a - b);
  const next = toks[i];
  if (next && next.norm === 'and') {
    const conj = toks[i + 1];
    if (conj && !conj.numeric && !LEFT_STOPS.has(conj.norm) && !isFiler(conj, filer))
      picked.push(i + 1);
  } else if (
    next &&
    !next.breakAfter &&
    !(operators && OPERATOR_WORDS.has(next.norm)) &&
    (RIGHT_OPENERS.has(next.norm) || isParticiple(next))
  ) {
    const group: number[] = [];
    // "came from foreign operations": a verb of origin opens the complement like "from".
    if (ORIGIN_VERBS.has(next.norm) && RIGHT_OPENERS.has(toks[i + 1]?.norm ?? '')) i++;
    // "dividends declared per share", "income available to common shareholders": the
    // participle itself says which figure it is.
    else if (
      !RIGHT_OPENERS.has(next.norm) ||
      /^(?:attributable|available|applicable)$/.test(next.norm)
    )
      group.push(i);
    i++;
    while (i < toks.length && RIGHT_SKIP.has(toks[i]!.norm)) i++;
    let source = false;
    for (; i < toks.length; i++) {
      const t = toks[i]!;
      if (t.numeric || LEFT_STOPS.has(t.norm) || RIGHT_OPENERS.has(t.norm)) break;
      if (LEFT_JOINS.has(t.norm)) break;
      if (isFiler(t, filer)) {
        source = true;
        break;
      }
      if (SOURCE_WORDS.has(t.stem) || /^(?:fy|10-?[kq])$/.test(t.norm)) source = true;
      group.push(i);
      if (t.breakAfter) break;
    }
    if (!source) picked.push(...group);
  }
  return picked.sort((a, b) => a - b);
}

/** Auxiliaries that open the question's own clause: "how much revenue did X generate". */
const CLAUSE_AUX: ReadonlySet<string> = new Set(['did', 'does', 'do']);
/** Auxiliaries that end the asked noun phrase after "what" ("what severance charges did"). */
const WH_END: ReadonlySet<string> = new Set([
  ...CLAUSE_AUX,
  'was',
  'were',
  'is',
  'are',
  'has',
  'have',
  'had',
  'will',
  'would',
  'can',
  'could',
]);
const DETERMINERS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'its', 'their', 'this']);
/** Verbs that make the asked figure a cash payment ("how much did X pay in income taxes"). */
const PAY_VERBS: ReadonlySet<string> = new Set([
  'pay',
  'paid',
  'pays',
  'paying',
  'remit',
  'remitted',
]);

const PARTICLES: ReadonlySet<string> = new Set(['over', 'up', 'out', 'down', 'off', 'back']);
/** A pronoun subject ("did it sell") stands for the filer the question already named. */
const PRONOUNS: ReadonlySet<string> = new Set(['it', 'they', 'we', 'he', 'she', 'you']);

const overlapsHead = (ix: readonly number[], head: HeadMatch) =>
  ix.some((i) => i >= head.start && i < head.end);

/**
 * Qualifiers the question's clause adds outside the head's noun phrase (indices of tokens;
 * a pay verb is reported as the index of the verb). Three generic shapes:
 *
 * - the noun phrase right after "what"/"how much" is the thing asked; when the head is not
 *   in it, the head sits elsewhere ("record in cost of sales") and names a place, not the
 *   line item, so every content word of that phrase must be in the row label;
 * - the subject of "did/does <subject> <verb>" that is not the filer (a lowercase noun such
 *   as "program", "segment", "division" makes it a part of the filer) narrows the figure to
 *   that part ("how much revenue did the F-35 program generate");
 * - a pay verb ("did X pay in income taxes") asks for the cash paid, which an expense or
 *   provision row is not.
 */
function clauseIndices(
  toks: Tok[],
  head: HeadMatch,
  filer: ReadonlySet<string>,
  quotient = false,
): number[] {
  const out: number[] = [];
  const content = (t: Tok) =>
    !t.numeric &&
    !NEUTRAL_WORDS.has(t.stem) &&
    !NEUTRAL_WORDS.has(t.norm) &&
    !LEFT_STOPS.has(t.norm) &&
    !LEFT_JOINS.has(t.norm) &&
    !isFiler(t, filer);
  // The asked noun phrase after the question word.
  const q = toks.findIndex(
    (t, i) =>
      t.norm === 'what' || (t.norm === 'how' && /^(?:much|many)$/.test(toks[i + 1]?.norm ?? '')),
  );
  let frequency = false;
  if (q >= 0) {
    const wh: number[] = [];
    let from = toks[q]!.norm === 'how' ? q + 2 : q + 1;
    // "What share of X's expenses was Y": over a computed quotient, "share of" asks for it.
    if (quotient && QUOTIENT_NOUNS.has(toks[from]?.stem ?? '') && toks[from + 1]?.norm === 'of')
      from += 2;
    for (let i = from; i < toks.length; i++) {
      const t = toks[i]!;
      if (WH_END.has(t.norm) || isFiler(t, filer)) break;
      wh.push(i);
      if (t.breakAfter) break;
    }
    // "How many times" asks a frequency (a turnover), not a line item named "times".
    frequency = toks[wh[0] ?? -1]?.stem === 'time';
    if (wh.length > 0 && !frequency && !overlapsHead(wh, head))
      out.push(...wh.filter((i) => content(toks[i]!) && !DETERMINERS.has(toks[i]!.norm)));
  }
  // The clause "did <subject> <verb>".
  const aux = toks.findIndex((t, i) => i > q && CLAUSE_AUX.has(t.norm) && !t.breakAfter);
  // "How many times did it turn over its inventory": the clause describes the frequency.
  if (aux >= 0 && !frequency) {
    let i = aux + 1;
    while (i < toks.length && DETERMINERS.has(toks[i]!.norm)) i++;
    const words: number[] = [];
    for (; i < toks.length; i++) {
      const t = toks[i]!;
      if (LEFT_STOPS.has(t.norm) || RIGHT_OPENERS.has(t.norm) || LEFT_JOINS.has(t.norm)) break;
      words.push(i);
      if (t.breakAfter) break;
    }
    // A phrasal verb's particle ("turn over", "pay out") is part of the verb.
    while (words.length > 1 && PARTICLES.has(toks[words[words.length - 1]!]!.norm)) words.pop();
    const verb = words.pop();
    if (verb !== undefined && !overlapsHead([...words, verb], head)) {
      const subject = words.filter((w) => content(toks[w]!) && !PRONOUNS.has(toks[w]!.norm));
      // A proper name alone (an acronym, a brand) is the filer under another name.
      if (subject.some((w) => !toks[w]!.capitalized)) out.push(...subject);
      if (PAY_VERBS.has(toks[verb]!.norm)) out.push(verb);
    }
  }
  return out;
}

/** Verbs saying where a figure comes from: "came from X" qualifies like "from X". */
const ORIGIN_VERBS: ReadonlySet<string> = new Set([
  'came',
  'come',
  'comes',
  'coming',
  'derived',
  'generated',
  'earned',
  'originating',
  'arising',
]);

/** A past participle right after the head ("declared", "capitalized") that is not neutral. */
function isParticiple(t: Tok): boolean {
  return (
    (/^[a-z]{3,}ed$/.test(t.norm) &&
      !NEUTRAL_WORDS.has(t.norm) &&
      !LEFT_STOPS.has(t.norm) &&
      !ORIGIN_VERBS.has(t.norm)) ||
    ORIGIN_VERBS.has(t.norm)
  );
}

/**
 * Rows that are payments by nature, so a pay verb needs no "paid" on them ("Repurchases of
 * common stock", "Capital expenditures"). Not "investment" or "acquisition": "Investment
 * income" and "Acquisition-related costs" are no payments.
 */
const PAYMENT_ROWS: ReadonlySet<string> = new Set([
  'purchase',
  'repurchase',
  'buyback',
  'expenditure',
]);

function supports(labelStems: ReadonlySet<string>, qualifier: string): boolean {
  const group = synonymsOf(qualifier);
  if (group.includes('paid') && [...PAYMENT_ROWS].some((s) => labelStems.has(s))) return true;
  return group.some((s) => labelStems.has(s));
}

/**
 * Compare the question's head phrase and qualifiers with the row label(s) extraction read.
 * Pure and deterministic: the gate calls it with the evidence extraction recorded.
 */
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

const AS_A_SHARE_OF = /\bas (?:a|the) (?:share|proportion|portion|fraction) of\b/gi;

const COMPARATIVE_PAIR =
  /\b(?:higher|lower|more|less|greater|smaller|larger) or (?:higher|lower|more|less|greater|smaller|larger)\b/gi;

export function checkLabelAgreement(ev: LabelEvidence, opts: LabelCheckOptions = {}): LabelCheck {
  const readLabels = ev.read.map((r) => r.label);
  const none = (status: 'not_checked', reason: string | null = null): LabelCheck => ({
    ok: true,
    status,
    asked: null,
    head: null,
    qualifiers: [],
    unsupported: [],
    read: readLabels,
    reasons: reason ? [reason] : [],
  });
  if (ev.read.length === 0) return none('not_checked');
  const asking = askingPart(ev.question);
  const compared = opts.comparatives === true ? asking.replace(COMPARATIVE_PAIR, ' ') : asking;
  const toks = tokenize(
    opts.shareOf === true ? compared.replace(AS_A_SHARE_OF, 'as a percentage of') : compared,
    opts,
  );
  const head = findHead(toks, ev.catalogPhrases);
  if (!head) return none('not_checked');
  const filer = new Set(ev.filerWords.map((w) => w.toLowerCase()));
  const operators = opts.definitionWords === true && ev.formula;
  const idx = [
    ...new Set([
      ...qualifierIndices(toks, head, filer, operators),
      ...(opts.clause === false ? [] : clauseIndices(toks, head, filer, operators)),
    ]),
  ].sort((a, b) => a - b);
  const qualifierToks = idx
    .map((i) => toks[i]!)
    .filter((t) => !t.numeric && !NEUTRAL_WORDS.has(t.stem) && !NEUTRAL_WORDS.has(t.norm));
  const entryStems = new Set(stemsOf(ev.entry));
  const qualifiers = [
    ...new Set(qualifierToks.map((t) => t.stem).filter((q) => !supports(entryStems, q))),
  ];
  const headText = toks
    .slice(head.start, head.end)
    .map((t) => t.raw)
    .join(' ');
  const lo = Math.min(head.start, ...idx);
  const hi = Math.max(head.end - 1, ...idx);
  const asked = toks
    .slice(lo, hi + 1)
    .map((t) => t.raw)
    .join(' ')
    .toLowerCase();

  const unsupported: string[] = [];
  const reasons: string[] = [];
  // A formula reads several different rows: a qualifier naming one of its inputs ("tax
  // expense over pre-tax income") is supported when some input carries it. A metric reads one
  // line item (over one or more years): every row read must carry every qualifier.
  const stemsOfRead = (r: LabelRead) =>
    new Set([...stemsOf(r.label), ...(r.heading ? stemsOf(r.heading) : [])]);
  const anyInput = new Set(ev.read.flatMap((r) => [...stemsOfRead(r)]));
  for (const r of ev.read) {
    const stems = stemsOfRead(r);
    const missing = qualifiers.filter(
      (q) => !supports(stems, q) && !(ev.formula && supports(anyInput, q)),
    );
    if (missing.length === 0) continue;
    for (const m of missing) if (!unsupported.includes(m)) unsupported.push(m);
    const carrier = ev.pageLabels.find(
      (p) => p.page === r.page && qualifiers.every((q) => supports(new Set(stemsOf(p.label)), q)),
    );
    reasons.push(
      `label_mismatch: asked "${asked}", read "${r.label}"${r.heading ? ` (under "${r.heading}")` : ''}: ` +
        `"${missing.join('", "')}" not in the row label` +
        (carrier ? `; "${carrier.label}" on p.${carrier.page} carries it` : ''),
    );
  }
  const uniqueReasons = [...new Set(reasons)];
  return {
    ok: uniqueReasons.length === 0,
    status: uniqueReasons.length === 0 ? 'agree' : 'mismatch',
    asked,
    head: headText.toLowerCase(),
    qualifiers,
    unsupported,
    read: readLabels,
    reasons: uniqueReasons,
  };
}
