import type { AnswerForm } from '../../../../workflows/analysis/answer-form';
import {
  cmp,
  dec,
  div,
  mul,
  sub,
  toFixed,
  type Decimal,
} from '../../../../workflows/analysis/decimal-core';
import { indexDocument, type Citation } from '../extract-metric';
import type { AnswerInput } from '../index';
import type { PageText } from '../statement-table';
import { CHANGE_VERB_BASES, changeDirectionOf } from '../change-verbs';
import { DATE, PERIOD, figure, lower, periodOf } from './compared-figure';
import { dimension } from './answer-defined';
import { computeExpression, periodLabel, type MainPeriod } from './compute';
import { showExpression, type Expr } from './grammar';

/**
 * Numeric yes/no questions answered from the cited numbers the comparison needs, with the
 * comparison stated: "did <figure> increase/decline from P1 to P2", "was <figure> above /
 * below <number>", "did <A> exceed <B>". The figure is a printed line item or a ratio the
 * question defines ("operating margin (operating income / total revenue)"); a figure it
 * names without defining is not guessed. Every other yes/no question goes to a person.
 */

export interface YesNoAnswer {
  status: 'answered';
  answer: string;
  verdict: boolean;
  /** The compared figures, in order, each with its own expression and period. */
  compared: { expression: string; period: string; value: string; percent: boolean }[];
  inputs: AnswerInput[];
  citations: Citation[];
  confidence: number;
  form: AnswerForm;
}

export type YesNoResult =
  { status: 'none' } | { status: 'needs_review'; reason: string; hints: Citation[] } | YesNoAnswer;

function show(v: Decimal, percent: boolean, money: boolean): string {
  if (percent) return `${toFixed(mul(v, dec('100')), 2)}%`;
  if (!money) return toFixed(v, 3);
  const m = toFixed(div(v, dec('1000000'), 12), 1).replace(/\.0$/, '');
  const [i = '0', f] = m.replace('-', '').split('.');
  return `${m.startsWith('-') ? '-' : ''}$${i.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${f ? `.${f}` : ''} million`;
}

/**
 * A period as a question names one for a comparison: a fiscal year, a quarter ("Q2 2023",
 * "the second quarter of fiscal 2024"), or a span ended on a date or of a year ("the three
 * months ended July 29, 2023", "the first six months of 2023").
 */
const SPAN = String.raw`(?:(?:the )?(?:(?:first )?(?:three|six|nine|twelve) months ended ${DATE}|first (?:three|six|nine) months of (?:fiscal (?:year )?)?(?:19|20)\d{2}|(?:first|second|third|fourth) (?:fiscal )?quarter (?:of )?(?:fiscal (?:year )?|fy\s?)?(?:19|20)\d{2})|q[1-4] (?:of )?(?:fy\s?|fiscal (?:year )?)?(?:19|20)\d{2}|${PERIOD})`;
const IN = String.raw`(?:in|for|during|over)`;
const AGAINST = String.raw`(?:compared (?:with|to)|versus|vs\.?|relative to|against|from)`;
const COMPARATIVE = String.raw`(higher|lower|greater|smaller|larger|more|less)`;

interface Across {
  a: string;
  b: string;
  p1: string;
  p2: string;
  /** The direction asked; null for any change ("was there any change in X"). */
  up: boolean | null;
  improve: boolean;
  /** The periods are named in no order ("between P1 and P2"): the later one is compared. */
  unordered?: boolean;
}

/** Nouns of a change between two periods ("was there any drop in X between P1 and P2"). */
const CHANGE_NOUNS: Record<string, boolean | null> = {
  drop: false,
  decline: false,
  decrease: false,
  fall: false,
  reduction: false,
  increase: true,
  rise: true,
  growth: true,
  improvement: true,
  change: null,
};

/** A period's place in time, to order two named in no order; null when they cannot be ordered. */
function chronology(a: MainPeriod, b: MainPeriod): [number, number] | null {
  const dated = (p: MainPeriod) =>
    p.endDate ? p.endDate.year * 10000 + p.endDate.month * 100 + p.endDate.day : null;
  if (a.endDate || b.endDate) {
    const [x, y] = [dated(a), dated(b)];
    return x === null || y === null ? null : [x, y];
  }
  // A fiscal year ends after its fourth quarter; a quarter after the one before it.
  const key = (p: MainPeriod) => p.fiscalYear * 10 + (p.quarter ?? 5);
  return [key(a), key(b)];
}

/** A comparison of one figure (or two) between two periods, the base period second. */
function readAcross(sentence: string): Across | null {
  const verb = String.raw`(${CHANGE_VERB_BASES})s?`;
  const same = (a: string, p1: string, p2: string, word: string): Across | null => {
    const comparative = /^(?:higher|greater|larger|more|lower|smaller|less)$/.test(word);
    const up = comparative
      ? /^(?:higher|greater|larger|more)$/.test(word)
      : changeDirectionOf(word) === 'up';
    return { a, b: a, p1, p2, up, improve: word === 'improve' };
  };
  // "did X for P1 decrease compared with P2", "did X decrease in P1 compared with P2"
  let m = new RegExp(
    String.raw`^did (.+?) ${IN} (${SPAN}) ${verb} ${AGAINST} (?:${IN} )?(${SPAN})$`,
  ).exec(sentence);
  if (m) return same(m[1]!, m[2]!, m[4]!, m[3]!);
  m = new RegExp(
    String.raw`^did (.+?) ${verb} ${IN} (${SPAN}) ${AGAINST} (?:${IN} )?(${SPAN})$`,
  ).exec(sentence);
  if (m) return same(m[1]!, m[3]!, m[4]!, m[2]!);
  // "was X higher in P1 than in P2", "were X for P1 lower than for P2"
  m = new RegExp(
    String.raw`^(?:was|were|is|are) (.+?) ${COMPARATIVE} ${IN} (${SPAN}) than (?:${IN} |it was ${IN} |they were ${IN} )?(${SPAN})$`,
  ).exec(sentence);
  if (m) return same(m[1]!, m[3]!, m[4]!, m[2]!);
  m = new RegExp(
    String.raw`^(?:was|were|is|are) (.+?) ${IN} (${SPAN}) ${COMPARATIVE} than (?:${IN} )?(${SPAN})$`,
  ).exec(sentence);
  if (m) return same(m[1]!, m[2]!, m[4]!, m[3]!);
  // "was there any drop in X between P1 and P2" (either order: the later period is compared)
  m = new RegExp(
    String.raw`^(?:was there|has there been|were there) (?:any|a|an) (${Object.keys(CHANGE_NOUNS).join('|')}) in (.+?) (?:between|from) (${SPAN}) (?:and|to) (${SPAN})$`,
  ).exec(sentence);
  if (m) {
    const up = CHANGE_NOUNS[m[1]!]!;
    return {
      a: m[2]!,
      b: m[2]!,
      p1: m[3]!,
      p2: m[4]!,
      up,
      improve: m[1] === 'improvement',
      unordered: true,
    };
  }
  // "did A in P1 exceed its P2 B", "did A in P1 exceed B in P2"
  m = new RegExp(
    String.raw`^did (.+?) ${IN} (${SPAN}) exceed (?:its |their |the )?(?:(${SPAN}) (.+?)|(.+?) ${IN} (${SPAN}))$`,
  ).exec(sentence);
  if (m) {
    const p2 = m[3] ?? m[6]!;
    const b = m[4] ?? m[5]!;
    return { a: m[1]!, b, p1: m[2]!, p2, up: true, improve: false };
  }
  return null;
}

/**
 * The period as the answer's reader should see it: a year to date is named by its span
 * ("first six months of FY2023"), not by the fiscal year alone that the form check compares.
 */
function spokenPeriod(p: MainPeriod): string {
  const label = periodLabel(p);
  if ((p.months === 6 || p.months === 9) && label.startsWith('FY'))
    return `first ${p.months === 6 ? 'six' : 'nine'} months of ${label}`;
  return label;
}

/** Answer a numeric yes/no question from the filing, or say why a person must. */
export function answerYesNo(question: string, pages: readonly PageText[]): YesNoResult {
  const q = lower(question);
  if (!/^(?:did|was|were|is|has)\b/.test(q)) return { status: 'none' };
  const doc = indexDocument(pages);
  const review = (reason: string, hints: Citation[] = []): YesNoResult => ({
    status: 'needs_review',
    reason,
    hints,
  });
  const sentence = q.replace(/\?.*$/, '');
  type Side = { expr: Expr; period: MainPeriod; percent: boolean };
  let sides: [Side, Side] | null = null;
  let test: ((a: Decimal, b: Decimal) => boolean) | null = null;
  let relation = '';
  let operation: AnswerForm['operation'] = 'level';

  const trend = new RegExp(
    String.raw`^did (.+?) (${CHANGE_VERB_BASES})s? (?:from|between) (${SPAN}) (?:to|and) (${SPAN})$`,
  ).exec(sentence);
  // The same figure in two periods, the base period named second (periods.ts of a filing:
  // years, quarters, "the six months ended <date>"): "did X (in P1) <verb> (in P1) compared
  // with P2", "was X higher in P1 than in P2", "did X in P1 exceed its P2 X".
  const across = readAcross(sentence);
  const threshold = new RegExp(
    String.raw`^(?:was|is) (.+?) (above|below|greater than|less than|higher than|lower than|over|under) (-?\d+(?:\.\d+)?)(%?)(?: (?:at|as of|in|for) (?:the end of )?(${DATE}|${PERIOD}))?$`,
  ).exec(sentence);
  const sign = new RegExp(
    String.raw`^(?:was|is) (.+?) (negative|positive)(?: (?:at|as of|in|for) (?:the end of )?(${DATE}|${PERIOD}))?$`,
  ).exec(sentence);
  // "did A exceed B in P", or with the period after the first figure: "did A in P exceed B".
  const exceedAfter = new RegExp(
    String.raw`^did (.+?) exceed (.+?) (?:in|for|during) (${PERIOD})$`,
  ).exec(sentence);
  const exceedBetween = new RegExp(
    String.raw`^did (.+?) (?:in|for|during) (${PERIOD}) exceed (.+?)$`,
  ).exec(sentence);
  // "did X pay more in A than it spent on B in P", "did X spend less on A than on B in P".
  const moreOrLess = new RegExp(
    String.raw`^did (?:[a-z&.']+ ){1,4}?(?:pay|spend|earn|record|report|incur) (more|less) (?:in |on |for |as )?(.+?) than (?:(?:it|they|the company) )?(?:(?:paid|spent|earned|recorded|reported|incurred|did) )?(?:in |on |for |as )?(.+?) (?:in|for|during) (${PERIOD})$`,
  ).exec(sentence);
  const exceed = exceedAfter
    ? { a: exceedAfter[1]!, b: exceedAfter[2]!, period: exceedAfter[3]!, less: false }
    : exceedBetween
      ? { a: exceedBetween[1]!, b: exceedBetween[3]!, period: exceedBetween[2]!, less: false }
      : moreOrLess
        ? {
            a: moreOrLess[2]!,
            b: moreOrLess[3]!,
            period: moreOrLess[4]!,
            less: moreOrLess[1] === 'less',
          }
        : null;
  if (across) {
    const a = figure(across.a);
    const b = figure(across.b);
    if ('unparsed' in a)
      return review(`the compared figure "${a.unparsed}" is not defined in the question`);
    if ('unparsed' in b)
      return review(`the compared figure "${b.unparsed}" is not defined in the question`);
    let p1 = periodOf(doc, across.p1);
    let p2 = periodOf(doc, across.p2);
    if (!p1 || !p2) return review('the compared periods could not be read');
    if (across.unordered) {
      const order = chronology(p1, p2);
      if (!order || order[0] === order[1])
        return review('which of the compared periods is the later one is not known');
      if (order[0] < order[1]) [p1, p2] = [p2, p1];
    }
    if (periodLabel(p1) === periodLabel(p2)) return review('the compared periods are the same');
    if (across.improve && !/\bmargin\b/.test(across.a))
      return review(`whether "${across.a}" improved is a judgment on its direction`);
    sides = [
      { expr: a.expr, period: p1, percent: a.percentish },
      { expr: b.expr, period: p2, percent: b.percentish },
    ];
    const up = across.up;
    test = (x, y) => (up === null ? cmp(x, y) !== 0 : up ? cmp(x, y) > 0 : cmp(x, y) < 0);
    relation = up === null ? 'different from' : up ? 'higher than' : 'lower than';
    operation = 'change';
  } else if (trend) {
    const f = figure(trend[1]!);
    if ('unparsed' in f)
      return review(`the compared figure "${f.unparsed}" is not defined in the question`);
    const p1 = periodOf(doc, trend[3]!);
    const p2 = periodOf(doc, trend[4]!);
    if (!p1 || !p2) return review('the compared periods could not be read');
    sides = [
      { expr: f.expr, period: p2, percent: f.percentish },
      { expr: f.expr, period: p1, percent: f.percentish },
    ];
    // A margin improves by rising; for any other figure "improve" is a judgment.
    if (trend[2] === 'improve' && !/\bmargin\b/.test(trend[1]!))
      return review(`whether "${trend[1]}" improved is a judgment on its direction`);
    const up = changeDirectionOf(trend[2]!) === 'up';
    test = (later, earlier) => (up ? cmp(later, earlier) > 0 : cmp(later, earlier) < 0);
    relation = up ? 'higher than' : 'lower than';
    operation = 'change';
  } else if (threshold) {
    const f = figure(threshold[1]!);
    if ('unparsed' in f)
      return review(`the compared figure "${f.unparsed}" is not defined in the question`);
    const when = periodOf(doc, threshold[5] ?? threshold[1]!);
    if (!when) return review('no period for the comparison');
    const percent = threshold[4] === '%';
    const limit = percent ? dec(String(Number(threshold[3]) / 100)) : dec(threshold[3]!);
    const above = /above|greater|higher|over/.test(threshold[2]!);
    sides = [
      { expr: f.expr, period: when, percent: percent || f.percentish },
      { expr: { kind: 'num', value: threshold[3]! }, period: when, percent: false },
    ];
    test = (v) => (above ? cmp(v, limit) > 0 : cmp(v, limit) < 0);
    relation = above ? 'above' : 'below';
    operation = f.expr.kind === 'bin' && f.expr.op === '/' ? 'quotient' : 'level';
  } else if (sign) {
    const f = figure(sign[1]!);
    if ('unparsed' in f)
      return review(`the compared figure "${f.unparsed}" is not defined in the question`);
    const when = periodOf(doc, sign[3] ?? sign[1]!);
    if (!when) return review('no period for the comparison');
    const negative = sign[2] === 'negative';
    sides = [
      { expr: f.expr, period: when, percent: false },
      { expr: { kind: 'num', value: '0' }, period: when, percent: false },
    ];
    test = (v) => (negative ? cmp(v, dec('0')) < 0 : cmp(v, dec('0')) > 0);
    relation = negative ? 'below' : 'above';
  } else if (exceed) {
    const a = figure(exceed.a);
    const b = figure(exceed.b);
    if ('unparsed' in a) return review(`"${a.unparsed}" is not defined in the question`);
    if ('unparsed' in b) return review(`"${b.unparsed}" is not defined in the question`);
    const when = periodOf(doc, exceed.period);
    if (!when) return review('no period for the comparison');
    sides = [
      { expr: a.expr, period: when, percent: false },
      { expr: b.expr, period: when, percent: false },
    ];
    test = exceed.less ? (x, y) => cmp(x, y) < 0 : (x, y) => cmp(x, y) > 0;
    relation = exceed.less ? 'less than' : 'more than';
  } else return review('a yes/no question the numeric reader does not read');

  const values: Decimal[] = [];
  const inputs: AnswerInput[] = [];
  for (const side of sides) {
    if (side.expr.kind === 'num') {
      values.push(dec(side.expr.value));
      continue;
    }
    const c = computeExpression(doc, side.expr, side.period, undefined);
    if (!c.ok) return review(c.reason, c.hints);
    values.push(c.value);
    inputs.push(...c.inputs);
  }
  const [x, y] = values as [Decimal, Decimal];
  const limitValue =
    threshold && threshold[4] === '%' ? dec(String(Number(threshold[3]) / 100)) : y;
  const verdict = test(x, limitValue);
  const compared = sides.map((s, i) => ({
    expression: showExpression(s.expr),
    period: periodLabel(s.period),
    value: toFixed(values[i]!, 6),
    percent: s.percent,
  }));
  const fmt = (i: number) =>
    sides![i]!.expr.kind === 'num'
      ? threshold
        ? threshold[3]! + threshold[4]!
        : (sides![i]!.expr as { value: string }).value
      : `${show(values[i]!, sides![i]!.percent, dimension(sides![i]!.expr) === 1)} (${compared[i]!.expression}, ${spokenPeriod(sides![i]!.period)})`;
  const answer = `${verdict ? 'Yes' : 'No'}: ${fmt(0)} is ${verdict ? '' : 'not '}${relation} ${fmt(1)}`;
  const periods = [...new Set(sides.map((s) => periodLabel(s.period)))].sort();
  return {
    status: 'answered',
    answer,
    verdict,
    compared,
    inputs,
    citations: inputs.map((i) => i.citation),
    confidence: Math.min(...inputs.map((i) => i.confidence)),
    form: {
      kind: 'yes_no',
      scale: null,
      currency: null,
      rounding: null,
      periods,
      periodCount: periods.length,
      operation,
      definition: null,
    },
  };
}

/** The difference the verdict rests on, as a decimal string (later − earlier, or A − B). */
export function verdictMargin(a: YesNoAnswer): string {
  const [x, y] = a.compared;
  return toFixed(sub(dec(x!.value), dec(y!.value)), 6);
}
