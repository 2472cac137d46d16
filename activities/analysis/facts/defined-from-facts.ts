import type { StoredFact } from '../../../db/repositories/filing-facts';
import type { DeiSummary } from '../../../workflows/inline-fact';
import { readAskedFormByCues } from '../../../workflows/analysis/form-reader';
import { DEGRADED_CONFIDENCE } from '../../../workflows/analysis/step-result';
import type { ToolOutput } from '../../../workflows/analysis/tool-registry';
import { definedOutput } from '../extract-defined';
import { answerDefinitionWith } from '../extraction/definition/answer-defined';
import { periodLabel, type OperandResolver } from '../extraction/definition/compute';
import type { QuestionDefinition } from '../extraction/definition/question-definition';
import type { PageText } from '../extraction/statement-table';
import {
  FACT_ANSWER_CONFIDENCE,
  readFactOperand,
  readingsOf,
  type UsedOperand,
} from './fact-operand';
import { factMetric } from './concept-map';
import { FactIndex } from './fact-lookup';
import { partOfCompanyWords, wholeLineItem } from './fact-question';
import { filingCalendar } from './fiscal-calendar';
import { namedPart, partMembers, withPrintedNames } from './segment-member';
import { matchPeriods, periodText } from './period-match';

type Output = ToolOutput<'extract_metric'>;

export type DefinedFromFacts =
  | { status: 'answered'; output: Output }
  | { status: 'disagreed'; output: Output }
  | { status: 'declined'; reason: string };

/**
 * The question's own definition ("R&D intensity, defined as research and development expense
 * divided by total net sales") computed from the filing's facts: the definition compiler's
 * grammar, period, unit and presentation rules (answer-defined.ts), each operand read from the
 * facts of the line item it names and agreeing with its printed row, and cited by its fact.
 * An operand the fact path does not read, a period it cannot place, or a definition the
 * compiler refuses declines, and the printed rows' compiler tries the question.
 */
export function definedFromFacts(input: {
  docId: string;
  question: string;
  definition: QuestionDefinition;
  pages: PageText[];
  facts: readonly StoredFact[];
  partFacts: readonly StoredFact[];
  dei: DeiSummary;
}): DefinedFromFacts {
  // A definition over a part of the company is not computed from the company's totals.
  const part = namedPart(
    input.question,
    withPrintedNames(
      partMembers(input.partFacts, input.facts),
      input.partFacts,
      input.facts,
      input.pages,
    ),
  );
  const partWords = partOfCompanyWords(input.question);
  if (part.status !== 'none' || partWords)
    return {
      status: 'declined',
      reason: `a definition over a part of the company (${part.status === 'one' ? part.words : part.status === 'several' ? part.words.join(', ') : partWords}) is not computed from facts`,
    };
  const calendar = filingCalendar(input.dei, input.facts);
  if (!calendar)
    return {
      status: 'declined',
      reason: 'the filing does not state its fiscal year focus and period end (dei)',
    };
  const index = new FactIndex(input.facts, calendar);
  const used: UsedOperand[] = [];
  let declined: string | null = null;
  const resolve: OperandResolver = (item, period) => {
    const refuse = (reason: string) => {
      declined ??= reason;
      return { ok: false as const, reason, hints: [] };
    };
    const metric = wholeLineItem(item.name);
    if (metric === null)
      return refuse(`"${item.name}" is not one line item the fact path reads, and nothing more`);
    const m = matchPeriods(
      [
        {
          text: periodLabel(period),
          fiscalYear: period.fiscalYear,
          ...(period.quarter ? { quarter: period.quarter } : {}),
          // A dated or year-to-date period (period-words.ts) is matched by its span and date.
          ...(period.months ? { months: period.months } : {}),
          ...(period.endDate
            ? {
                endDate: `${period.endDate.year}-${String(period.endDate.month).padStart(2, '0')}-${String(period.endDate.day).padStart(2, '0')}`,
              }
            : {}),
        },
      ],
      index.periodsFor(metric),
      calendar,
      { instant: factMetric(metric)?.instant ?? false, count: 1 },
    );
    if (m.status !== 'matched' || m.periods.length !== 1)
      return refuse(
        m.status === 'matched' ? `several periods fit ${periodLabel(period)}` : m.reason,
      );
    const p = m.periods[0]!;
    const read = readFactOperand({
      index,
      metric,
      period: p,
      opts: {},
      docId: input.docId,
      pages: input.pages,
      part: null,
    });
    if (!read.ok) return refuse(read.reason);
    const { fact, printed, citation } = read;
    if (!used.some((u) => u.fact.factId === fact.factId))
      used.push({ metric, period: p, fact, printed, citation });
    return {
      ok: true,
      units: fact.value!,
      scale: null,
      input: {
        label: item.name,
        metric,
        unit: 'USD',
        value: fact.value!,
        period: periodLabel(period),
        printed: citation.quote.trim(),
        matchedLabel: printed.label ?? fact.concept,
        heading: null,
        confidence: FACT_ANSWER_CONFIDENCE,
        citation,
      },
    };
  };
  const r = answerDefinitionWith(input.question, input.definition, input.pages, resolve);
  if (r.status === 'none') return { status: 'declined', reason: 'no definition' };
  if (r.status === 'needs_review') return { status: 'declined', reason: declined ?? r.reason };
  const secondReading = readAskedFormByCues(input.question);
  const output = definedOutput(input.docId, input.question, r, input.pages, secondReading);
  const readings = readingsOf(used, 'facts', null);
  if (used.some((u) => !u.printed.agreed)) {
    const bad = used.filter((u) => !u.printed.agreed);
    return {
      status: 'disagreed',
      output: {
        ...output,
        status: 'qualitative',
        answer: null,
        unit: null,
        value: null,
        method: 'none',
        claims: [],
        confidence: DEGRADED_CONFIDENCE,
        errorTag: 'fact_text_disagree',
        form: output.form ? { ...output.form, delivered: null, deliveredFormula: null } : null,
        readings,
        summary: `The tagged facts and the printed table disagree: ${bad
          .map(
            (u) =>
              `${u.fact.concept} ${periodText(u.period)} = ${u.fact.value} vs printed "${u.printed.cell ?? 'none'}" in row "${u.printed.label ?? ''}": ${u.printed.reasons.join('; ')}`,
          )
          .join(' | ')}; a person must reconcile them`,
      },
    };
  }
  return {
    status: 'answered',
    output: {
      ...output,
      confidence: FACT_ANSWER_CONFIDENCE,
      readings,
      summary: `${output.summary}; from inline XBRL facts ${used.map((u) => `${u.fact.concept} [${u.fact.factId}] printed "${u.citation.quote.trim()}" p.${u.citation.page}`).join(', ')}, each agreeing with its printed row`,
    },
  };
}
