import { z } from 'zod';
import {
  askingPart,
  findHead,
  isFiler,
  stemsOf,
  synonymsOf,
  tokenize,
  type HeadMatch,
  type LabelCheckOptions,
  type Tok,
} from './label-tokens';
import {
  CLAUSE_AUX,
  DETERMINERS,
  LEFT_JOINS,
  LEFT_STOPS,
  NEUTRAL_WORDS,
  OPERATOR_WORDS,
  ORIGIN_VERBS,
  PARTICLES,
  PAY_VERBS,
  PAYMENT_ROWS,
  PRONOUNS,
  QUOTIENT_NOUNS,
  RIGHT_OPENERS,
  RIGHT_SKIP,
  SOURCE_WORDS,
  WH_END,
} from './label-words';

export { LABEL_SYNONYMS, NEUTRAL_WORDS } from './label-words';
export { stem, type LabelCheckOptions } from './label-tokens';

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
  /**
   * The row is a cash payment by where the filing prints it: an outflow in the investing or
   * financing part of a statement of cash flows, or a row under a caption that says the cash
   * was paid ("Cash paid during the year for:"). A pay verb, or "cash", needs no word of its
   * own on such a row.
   * Evidence recorded before this field existed carries none, so those runs replay unchanged.
   */
  payment: z.boolean().optional(),
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

function supports(labelStems: ReadonlySet<string>, qualifier: string): boolean {
  const group = synonymsOf(qualifier);
  if (group.includes('paid') && [...PAYMENT_ROWS].some((s) => labelStems.has(s))) return true;
  return group.some((s) => labelStems.has(s));
}

const AS_A_SHARE_OF = /\bas (?:a|the) (?:share|proportion|portion|fraction) of\b/gi;

const COMPARATIVE_PAIR =
  /\b(?:higher|lower|more|less|greater|smaller|larger) or (?:higher|lower|more|less|greater|smaller|larger)\b/gi;

/**
 * Compare the question's head phrase and qualifiers with the row label(s) extraction read.
 * Pure and deterministic: the gate calls it with the evidence extraction recorded.
 */
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
      (q) =>
        !supports(stems, q) &&
        !(ev.formula && supports(anyInput, q)) &&
        !(r.payment === true && (q === 'cash' || synonymsOf(q).includes('paid'))),
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
