import type { ToolOutput } from '../../workflows/analysis/tool-registry';
import type { AnswerForm, FormEvidence } from '../../workflows/analysis/answer-form';
import type { Citation, NumericClaim } from '../../workflows/analysis/evidence';
import { DEGRADED_CONFIDENCE } from '../../workflows/analysis/step-result';
import { answerDefined, type DefinedAnswer } from './extraction/definition/answer-defined';
import { answerYesNo, verdictMargin, type YesNoAnswer } from './extraction/definition/yes-no';
import { answerMovement } from './extraction/definition/answer-movement';
import { answerOverPeriods, readOverPeriods } from './extraction/definition/answer-over-periods';
import { readDefinition } from './extraction/definition/question-definition';
import { citedPageLabels, coverWords, rowsRead } from './label-evidence';

type Output = ToolOutput<'extract_metric'>;

const KIND: Record<DefinedAnswer['unit'], NumericClaim['kind']> = {
  USD: 'money',
  'USD/share': 'per_share',
  percent: 'ratio_percent',
  ratio: 'ratio',
  days: 'ratio',
};

/** The answer claim (derived, its formula the compiled definition) and one claim per operand. */
function claimsOf(docId: string, a: DefinedAnswer): NumericClaim[] {
  const base = `${docId}/defined/${a.period}`;
  const inputs: NumericClaim[] = a.inputs.map((inp, i) => ({
    id: `${base}#in${i}`,
    label: inp.matchedLabel,
    metric: inp.metric,
    kind: inp.unit === 'shares' ? 'count' : 'money',
    value: inp.value,
    unit: inp.unit,
    period: inp.period,
    printed: inp.printed,
    citations: [{ docId, ...inp.citation }],
    derived: false,
    formula: null,
    inputs: [],
    source: 'code',
  }));
  return [
    {
      id: `${base}#0`,
      label: a.expression,
      metric: null,
      kind: KIND[a.unit],
      value: a.value,
      unit: a.unit,
      period: a.period,
      printed: null,
      citations: inputs.flatMap((c) => c.citations),
      derived: true,
      formula: a.expression,
      inputs: inputs.map((c) => c.id),
      source: 'code',
    },
    ...inputs,
  ];
}

function reviewOutput(
  docId: string,
  reason: string,
  hints: Omit<Citation, 'docId'>[],
  secondReading: AnswerForm,
): Output {
  const citations: Citation[] = hints.slice(0, 3).map((c) => ({ docId, ...c }));
  return {
    status: citations.length ? 'qualitative' : 'not_found',
    answer: null,
    unit: null,
    value: null,
    method: 'none',
    claims: [],
    citations,
    confidence: DEGRADED_CONFIDENCE,
    errorTag: 'not_extracted',
    form: { asked: null, secondReading, delivered: null, deliveredFormula: null },
    summary: `No structured answer: ${reason}`,
  };
}

function labelsOf(
  question: string,
  names: string[],
  inputs: DefinedAnswer['inputs'],
  pages: { page: number; text: string }[],
): FormEvidence['labels'] {
  const read = rowsRead(inputs, pages, (h) => h);
  return {
    question,
    formula: inputs.length > 1,
    entry: '',
    catalogPhrases: names,
    read,
    filerWords: coverWords(pages),
    pageLabels: citedPageLabels(read, pages),
  };
}

/** A verdict with the compared figures as derived claims over their cited inputs. */
function yesNoOutput(
  docId: string,
  a: YesNoAnswer,
  secondReading: AnswerForm,
  question: string,
  pages: { page: number; text: string }[],
): Output {
  const base = `${docId}/yes_no`;
  const inputs: NumericClaim[] = a.inputs.map((inp, i) => ({
    id: `${base}#in${i}`,
    label: inp.matchedLabel,
    metric: inp.metric,
    kind: inp.unit === 'shares' ? 'count' : 'money',
    value: inp.value,
    unit: inp.unit,
    period: inp.period,
    printed: inp.printed,
    citations: [{ docId, ...inp.citation }],
    derived: false,
    formula: null,
    inputs: [],
    source: 'code',
  }));
  const figures: NumericClaim[] = a.compared
    .map((c, k) => ({ c, k }))
    .filter(({ c }) => /[a-z]/.test(c.expression))
    .map(({ c, k }) => {
      const own = inputs.filter((inp) => inp.period === c.period);
      return {
        id: `${base}#${k}`,
        label: c.expression,
        metric: null,
        kind: /[/]/.test(c.expression) ? 'ratio' : 'money',
        value: c.value,
        unit: /[/]/.test(c.expression) ? 'ratio' : 'USD',
        period: c.period,
        printed: null,
        citations: own.flatMap((x) => x.citations),
        derived: true,
        formula: c.expression,
        inputs: own.map((x) => x.id),
        source: 'code',
      } satisfies NumericClaim;
    });
  return {
    status: 'structured',
    answer: a.answer,
    unit: 'yes_no',
    value: verdictMargin(a),
    method: 'code',
    claims: [...figures, ...inputs],
    citations: inputs.flatMap((c) => c.citations),
    confidence: a.confidence,
    errorTag: null,
    form: {
      asked: a.form,
      secondReading,
      delivered: a.form,
      deliveredFormula: null,
      labels: labelsOf(question, [...new Set(a.inputs.map((i) => i.label))], a.inputs, pages),
    },
    summary: a.answer,
  };
}

/**
 * extract_metric's path for a question that states its own arithmetic (or names a line
 * item the catalog does not): null when the question defines nothing, a review naming the
 * reason when the definition cannot be compiled or read, else a structured answer whose
 * form and label evidence the validation gate checks like any other.
 */
export function extractDefined(
  docId: string,
  question: string,
  pages: { page: number; text: string }[],
  secondReading: AnswerForm,
  lineItems: boolean,
): Output | null {
  if (lineItems && /^\s*(?:did|was|were|is|has)\b/i.test(question)) {
    const yn = answerYesNo(question, pages);
    if (yn.status === 'answered') return yesNoOutput(docId, yn, secondReading, question, pages);
    if (yn.status === 'needs_review')
      return reviewOutput(docId, yn.reason, yn.hints, secondReading);
  }
  // A printed figure's movement between two named periods, when the question defines nothing.
  const moved =
    lineItems && readDefinition(question).status === 'none'
      ? answerMovement(question, pages)
      : { status: 'none' as const };
  const summed =
    lineItems && moved.status === 'none' && asksOverPeriods(question)
      ? answerOverPeriods(question, pages)
      : { status: 'none' as const };
  const r =
    moved.status !== 'none'
      ? moved
      : summed.status !== 'none'
        ? summed
        : answerDefined(question, pages, lineItems);
  if (r.status === 'none') return null;
  if (r.status === 'needs_review') return reviewOutput(docId, r.reason, r.hints, secondReading);
  return definedOutput(docId, question, r, pages, secondReading);
}

/**
 * A sum or average over the years the question lists, read year by year from the filing's
 * rows: tried before a catalog answer that read one year (or the wrong years) of the figure.
 * Null when the question asks no such aggregate or it cannot be read.
 */
/**
 * Whether the question asks a sum or average over listed years and states no arithmetic of
 * its own: "over" is the definition grammar's division word too, so a "definition" that
 * swallowed the listed years ("total interest expense over 2018, 2019 and 2020") is that
 * period clause misread, not a ratio.
 */
function asksOverPeriods(question: string): boolean {
  const over = readOverPeriods(question);
  if (!over) return false;
  const d = readDefinition(question);
  if (d.status !== 'ok') return true;
  return over.years.some((y) => d.definition.text.includes(String(y)));
}

export function extractOverPeriods(
  docId: string,
  question: string,
  pages: { page: number; text: string }[],
  secondReading: AnswerForm,
): Output | null {
  if (!asksOverPeriods(question)) return null;
  const r = answerOverPeriods(question, pages);
  return r.status === 'answered' ? definedOutput(docId, question, r, pages, secondReading) : null;
}

export function definedOutput(
  docId: string,
  question: string,
  r: DefinedAnswer,
  pages: { page: number; text: string }[],
  secondReading: AnswerForm,
): Output {
  const claims = claimsOf(docId, r);
  const form: FormEvidence = {
    asked: r.asked,
    secondReading,
    delivered: r.delivered,
    deliveredFormula: r.deliveredFormula,
    labels: labelsOf(question, r.names, r.inputs, pages),
  };
  return {
    status: 'structured',
    answer: r.answer,
    unit: r.unit,
    value: r.value,
    method: 'code',
    claims,
    citations: claims.flatMap((c) => (c.derived ? [] : c.citations)),
    confidence: r.confidence,
    errorTag: null,
    form,
    summary: `${r.expression} (${r.period}): ${r.answer}, computed as the question defines it from ${r.inputs.length} cited line item${r.inputs.length === 1 ? '' : 's'}`,
  };
}
