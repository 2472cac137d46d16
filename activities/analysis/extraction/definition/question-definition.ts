import {
  itemsOf,
  parseExpression,
  type Expr,
  type ParseResult,
  type StatementHint,
} from './grammar';

/**
 * Where a question states its own arithmetic: after a definition cue ("defined as",
 * "calculated as", "define X as", "using A divided by B", "X = A − B", "(A / B)"), or in the
 * asked noun phrase itself ("SG&A as a % of net sales", "the ratio of A to B", "net sales
 * less merchandise costs"). Named parts may be defined after "where"/"with" ("where EBITDA
 * is A plus B and capex is C"); they are substituted before evaluation.
 */

export interface QuestionDefinition {
  /** The definition's own words, as the question writes them. */
  text: string;
  expr: Expr;
  /** The question without the definition: its period, unit and rounding cues. */
  main: string;
  /** The statement the question points at as a whole ("using the cash flow statement"). */
  statement?: StatementHint;
  /**
   * The definition glosses a figure the question names ("free cash flow, defined as A minus
   * B", "working capital (A minus B)"), rather than being the asked phrase itself ("A plus B").
   */
  named: boolean;
}

export type DefinitionReading =
  | { status: 'none' }
  | { status: 'unparsed'; text: string; unparsed: string }
  | { status: 'ok'; definition: QuestionDefinition };

function lower(q: string): string {
  return q.toLowerCase().replace(/[’‘]/g, "'").replace(/[−–—]/g, '-').replace(/\s+/g, ' ').trim();
}

/** The sentence that starts at `from`: up to ". " / "? " / the end (decimals stay inside). */
function sentenceFrom(text: string, from: number): { body: string; end: number } {
  const rest = text.slice(from);
  const m = /[.?](?:\s|$)|;\s/.exec(rest);
  const end = m ? from + m.index : text.length;
  return { body: text.slice(from, end), end };
}

const OPERATOR_WORD =
  /\bdivided by\b|\bminus\b|\bless\b(?! than)|\bplus\b|\bover\b|\s[-+/×*÷]\s|\//;

const CUES: RegExp[] = [
  /\b(?:is |are )?(?:defined|calculated|computed|measured|derived)(?: here)? as:? /,
  /\bdefine [^.?]{1,80}? as:? /,
  /\bcalculate[ds]? (?:it )?(?:using|as) /,
  /\bcompute (?:it )?(?:using|as) /,
  /\b(?:calculate|compute)[ds]? [^.?]{1,80}? as /,
  / is (?=[^.?]*\bdivided by\b)/,
  /\busing (?=[^.?]*(?:\bdivided by\b|\bover\b|\s\/\s))/,
  /,? i\.e\.,? /,
  / = /,
];

/** "where EBITDA is A plus B and capex is C": the named parts and their definitions. */
function subDefinitions(tail: string): Map<string, string> {
  const out = new Map<string, string>();
  const clauses = tail.split(
    /,\s*(?:and\s+)?(?=[a-z&](?:(?! and )[a-z&' -]){0,40}? (?:=|is|means|defined as|as) )|\s+and\s+(?=[a-z&](?:(?! and )[a-z&' -]){0,40}? (?:=|is|means|defined as|as) )/,
  );
  for (const c of clauses) {
    const m = /^\s*([a-z&][a-z&' -]{0,40}?) (?:=|is|means|defined as|as) (.+)$/.exec(c);
    if (m) out.set(m[1]!.trim().replace(/^(?:the|a|an) /, ''), m[2]!.trim());
  }
  return out;
}

/** A named part used for a year ("FY2021 EBITDA") carries that year into its definition. */
function withYear(e: Expr, year: number | undefined): Expr {
  if (year === undefined) return e;
  if (e.kind === 'item') return e.year === undefined ? { ...e, year } : e;
  if (e.kind === 'bin')
    return { ...e, left: withYear(e.left, year), right: withYear(e.right, year) };
  if (e.kind === 'avg') return e;
  return e;
}

function substitute(e: Expr, subs: Map<string, Expr>, depth = 0): Expr {
  if (depth > 4) return e;
  if (e.kind === 'item') {
    const hit = subs.get(e.name);
    return hit ? withYear(substitute(hit, subs, depth + 1), e.year) : e;
  }
  if (e.kind === 'bin')
    return { ...e, left: substitute(e.left, subs, depth), right: substitute(e.right, subs, depth) };
  if (e.kind === 'avg') return { ...e, args: e.args.map((a) => substitute(a, subs, depth)) };
  return e;
}

/** The one statement a (lower-cased) question points at as a whole, if it names one. */
export function statementOf(text: string): StatementHint | undefined {
  const kinds = new Set<StatementHint>();
  if (/cash flows? statements?|statements? of cash flows?/.test(text)) kinds.add('cash_flow');
  if (/balance sheet/.test(text)) kinds.add('balance');
  if (/income statement|statement of (?:income|earnings|operations)/.test(text))
    kinds.add('income');
  return kinds.size === 1 ? [...kinds][0] : undefined;
}

/** A lead-in naming the source: "Using the cash flow statement, ", "According to Note 18, ". */
const LEAD_IN = String.raw`(?:(?:using|based on|per|from|according to|in) [^,]{1,60}, )?`;

/** The asked noun phrase of "what was/were X …?" (lead-in and instructions removed). */
function askedPhrase(text: string): { phrase: string; start: number; end: number } | null {
  const m = new RegExp(
    String.raw`^${LEAD_IN}(?:what (?:is|was|were|are)|how much (?:is|was|were)|calculate|compute)(?: the)? `,
  ).exec(text);
  if (!m) return null;
  const { body, end } = sentenceFrom(text, m[0].length);
  return { phrase: body, start: m[0].length, end };
}

/** The filer as the subject of a verb: one to four words, the last not a preposition. */
const SUBJECT = String.raw`(?:(?!of |to |and )[a-z&.']+ ){1,4}`;
/** Verbs that report a figure of the filer's own books. */
const BOOK_VERB = String.raw`(?:pay|spend|record|report|incur|earn|carry|recognize|recognise)`;

/**
 * The line item a question names around a verb of the books, with the rest of its sentence
 * (its period and statement words):
 * - "how much (cash) did X pay in / spend on / record for Y …" → Y …;
 * - "how much Y did X earn / carry / record …" and "what Y did X record …" → Y …;
 * - "what did X report as Y …" → Y ….
 */
function verbPhrase(text: string): { phrase: string; start: number; end: number } | null {
  const after = new RegExp(
    String.raw`^${LEAD_IN}how much (?:cash )?did ${SUBJECT}${BOOK_VERB}(?: in| on| for| as)? `,
  ).exec(text);
  if (after) {
    const { body, end } = sentenceFrom(text, after[0].length);
    return { phrase: body, start: after[0].length, end };
  }
  const reportedAs = new RegExp(String.raw`^${LEAD_IN}what did ${SUBJECT}${BOOK_VERB} as `).exec(
    text,
  );
  if (reportedAs) {
    const { body, end } = sentenceFrom(text, reportedAs[0].length);
    return { phrase: body, start: reportedAs[0].length, end };
  }
  const named = new RegExp(
    String.raw`^${LEAD_IN}(?:how much|what) ((?:(?!did )[a-z&,'()-]+ ){1,8})did ${SUBJECT}${BOOK_VERB}\b`,
  ).exec(text);
  if (named) {
    const { body, end } = sentenceFrom(text, named[0].length);
    // "how much net cash did X pay for acquisitions": the row is "Net cash paid for …".
    const cash = /^(?:net )?cash$/.test(named[1]!.trim()) && /\bpay$/.test(named[0]);
    const phrase = `${named[1]!.trim()}${cash ? ' paid' : ''}${body}`;
    return { phrase, start: named[0].length, end };
  }
  return null;
}

/**
 * A question that asks for one printed figure by its own name ("What were X's accrued
 * liabilities at May 31, 2023?", "How much did X spend on demand creation expense in
 * fiscal 2022?", "How much goodwill did X carry at the end of fiscal 2022?"): the name as a
 * one-operand expression, or none.
 */
export function readLineItemQuestion(question: string): DefinitionReading {
  const text = lower(question);
  const asked = askedPhrase(text) ?? verbPhrase(text);
  if (!asked || /\?.*\?/.test(text.slice(0, asked.end))) return { status: 'none' };
  const parsed = parseExpression(asked.phrase);
  if (!parsed.ok || parsed.expr.kind !== 'item') return { status: 'none' };
  return {
    status: 'ok',
    definition: {
      text: asked.phrase,
      expr: parsed.expr,
      main: text,
      statement: statementOf(text),
      named: false,
    },
  };
}

/** Read the question's own definition, if it states one. */
export function readDefinition(question: string): DefinitionReading {
  const text = lower(question);
  let body: string | null = null;
  let bodyStart = -1;
  let bodyEnd = -1;
  let named = true;
  for (const cue of CUES) {
    const m = cue.exec(text);
    if (!m) continue;
    // "X less capex, where capex = …": the "=" names a part, not the question's definition.
    if (/ where | with /.test(text.slice(0, m.index))) continue;
    const s = sentenceFrom(text, m.index + m[0].length);
    if (!OPERATOR_WORD.test(s.body) && !/ as an? (?:%|percent)| ratio of /.test(s.body)) continue;
    body = s.body;
    // The cue's own words stay in `main`: "define Costco's FY2021 cash conversion cycle as …"
    // names the question's period before the definition starts.
    bodyStart = m.index + m[0].length;
    bodyEnd = s.end;
    break;
  }
  if (body === null) {
    // "(accounts payable / merchandise inventories)": a parenthesised formula.
    const paren = /\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g;
    for (const m of text.matchAll(paren)) {
      // An instruction in parentheses ("use a minus sign for a decline") is not a formula.
      const instruction = /\bnote\b|\bsign\b|^(?:use|give|enter|express|answer|round|show)\b/;
      if (/\bdivided by\b|\s[/÷-]\s|\/|\bminus\b/.test(m[1]!) && !instruction.test(m[1]!)) {
        body = m[1]!;
        bodyStart = m.index;
        bodyEnd = m.index + m[0].length;
        break;
      }
    }
  }
  if (body === null) {
    const asked = askedPhrase(text);
    if (
      asked &&
      (OPERATOR_WORD.test(asked.phrase) ||
        / as an? (?:%|percent(?:age)?) of |\bratio of .+ to |^(?:the )?average of /.test(
          asked.phrase,
        ))
    ) {
      body = asked.phrase;
      named = false;
      // The asked phrase carries the question's own period words: they stay in `main`.
      bodyStart = bodyEnd = asked.end;
    }
  }
  if (body === null) return { status: 'none' };
  // Named parts defined after "where"/"with": "EBITDA less capex, where EBITDA is …".
  const where = /,? (?:where|with) (.+)$/.exec(body);
  let subs = new Map<string, string>();
  let core = body;
  if (where) {
    subs = subDefinitions(where[1]!);
    if (subs.size > 0) core = body.slice(0, where.index);
  }
  const parsed: ParseResult = parseExpression(core);
  if (!parsed.ok) return { status: 'unparsed', text: body, unparsed: parsed.unparsed };
  const compiled = new Map<string, Expr>();
  const used = new Set(itemsOf(parsed.expr).map((i) => i.name));
  for (const [name, def] of subs) {
    // A named part the expression does not use means the clauses were split wrongly.
    if (!used.has(name)) return { status: 'unparsed', text: body, unparsed: `${name} is ${def}` };
    const p = parseExpression(def);
    if (!p.ok) return { status: 'unparsed', text: body, unparsed: p.unparsed };
    compiled.set(name, p.expr);
  }
  const main = `${text.slice(0, bodyStart)} ${text.slice(bodyEnd)}`.replace(/\s+/g, ' ').trim();
  // "What was EBIT less capex, defined as …": the question proper states the arithmetic too,
  // so what it asks is that arithmetic, not a named figure's level.
  if (/\bminus\b|\bless\b(?! than)|\bplus\b/.test(main.replace(/\?.*$/, ''))) named = false;
  const outside = text.replace(body, ' ');
  return {
    status: 'ok',
    definition: {
      text: body,
      expr: substitute(parsed.expr, compiled),
      main,
      statement: statementOf(outside),
      named,
    },
  };
}
