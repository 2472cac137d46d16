import type { ToolOutput } from '../../workflows/analysis/tool-registry';
import type { AnswerForm, FormEvidence } from '../../workflows/analysis/answer-form';
import type { Citation, NumericClaim } from '../../workflows/analysis/evidence';
import { DEGRADED_CONFIDENCE } from '../../workflows/analysis/step-result';
import { answerDefined, type DefinedAnswer } from './extraction/definition/answer-defined';
import { coverWords, rowLabels } from './label-evidence';

type Output = ToolOutput<'extract_metric'>;

const KIND: Record<DefinedAnswer['unit'], NumericClaim['kind']> = {
  USD: 'money',
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
    kind: 'money',
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
  const r = answerDefined(question, pages, lineItems);
  if (r.status === 'none') return null;
  if (r.status === 'needs_review') {
    const citations: Citation[] = r.hints.slice(0, 3).map((c) => ({ docId, ...c }));
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
      summary: `No structured answer: ${r.reason}`,
    };
  }
  const claims = claimsOf(docId, r);
  const cited = [...new Set(r.inputs.map((i) => i.citation.page))].slice(0, 4);
  const form: FormEvidence = {
    asked: r.asked,
    secondReading,
    delivered: r.delivered,
    deliveredFormula: r.deliveredFormula,
    labels: {
      question,
      formula: r.inputs.length > 1,
      entry: '',
      catalogPhrases: r.names,
      read: r.inputs.slice(0, 20).map((i) => ({
        metric: i.metric,
        label: i.matchedLabel,
        heading: i.heading ?? null,
        page: i.citation.page,
      })),
      filerWords: coverWords(pages),
      pageLabels: cited.flatMap((p) =>
        rowLabels(pages.find((x) => x.page === p)?.text ?? '').map((label) => ({ page: p, label })),
      ),
    },
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
