import { z } from 'zod';
import { readPeriodWords } from '../period-words';
import type { CalendarDate } from '../statement-table';

/**
 * The definition grammar: the arithmetic a question states in its own words, compiled to
 * an expression over named line items. Operators, loosest first (so "A minus B divided by
 * C" is (A − B) / C, the way the answer-form contract splits a definition):
 *
 *   expr    := "ratio of" expr "to" expr | expr "as a % of" expr
 *            | expr "divided by" expr
 *            | expr ("+" | "plus" | "-" | "minus" | "less") expr
 *            | expr ("/" | "÷" | "over" | "*" | "×" | "times" | "multiplied by") expr
 *            | "(" expr ")" | number | average | item
 *   average := "average of" (item "at"? years | expr "and" expr)
 *   item    := a printed line item's name, optionally with its own year or statement
 *
 * Whatever the grammar cannot read is reported, never guessed: the caller sends the
 * question to review naming that part.
 */

export const StatementHintSchema = z.enum(['income', 'balance', 'cash_flow']);
export type StatementHint = z.infer<typeof StatementHintSchema>;

export interface ItemNode {
  kind: 'item';
  /** The line item's name as the question writes it, period and statement words removed. */
  name: string;
  /** The question's own words for this operand. */
  text: string;
  /** A fiscal year the operand names for itself; absent → the question's period. */
  year?: number;
  /**
   * The date the operand names for itself ("accrued liabilities at July 29, 2023"): the
   * column printed with it is read, placed in the filing's fiscal calendar — not the calendar
   * year of the date taken for a fiscal year.
   */
  date?: CalendarDate;
  /** "prior year", "beginning of the year": the year before the question's. */
  priorYear?: boolean;
  statement?: StatementHint;
}
export type Expr =
  | { kind: 'num'; value: string }
  | ItemNode
  | { kind: 'bin'; op: '+' | '-' | '*' | '/'; left: Expr; right: Expr; percentOf?: boolean }
  | { kind: 'avg'; args: Expr[] };

export type ParseResult = { ok: true; expr: Expr } | { ok: false; unparsed: string };

const YEAR = String.raw`(?:fy\s?|fiscal (?:year )?)?((?:19|20)\d{2})`;
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)`;
const DATE = String.raw`${MONTH}\.? \d{1,2},? ((?:19|20)\d{2})`;

function balanced(s: string): boolean {
  let d = 0;
  for (const ch of s) {
    if (ch === '(') d++;
    else if (ch === ')') d--;
    if (d < 0) return false;
  }
  return d === 0;
}

/** Index of a top-level (outside parentheses) match of `re`: first, or last when `last`. */
function topLevel(s: string, re: RegExp, last: boolean): { at: number; len: number } | null {
  let depth = 0;
  let found: { at: number; len: number } | null = null;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    if (depth !== 0 || i === 0) continue;
    const m = re.exec(s.slice(i));
    if (m && m.index === 0) {
      found = { at: i, len: m[0].length };
      if (!last) return found;
    }
  }
  return found;
}

function clean(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[−–—]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[\s,:;]+|[\s,.;:?]+$/g, '')
    .replace(/^(?:the|a|an) /, '')
    .trim();
}

const STATEMENT_HINTS: [StatementHint, RegExp][] = [
  [
    'cash_flow',
    /\(?(?:from |per |on |in |using |according to )?(?:the |its |their )?(?:consolidated )?(?:statements? of cash flows?|cash flows? statements?)\)?/,
  ],
  [
    'balance',
    /\(?(?:from |per |on |in |using |according to )?(?:the |its |their )?(?:consolidated )?balance sheets?\)?/,
  ],
  [
    'income',
    /\(?(?:from |per |on |in |using |according to )?(?:the |its |their )?(?:consolidated )?(?:income statements?|statements? of (?:consolidated )?(?:income|earnings|operations))\)?/,
  ],
];

/** "Costco's", "Johnson & Johnson's", "its": the filer named before the line item. */
export function stripOwner(t: string): string {
  return t
    .replace(/^(?:(?!(?:of|to|and|ratio|average|the) )[a-z&.]+ ){0,3}[a-z&.]+'s /, '')
    .replace(/^(?:its|their) /, '');
}

/** An operand: a number, an average, or a line item with its own year and statement words. */
function leaf(raw: string): ParseResult {
  // A trailing instruction ("…, using FY2021 year-end balances") is not part of the name.
  let t = clean(
    clean(raw)
      // A colon ends the name: "… divided by revenues: what was it, in percent?".
      .replace(/:.*$/, '')
      // The instruction may carry a date's own comma ("using December 31, 2022 balances").
      .replace(/,? (?:using|based on|all at|all from) .*$/, '')
      .replace(
        /,? (?:answer |expressed |stated )?in (?:(?:thousands|millions|billions) of )?(?:usd|us\$|\$|us dollars|dollars)\b[^,]*$/,
        '',
      )
      .replace(/,? (?:expressed|stated|given|rounded|answered) (?:as|in|to)\b.*$/, '')
      // ", as a percentage rounded to one decimal place": how to answer, not the name.
      .replace(/, as an? (?:percentage|percent|decimal|ratio)\b.*$/, '')
      .replace(/,? in percent\b.*$/, '')
      // Where the figure is printed is not its name: "from the reconciliation in the income
      // tax note", "according to the supplemental disclosure of cash flow information".
      .replace(
        /,? (?:according to|from|per|in) the (?:[a-z-]+ ){0,6}(?:note|notes|disclosures?|information|schedule|reconciliation)\b.*$/,
        '',
      )
      .replace(/,? (?:according to|from|per|in) note \d+\b.*$/, '')
      // "(52 weeks ended August 29, 2021)": the length of the fiscal year, not the name.
      .replace(/\(\s*(?:52|53) weeks ended [^()]*\)/g, ' ')
      // The scale a note gives the figure in is not its name either: "(printed in
      // thousands)", "(usd millions)", "(cash flow statement, usd millions)".
      .replace(
        /,\s*(?:printed |stated |in )*(?:usd |us\$ |\$ )?(?:thousands|millions|billions)(?: of (?:usd|dollars))?\s*\)/g,
        ')',
      )
      .replace(
        /\(\s*(?:printed |stated |in )*(?:usd |us\$ |\$ )?(?:thousands|millions|billions)(?: of (?:usd|dollars))?\s*\)/g,
        ' ',
      )
      // "(in dollars)": the unit the figure is asked in, not its name.
      .replace(/\(\s*in (?:usd|us\$|\$|us dollars|dollars)\s*\)/g, ' ')
      .replace(/\((?:a|an|the) [^()]*\)/g, ' '),
  );
  // "at fiscal year-end 2022 (january 1, 2023)": the date in parentheses restates the period
  // the words outside name; alone, it is the period.
  const restated = new RegExp(String.raw`\(\s*(?:as of |at |on |ended |ending )?${DATE}\s*\)`, 'g');
  const outside = t.replace(restated, ' ');
  if (outside !== t && new RegExp(String.raw`\b${YEAR}\b`).test(outside)) t = clean(outside);
  if (/^\d+(?:\.\d+)?$/.test(t)) return { ok: true, expr: { kind: 'num', value: t } };
  const avg = /^(?:an? )?(?:the )?average (?:of )?(.+)$/.exec(t);
  if (avg) return average(avg[1]!);
  let statement: StatementHint | undefined;
  const readStatement = () => {
    for (const [kind, re] of STATEMENT_HINTS) {
      const m = re.exec(t);
      if (m) {
        statement = kind;
        t = clean(t.replace(re, ' '));
      }
    }
  };
  readStatement();
  const years = new Set<number>();
  const dates: CalendarDate[] = [];
  const dateRe = new RegExp(
    String.raw`\b(?:at|as of|on|for|in|during)? ?(?:the )?(?:end of )?(?:${DATE}|(?:fiscal )?(?:year[- ]end(?:s)? )?${YEAR}(?: year[- ]end| fiscal year[- ]end)?)\b`,
    'g',
  );
  t = t.replace(dateRe, (m: string, y1?: string, y2?: string) => {
    years.add(Number(y1 ?? y2));
    if (y1)
      dates.push(...readPeriodWords(m).dates.map(({ year, month, day }) => ({ year, month, day })));
    return ' ';
  });
  t = t
    .replace(/\b(?:in |for |during |of )?(?:the )?(?:three|six|nine|twelve) months ended\b/g, ' ')
    // "for the first six months of (fiscal) 2023", "in the first half": the year is out already.
    .replace(
      /\b(?:in |for |during )?(?:the )?(?:first (?:six|nine) months|first half|half[- ]year)(?: of)?(?: fiscal(?: year)?)?\b/g,
      ' ',
    )
    .replace(
      /\b(?:in |for |during )?(?:the )?(?:q[1-4]|(?:first|second|third|fourth) quarter)(?: of)?\b/g,
      ' ',
    );
  // "in its FY2021 statement of earnings": the statement words are whole once the year is out.
  t = clean(t);
  readStatement();
  const prior =
    /\b(?:prior|previous) year(?:'s)?\b|\bbeginning of (?:the )?year\b|\bopening\b/.test(t);
  t = clean(
    t
      .replace(
        /\b(?:prior|previous) year(?:'s)?\b|\bbeginning of (?:the )?year\b|\bopening\b/g,
        ' ',
      )
      .replace(
        /\b(?:year[- ]end(?:s)?|period[- ]end|balances?|figures?|amounts?|reported|printed)\b/g,
        ' ',
      )
      .replace(/\bat the end of\b|\bat end of\b|\bat\b$/g, ' ')
      .replace(/\(\s*\)/g, ' '),
  );
  // "(the balance) of X on Lockheed Martin's (balance sheet)", "depreciation as shown (in the
  // cash flow statement)": the words left around the name once the period and the statement
  // are read.
  t = clean(
    stripOwner(
      clean(
        t
          .replace(/^of /, '')
          // What a statement read earlier left of its preposition ("in its [FY2021 statement]").
          .replace(/ (?:in|on|from|per) (?:its|their|the)$/, '')
          // What a period read earlier left of its owner: "in Best Buy's fiscal [Q2 2024]".
          .replace(
            / (?:in|for|during) (?:(?:[a-z&.]+ ){0,3}[a-z&.]+'s |its |the )?fiscal(?: year)?$/,
            '',
          )
          .replace(/ (?:on|in|from) (?:[a-z&.]+ ){0,3}[a-z&.]+'s?$/, '')
          .replace(/ as (?:shown|reported|presented|stated|disclosed|printed|recorded)$/, ''),
      ),
    ),
  );
  if (years.size > 1) return { ok: false, unparsed: raw.trim() };
  if (t === '' || /[+*/÷×=]/.test(t) || !/[a-z]/.test(t) || !balanced(t))
    return { ok: false, unparsed: raw.trim() };
  // Words that say an operand is not a printed line item as it stands.
  if (
    /\b(?:adjusted|excluding|segment|per employee|per store|non-gaap|normalized|organic)\b/.test(t)
  )
    return { ok: false, unparsed: raw.trim() };
  const node: ItemNode = { kind: 'item', name: t, text: raw.trim() };
  if (years.size === 1) node.year = [...years][0];
  if (years.size === 1 && dates.length === 1) node.date = dates[0];
  if (prior && years.size === 0) node.priorYear = true;
  if (statement) node.statement = statement;
  return { ok: true, expr: node };
}

/** "average of FY2020 and FY2021 year-end inventories", "average of A and B". */
function average(body: string): ParseResult {
  const yearRe = new RegExp(String.raw`\b(?:${DATE}|${YEAR})\b`, 'g');
  const years: number[] = [];
  for (const m of body.matchAll(yearRe)) years.push(Number(m[1] ?? m[2]));
  if (years.length >= 2) {
    const itemText = body
      .replace(yearRe, ' ')
      .replace(/\b(?:and|the|at|of|end|ends|year[- ]ends?|fiscal|balances?)\b/g, ' ')
      .replace(/[(),]/g, ' ');
    const item = leaf(itemText);
    if (!item.ok || item.expr.kind !== 'item') return { ok: false, unparsed: body };
    const base = item.expr;
    return {
      ok: true,
      expr: {
        kind: 'avg',
        args: [...new Set(years)]
          .sort()
          .map((y) => ({ ...base, year: y, text: `${base.name} ${y}` })),
      },
    };
  }
  const and = topLevel(body, / and /, false);
  if (and) {
    const a = parseExpression(body.slice(0, and.at));
    const b = parseExpression(body.slice(and.at + and.len));
    if (!a.ok) return a;
    if (!b.ok) return b;
    return { ok: true, expr: { kind: 'avg', args: [a.expr, b.expr] } };
  }
  return { ok: false, unparsed: body };
}

/** Compile a definition's text to an expression, or name the part the grammar cannot read. */
export function parseExpression(text: string): ParseResult {
  let t = clean(text);
  if (t === '') return { ok: false, unparsed: text };
  if (t.startsWith('(') && t.endsWith(')') && balanced(t.slice(1, -1))) t = t.slice(1, -1);
  const bin = (op: '+' | '-' | '*' | '/', l: string, r: string, percentOf = false): ParseResult => {
    const left = parseExpression(l);
    if (!left.ok) return left;
    const right = parseExpression(r);
    if (!right.ok) return right;
    return {
      ok: true,
      expr: {
        kind: 'bin',
        op,
        left: left.expr,
        right: right.expr,
        ...(percentOf ? { percentOf } : {}),
      },
    };
  };
  t = stripOwner(t);
  const ratio =
    /^(?:(?:fy\s?|fiscal (?:year )?)?(?:19|20)\d{2} )?ratio of (.+?) to (.+)$/.exec(t) ??
    /^ratio of (?:(?!of |to |and )[a-z&.]+ ){0,3}[a-z&.]+'s (.+?) to (.+)$/.exec(t);
  if (ratio && balanced(ratio[1]!)) return bin('/', ratio[1]!, ratio[2]!);
  const pctOf = topLevel(t, / as an? (?:%|percent(?:age)?) of /, false);
  if (pctOf) return bin('/', t.slice(0, pctOf.at), t.slice(pctOf.at + pctOf.len), true);
  const spelled = topLevel(t, / divided by /, false);
  if (spelled) return bin('/', t.slice(0, spelled.at), t.slice(spelled.at + spelled.len));
  const additive = topLevel(t, / (?:\+|plus|-|minus|less) /, true);
  if (additive) {
    const word = t.slice(additive.at, additive.at + additive.len).trim();
    const op = word === '+' || word === 'plus' ? '+' : '-';
    return bin(op, t.slice(0, additive.at), t.slice(additive.at + additive.len));
  }
  const multiplicative = topLevel(t, /\s?(?:\/|÷)\s?| (?:over|\*|×|x|times|multiplied by) /, true);
  if (multiplicative) {
    const word = t.slice(multiplicative.at, multiplicative.at + multiplicative.len).trim();
    const op = /^(?:\/|÷|over)$/.test(word) ? '/' : '*';
    return bin(op, t.slice(0, multiplicative.at), t.slice(multiplicative.at + multiplicative.len));
  }
  return leaf(t);
}

/** The expression in words, each operand as the question named it: the delivered formula. */
export function showExpression(e: Expr): string {
  switch (e.kind) {
    case 'num':
      return e.value;
    case 'item':
      return e.name;
    case 'avg':
      return `average(${e.args.map(showExpression).join(', ')})`;
    case 'bin': {
      const wrap = (x: Expr) => (x.kind === 'bin' ? `(${showExpression(x)})` : showExpression(x));
      const sym = e.op === '*' ? '×' : e.op;
      return `${wrap(e.left)} ${sym} ${wrap(e.right)}`;
    }
  }
}

/** Every line-item operand, left to right. */
export function itemsOf(e: Expr): ItemNode[] {
  if (e.kind === 'item') return [e];
  if (e.kind === 'num') return [];
  if (e.kind === 'avg') return e.args.flatMap(itemsOf);
  return [...itemsOf(e.left), ...itemsOf(e.right)];
}
