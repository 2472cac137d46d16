import { cmp, dec } from '../../../workflows/analysis/decimal-core';
import { DEGRADED_CONFIDENCE } from '../../../workflows/analysis/step-result';
import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../../workflows/analysis/tool-registry';
import type { PageStore } from '../page-store';
import { answerFromFacts } from './answer-from-facts';
import { declinedReadings } from './fact-operand';
import type { FactStore } from './fact-store';
import { namesPart } from './segment-member';
import { definedFromFacts } from './defined-from-facts';
import { readDefinition } from '../extraction/definition/question-definition';

type Output = ToolOutput<'extract_metric'>;
type ExtractMetric = (raw: ToolInput<'extract_metric'>) => Promise<Output>;

/**
 * extract_metric over a filing with inline XBRL facts (issue 22): the fact path answers
 * when it reads the question, every operand agreeing with the number printed at its row and
 * column; the text path answers the rest, as before. When both answer, they must give the
 * same value, or both go to a person. Documents without facts go straight to the text path.
 */
export function withFacts(
  textPath: ExtractMetric,
  pages: PageStore,
  facts: FactStore,
): ExtractMetric {
  return async function extract_metric(raw) {
    const input = TOOL_SCHEMAS.extract_metric.input.parse(raw);
    const filing = await facts.facts(input.orgId, input.docId);
    if (!filing) return textPath(raw);
    // A caller that names the metric or period (a framework comparison) asks the text path's
    // catalog reading; the fact path reads questions only.
    if (input.metric !== undefined || input.period !== undefined) {
      const out = await textPath(raw);
      return { ...out, readings: declinedReadings('the request names its metric or period') };
    }
    const docPages = await pages.pages(input.orgId, input.docId);
    const fromFacts = answerFromFacts({
      docId: input.docId,
      question: input.question,
      pages: docPages,
      facts: filing.facts,
      partFacts: filing.partFacts,
      dei: filing.dei,
    });
    if (fromFacts.status === 'disagreed') return fromFacts.output;
    if (fromFacts.status === 'answered')
      return agreeWithText(fromFacts.output, fromFacts.part, () =>
        textPath({ ...raw, allowLlm: false }),
      );
    // The question's own definition, its operands read from the facts.
    const defined = readDefinition(input.question);
    if (defined.status === 'ok') {
      const fromDefinition = definedFromFacts({
        docId: input.docId,
        question: input.question,
        definition: defined.definition,
        pages: docPages,
        facts: filing.facts,
        partFacts: filing.partFacts,
        dei: filing.dei,
      });
      if (fromDefinition.status === 'disagreed') return fromDefinition.output;
      if (fromDefinition.status === 'answered')
        return agreeWithText(fromDefinition.output, null, () =>
          textPath({ ...raw, allowLlm: false }),
        );
    }
    const out = await textPath(raw);
    return { ...out, readings: declinedReadings(fromFacts.reason) };
  };
}

/**
 * A fact answer stands only when the text path, reading the same question from the printed
 * rows, gives the same number or none. For a part of the company the text path's answer is a
 * reading of that part only when its row names the part: a text path that read the company
 * total read another line.
 */
async function agreeWithText(
  answer: Output,
  part: string | null,
  readText: () => Promise<Output>,
): Promise<Output> {
  const text = await readText();
  const textReadsIt =
    part === null ||
    (text.form?.labels?.read ?? []).some(
      (r) => namesPart(r.label, part) || (r.heading !== null && namesPart(r.heading, part)),
    );
  if (
    textReadsIt &&
    text.status === 'structured' &&
    text.value !== null &&
    answer.value !== null &&
    text.unit === answer.unit &&
    cmp(dec(text.value), dec(answer.value)) !== 0
  )
    return {
      ...answer,
      status: 'qualitative',
      answer: null,
      unit: null,
      value: null,
      method: 'none',
      claims: [],
      citations: [...answer.citations, ...text.citations],
      confidence: DEGRADED_CONFIDENCE,
      errorTag: 'fact_text_disagree',
      form: answer.form ? { ...answer.form, delivered: null, deliveredFormula: null } : null,
      readings: answer.readings ? { ...answer.readings, agreed: false } : null,
      summary: `From facts: ${answer.answer ?? ''} (${answer.value}); the text path read ${text.answer ?? ''} (${text.value}): a person must reconcile them`,
    };
  return answer;
}
