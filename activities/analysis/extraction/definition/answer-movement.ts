import type { AnswerForm } from '../../../../workflows/analysis/answer-form';
import {
  cmp,
  dec,
  div,
  isZero,
  mul,
  sub,
  toString,
  type Decimal,
} from '../../../../workflows/analysis/decimal-core';
import { CHANGE_VERB_BASES, changeDirectionOf } from '../change-verbs';
import { indexDocument, type Citation } from '../extract-metric';
import type { PageText } from '../statement-table';
import type { DefinedResult } from './answer-defined';
import { DATE, PERIOD, figure, lower, periodOf } from './compared-figure';
import { computeExpression, periodLabel, type MainPeriod } from './compute';
import { itemsOf, showExpression } from './grammar';
import { dollarsText, presentValue } from './amount-text';

/**
 * How one printed figure moved between two periods the question names: "how much did
 * customer deposits increase from December 31, 2021 to December 31, 2022", "what was the
 * percent change in retained earnings between the FY2018 and FY2019 balance sheets", "by
 * what percentage did demand creation expense increase from FY2021 to FY2023". The figure is
 * a printed line item (or a figure the question defines), read for each period from the
 * filing's own rows and cited; the change is end − start, the percent change that over
 * |start|. A verb whose direction the figures contradict, a count or per-share amount, a
 * negative or zero base, or a second question inside the sentence goes to a person.
 */

const NOUNS = 'change|increase|decrease|growth|decline|rise|drop';
// "the end of fiscal 2018", "year-end 2020", "the FY2020 … balance sheets"
const WHEN = String.raw`(?:the )?(?:(?:end of |year[- ]end |fiscal year[- ]end )(?:the )?)?(${DATE}|${PERIOD})`;
const TAIL = String.raw`((?:[ ,;(].*)?)$`;

interface MovementReading {
  subject: string;
  /** The verb or noun that names the movement ("increase", "change", "fell"). */
  word: string;
  percent: boolean;
  start: string;
  end: string;
  rest: string;
}

/** The movement a question asks for, or null when it asks something else. */
export function readMovement(question: string): MovementReading | null {
  const text = lower(question);
  // One question: the sentence up to its question mark (instructions after it are read for
  // the unit and rounding only).
  const sentence = text.replace(/\?.*$/, '');
  const verb = `(${CHANGE_VERB_BASES}|change)s?`;
  const between = String.raw`(?:from|between) ${WHEN} (?:to|and|through) ${WHEN}`;
  const patterns: { re: RegExp; percent: boolean | null }[] = [
    {
      re: new RegExp(
        String.raw`^by what (?:percent(?:age)?|%)(?: amount)? did (.+?) ${verb} ${between}${TAIL}`,
      ),
      percent: true,
    },
    {
      re: new RegExp(String.raw`^(?:by )?how much did (.+?) ${verb}(?: by)? ${between}${TAIL}`),
      percent: null,
    },
    {
      re: new RegExp(
        String.raw`^what (?:was|were) the (?:(?:total |net )?(percent(?:age)?|%) )?(${NOUNS}) in (.+?) ${between}${TAIL}`,
      ),
      percent: null,
    },
  ];
  for (const [i, { re, percent }] of patterns.entries()) {
    const m = re.exec(sentence);
    if (!m) continue;
    const [subject, word, start, end, rest] =
      i === 2 ? [m[3]!, m[2]!, m[4]!, m[5]!, m[6]!] : [m[1]!, m[2]!, m[3]!, m[4]!, m[5]!];
    // Another period after the second ("… and 2022", "… through 2023, and in 2024") is a
    // question this reading does not cover.
    if (/(?:19|20)\d{2}/.test(rest)) return null;
    const asksPercent =
      percent ??
      (i === 2 && m[1] !== undefined
        ? true
        : /%|\bpercent(?:age)?\b|\bper cent\b/.test(text) && !/percentage points?/.test(text));
    return { subject, word, percent: asksPercent, start, end, rest };
  }
  return null;
}

/** Answer a movement question from two cited readings of one figure, or say why a person must. */
export function answerMovement(question: string, pages: readonly PageText[]): DefinedResult {
  const reading = readMovement(question);
  if (!reading) return { status: 'none' };
  const review = (reason: string, hints: Citation[] = []): DefinedResult => ({
    status: 'needs_review',
    reason,
    hints,
  });
  const q = lower(question);
  if (/percentage points?|\bbasis points?\b/.test(q))
    return review('a change in points of a ratio: not read by the movement reader');
  const f = figure(reading.subject);
  if ('unparsed' in f)
    return review(`the moving figure "${f.unparsed}" is not a printed line item or a definition`);
  if (f.percentish)
    return review('the movement of a rate or margin: points or relative change is ambiguous');
  if (
    !reading.percent &&
    /\bper (?:diluted |basic )?(?:common )?share\b|\bcount\b|\bnumber of\b|\bheadcount\b|\bemployees\b/.test(
      q,
    )
  )
    return review('an amount change of a count or per-share figure: not read as currency');
  const doc = indexDocument(pages);
  const start = periodOf(doc, reading.start);
  const end = periodOf(doc, reading.end);
  if (!start || !end) return review('the two periods could not be read');
  if (start.fiscalYear >= end.fiscalYear) return review('the periods are not in time order');

  const at = (p: MainPeriod) => computeExpression(doc, f.expr, p, undefined);
  const s = at(start);
  if (!s.ok) return review(s.reason, s.hints);
  const e = at(end);
  if (!e.ok) return review(e.reason, e.hints);
  const change = sub(e.value, s.value);
  const direction = changeDirectionOf(reading.word);
  if (direction && !isZero(change) && cmp(change, dec('0')) > 0 !== (direction === 'up'))
    return review(
      `the question says the figure ${reading.word}, but it moved the other way (${periodLabel(start)} ${toString(s.value)}, ${periodLabel(end)} ${toString(e.value)})`,
      [...s.inputs, ...e.inputs].map((i) => i.citation),
    );
  // "decrease", "decline", "fall": the size of the fall, unless the question asks for a sign.
  const signed =
    direction !== 'down' || /\bsigned\b|\bnegative\b|\bminus\b|\bwith (?:a|its) sign\b/.test(q);
  const moved = signed ? change : direction === 'down' ? mul(change, dec('-1')) : change;

  let value: Decimal;
  let unit: 'USD' | 'percent';
  if (reading.percent) {
    if (cmp(s.value, dec('0')) <= 0)
      return review('a percent change from a zero or negative base is not meaningful');
    value = mul(div(moved, s.value, 24), dec('100'));
    unit = 'percent';
  } else {
    if (/%|\bpercent/.test(reading.rest)) return review('the unit asked is unclear');
    value = moved;
    unit = 'USD';
  }
  const { requested, outScale, rounding, rounded } = presentValue(q, value, {
    amount: unit === 'USD',
    tableScale: s.scale,
    places: unit === 'percent' ? 1 : 2,
  });
  const answer = unit === 'USD' ? dollarsText(rounded, outScale) : `${rounded}%`;
  const name = showExpression(f.expr);
  const expression =
    unit === 'percent'
      ? `(${name}[${periodLabel(end)}] - ${name}[${periodLabel(start)}]) / ${name}[${periodLabel(start)}] * 100`
      : `${name}[${periodLabel(end)}] - ${name}[${periodLabel(start)}]`;
  const periods = [periodLabel(start), periodLabel(end)];
  const form = (scale: AnswerForm['scale']): AnswerForm => ({
    kind: unit === 'USD' ? 'currency_amount' : 'percent',
    scale: unit === 'USD' ? scale : null,
    currency: unit === 'USD' ? 'USD' : null,
    rounding,
    periods,
    periodCount: 2,
    operation: unit === 'USD' ? 'change' : 'percent_change',
    definition: null,
  });
  const inputs = [...s.inputs, ...e.inputs];
  const names = [...new Set(itemsOf(f.expr).map((i) => i.name))].map((n) => [n]);
  return {
    status: 'answered',
    answer,
    unit,
    value: toString(value),
    scale: outScale,
    roundedTo: rounding,
    confidence: Math.min(...inputs.map((i) => i.confidence)),
    expression,
    period: `${periodLabel(start)}-${periodLabel(end)}`,
    inputs,
    citations: inputs.map((i) => i.citation),
    asked: form(requested),
    delivered: form(outScale),
    // Both periods of the one figure: end − start (over start, for a percent) at the top.
    deliveredFormula: {
      expression,
      operator: unit === 'percent' ? '/' : '-',
      left: names,
      right: names,
    },
    names: names.map(([n]) => n!),
  };
}
