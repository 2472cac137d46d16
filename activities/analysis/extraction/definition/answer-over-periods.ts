import type { AnswerForm } from '../../../../workflows/analysis/answer-form';
import {
  add,
  cmp,
  dec,
  div,
  mul,
  toString,
  type Decimal,
} from '../../../../workflows/analysis/decimal-core';
import { indexDocument, type Citation } from '../extract-metric';
import type { AnswerInput } from '../index';
import type { Scale } from '../scale';
import type { PageText } from '../statement-table';
import type { DefinedResult } from './answer-defined';
import { figure, lower } from './compared-figure';
import { computeExpression, periodLabel } from './compute';
import { itemsOf, showExpression } from './grammar';
import { statementOf } from './question-definition';
import { dollarsText, presentValue } from './amount-text';

/**
 * One printed figure summed or averaged over the fiscal years a question lists: "Corning's
 * total interest expense over 2018, 2019 and 2020", "Best Buy's cumulative net earnings over
 * FY2021, FY2022 and FY2023", "average net interest income over FY2020 to FY2022". Each year
 * is read from the filing's own rows and cited; the arithmetic is exact. An outflow the
 * question asks about as an amount paid or an expense ("how much did X pay", "total interest
 * expense") is its size when every year prints it negative; anything else keeps the printed
 * sign. A range that is not whole years, or a year the filing does not print, goes to review.
 */

const OP = String.raw`(total|sum of(?: the)?|cumulative|combined|aggregate|average|mean)(?: annual| yearly)?`;
const OWNER = String.raw`(?:(?:(?!(?:of|to|and|the) )[a-z&.]+ ){0,3}[a-z&.]+'s )?`;
const YEAR = String.raw`(?:fy\s?|fiscal (?:years? )?)?((?:19|20)\d{2})`;

export interface OverPeriodsReading {
  operation: 'sum' | 'average';
  subject: string;
  years: number[];
}

/** The fiscal years a period clause lists or spans, in order; null when it is not years. */
function yearsOf(clause: string): number[] | null {
  const c = clause.replace(/\([^)]*\)?/g, ' ').trim();
  const range = new RegExp(String.raw`^${YEAR}\s*(?:-|to|through)\s*${YEAR}\s*$`).exec(c);
  if (range) {
    const [a, b] = [Number(range[1]), Number(range[2])];
    if (b <= a || b - a > 9) return null;
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  }
  const parts = c.split(/\s*,\s*(?:and\s+)?|\s+and\s+/);
  const years: number[] = [];
  for (const p of parts) {
    const m = new RegExp(String.raw`^${YEAR}$`).exec(p.trim());
    if (!m) return null;
    years.push(Number(m[1]));
  }
  if (years.length < 2 || new Set(years).size !== years.length) return null;
  return years.sort((a, b) => a - b);
}

/** The aggregate over listed years a question asks for, or null. */
export function readOverPeriods(question: string): OverPeriodsReading | null {
  const text = lower(question);
  const sentence = text.replace(/\?.*$/, '');
  const lead = String.raw`^(?:(?:using|according to|per|based on) [^,]{1,60}, )?`;
  const when = String.raw`(?:summed |combined )?(?:over|across|in|for|during) (?:the )?(?:(?:last|past) (?:two|three|four|five) (?:fiscal )?years,? )?(?:its )?(?:the )?(?:(?:two|three|four|five) )?(?:fiscal years? |years )?\(?`;
  const tail = String.raw`\)?(?: combined| in total)?(?:,? (?:according to|per|using|based on|as reported|in) [^0-9]*)?$`;
  const patterns: { re: RegExp; op: number; subject: number; years: number }[] = [
    {
      // "how much did Nike spend in total on repurchases of common stock over fiscal years
      // 2017, 2018 and 2019 combined"
      re: new RegExp(
        String.raw`${lead}how much (?:cash )?did (?:[a-z&.']+ ){1,4}?(?:pay|spend) (in total|combined) (?:in |on )?(.+?) ${when}(.+?)${tail}`,
      ),
      op: 1,
      subject: 2,
      years: 3,
    },
    {
      // "what was the total cash Lockheed Martin spent on repurchases of common stock in 2018,
      // 2019 and 2020 combined": the figure is what the filer spent the cash on.
      re: new RegExp(
        String.raw`${lead}what (?:was|were|is|are) the ${OP} (?:cash |amount )?(?:[a-z&.']+ ){1,4}?(?:spent on|paid (?:in|for|on)|used (?:for|on)) (.+?) ${when}(.+?)${tail}`,
      ),
      op: 1,
      subject: 2,
      years: 3,
    },
    {
      re: new RegExp(
        String.raw`${lead}what (?:was|were|is|are) (?:the )?${OWNER}${OP} (?:of )?(?:the )?(.+?) ${when}(.+?)${tail}`,
      ),
      op: 1,
      subject: 2,
      years: 3,
    },
    {
      // "how much did Nike pay in dividends in total over fiscal 2020, 2021 and 2022"
      re: new RegExp(
        String.raw`${lead}how much (?:cash )?did (?:[a-z&.']+ ){1,4}?(?:pay|spend) (?:in |on )?(.+?) (in total|combined) ${when}(.+?)${tail}`,
      ),
      op: 2,
      subject: 1,
      years: 3,
    },
  ];
  for (const p of patterns) {
    const m = p.re.exec(sentence);
    if (!m) continue;
    const years = yearsOf(m[p.years]!);
    if (!years) return null;
    const op = m[p.op]!;
    return {
      operation: /average|mean/.test(op) ? 'average' : 'sum',
      subject: withoutNamedParty(m[p.subject]!, question),
      years,
    };
  }
  return null;
}

/**
 * The figure without the party the question names around it: "dividends paid by Lockheed
 * Martin" is "dividends paid", "depreciation and amortization Best Buy recorded" is
 * "depreciation and amortization". A party is a run of capitalised words in the question as
 * written (a proper name), so "cash provided by operating activities" keeps its words.
 */
function withoutNamedParty(subject: string, question: string): string {
  const names = [
    ...question.matchAll(/(?<=\s)[A-Z][\w&.'’-]*(?:\s+(?:&\s+)?[A-Z][\w&.'’-]*)*/g),
  ].map((m) => lower(m[0]).replace(/[.,]+$/, ''));
  let s = subject;
  for (const n of names) {
    const e = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    s = s
      .replace(new RegExp(String.raw` by ${e}$`), '')
      .replace(new RegExp(String.raw` ${e} (?:recorded|reported|paid|spent|incurred)$`), '');
  }
  return s;
}

/** Answer a sum or average over listed years from one cited reading per year. */
export function answerOverPeriods(question: string, pages: readonly PageText[]): DefinedResult {
  const reading = readOverPeriods(question);
  if (!reading) return { status: 'none' };
  const review = (reason: string, hints: Citation[] = []): DefinedResult => ({
    status: 'needs_review',
    reason,
    hints,
  });
  const q = lower(question);
  if (/%|\bpercent|\bper (?:diluted |basic )?(?:common )?share\b|\bcount\b|\bnumber of\b/.test(q))
    return review('a sum or average of a per-share, count or percent figure: not read as currency');
  // "capital expenditure (additions to property and equipment)": the parenthesis names the
  // printed row.
  const named =
    /^(.+?) \(((?!(?:a|an|the|and|or|of|in|on|for|to|as|from|per|including|excluding|net|see|such|e\.g\.|i\.e\.|which|that) )[^() ]+(?: [^() ]+)+)\)$/.exec(
      reading.subject,
    );
  const f = figure(
    named && !/\/|divided by|\bminus\b|\bless\b|\bplus\b/.test(named[2]!)
      ? named[2]!
      : reading.subject,
  );
  if ('unparsed' in f)
    return review(`the summed figure "${f.unparsed}" is not a printed line item or a definition`);
  if (f.percentish) return review('a sum or average of a rate or margin');

  const doc = indexDocument(pages);
  const values: Decimal[] = [];
  const inputs: AnswerInput[] = [];
  let scale: Scale | null = null;
  for (const fiscalYear of reading.years) {
    const c = computeExpression(doc, f.expr, { fiscalYear }, statementOf(q));
    if (!c.ok) return review(c.reason, c.hints);
    values.push(c.value);
    inputs.push(...c.inputs);
    scale ??= c.scale;
  }
  const total = values.reduce((a, b) => add(a, b), dec('0'));
  // An outflow asked for as an amount paid, spent or expensed: its size.
  const allNegative = values.every((v) => cmp(v, dec('0')) < 0);
  const asksSize =
    /\bhow much (?:cash )?did\b.*\b(?:pay|spend|use)\b|\bspent\b|\bpaid\b|\bpayments?\b/.test(q) ||
    /\bexpenses?\b$|\bexpenditures?\b$|\bcosts?\b$/.test(showExpression(f.expr));
  const flip = allNegative && asksSize && !/\bnet\b/.test(reading.subject);
  const n = dec(String(reading.years.length));
  const signed = reading.operation === 'sum' ? total : div(total, n, 24);
  const value = flip ? mul(signed, dec('-1')) : signed;

  const { requested, outScale, rounding, rounded } = presentValue(q, value, {
    amount: true,
    tableScale: scale,
    places: 2,
  });
  const answer = dollarsText(rounded, outScale);
  const name = showExpression(f.expr);
  const periods = reading.years.map((fiscalYear) => periodLabel({ fiscalYear }));
  const terms = periods.map((p) => `${name}[${p}]`).join(' + ');
  const expression = `${flip ? '-' : ''}(${terms})${reading.operation === 'average' ? ` / ${reading.years.length}` : ''}`;
  const form = (s: AnswerForm['scale']): AnswerForm => ({
    kind: 'currency_amount',
    scale: s,
    currency: 'USD',
    rounding,
    periods,
    periodCount: periods.length,
    operation: reading.operation,
    definition: null,
  });
  const names = [...new Set(itemsOf(f.expr).map((i) => i.name))];
  return {
    status: 'answered',
    answer,
    unit: 'USD',
    value: toString(value),
    scale: outScale,
    roundedTo: rounding,
    confidence: Math.min(...inputs.map((i) => i.confidence)),
    expression,
    period: `${periods[0]}-${periods[periods.length - 1]}`,
    inputs,
    citations: inputs.map((i) => i.citation),
    asked: form(requested),
    delivered: form(outScale),
    deliveredFormula: {
      expression,
      operator: reading.operation === 'average' ? '/' : '+',
      left: names.map((n) => [n]),
      right: reading.operation === 'average' ? [] : names.map((n) => [n]),
    },
    names,
  };
}
