import { cmp, dec } from '../../../workflows/analysis/decimal-core';
import { DEGRADED_CONFIDENCE } from '../../../workflows/analysis/step-result';
import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../../workflows/analysis/tool-registry';
import type { PageStore } from '../page-store';
import { answerFromFacts, declinedReadings } from './answer-from-facts';
import type { FactStore } from './fact-store';
import { namesPart } from './segment-member';

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
    if (fromFacts.status === 'declined') {
      const out = await textPath(raw);
      return { ...out, readings: declinedReadings(fromFacts.reason) };
    }
    if (fromFacts.status === 'disagreed') return fromFacts.output;
    // The text path's own answer, when it has one, must be the same number. For a part of
    // the company it is a reading of that part only when its row names the part: a text path
    // that read the company total read another line.
    const text = await textPath({ ...raw, allowLlm: false });
    const answer = fromFacts.output;
    const part = fromFacts.part;
    const textReadsIt =
      part === null ||
      (text.form?.labels?.read ?? []).some((r) => namesPart(r.label, part)) ||
      (text.form?.labels?.read ?? []).some((r) => r.heading !== null && namesPart(r.heading, part));
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
  };
}
