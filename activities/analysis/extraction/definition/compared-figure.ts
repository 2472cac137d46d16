import type { DocumentIndex } from '../extract-metric';
import { mainPeriod } from './answer-defined';
import type { MainPeriod } from './compute';
import { itemsOf, parseExpression, stripOwner, type Expr } from './grammar';

/**
 * The figure a question compares across periods or against a number ("did <figure> rise
 * from P1 to P2", "how much did <figure> change between P1 and P2"), and the periods it
 * names: shared by the yes/no reader and the movement reader, so both read a figure and a
 * period the same way.
 */

/** A fiscal year as a question writes it: "2021", "FY2021", "fiscal 2021", "fiscal year 2021". */
export const PERIOD = String.raw`(?:fy\s?|fiscal (?:year )?)?(?:19|20)\d{2}`;
/** A balance-sheet date: "December 31, 2021", "May 31 2019". */
export const DATE = String.raw`[a-z]+\.? \d{1,2},? (?:19|20)\d{2}`;

/** The figure: the question's own definition if it gives one, else its name. */
export function figure(
  subject: string,
): { expr: Expr; percentish: boolean } | { unparsed: string } {
  let s = stripOwner(subject.trim().replace(/,$/, '').replace(/^the /, '').trim());
  const defined = /^(.*?)(?:,? (?:calculated|defined|computed) as |\s*\()(.+?)\)?,?$/.exec(s);
  let named = s;
  if (defined && /\/|divided by|\bover\b|\bminus\b|\bless\b|\bplus\b|\+|-/.test(defined[2]!)) {
    named = defined[1]!;
    s = defined[2]!;
  } else if (/\b(?:margin|ratio|rate|turnover|return)\b/.test(s) && !/^ratio of .+ to /.test(s)) {
    // A named ratio without its definition: which lines it divides is the question's to say.
    return { unparsed: s };
  }
  const p = parseExpression(s);
  if (!p.ok) return { unparsed: p.unparsed };
  // A name of generic words only ("and other", "net", "total amount") names no line item: a
  // row that merely shares them ("Other, net") is not the figure asked about.
  const generic = itemsOf(p.expr).find((i) =>
    i.name
      .split(/[^a-z&]+/)
      .every((w) => !w || /^(?:and|or|of|the|other|others|net|total|amount|amounts)$/.test(w)),
  );
  if (generic) return { unparsed: generic.name };
  return {
    expr: p.expr,
    percentish: /\b(?:margin|rate|return|percent|percentage)\b|%/.test(named),
  };
}

/** The question lower-cased, with typographic quotes, dashes and spacing made plain. */
export function lower(q: string): string {
  return q.toLowerCase().replace(/[’‘]/g, "'").replace(/[−–—]/g, '-').replace(/\s+/g, ' ').trim();
}

/** The one period a phrase names in this filing's fiscal calendar, or null. */
export function periodOf(doc: DocumentIndex, text: string): MainPeriod | null {
  const p = mainPeriod(doc, text);
  return p === null || p === 'several' ? null : p;
}
