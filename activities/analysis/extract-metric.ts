import {
  TOOL_SCHEMAS,
  type ToolInput,
  type ToolOutput,
} from '../../workflows/analysis/tool-registry';
import type { Citation, NumericClaim } from '../../workflows/analysis/evidence';
import { DEGRADED_CONFIDENCE } from '../../workflows/analysis/step-result';
import type { PageStore } from './page-store';
import { answerQuestion, type AnswerResult } from './extraction';
import type { LlmExtractor } from './llm-extraction';
import { corroboratingCitations, printedRatioDisagrees, statedPercents } from './corroborate';
import {
  askedFormFromParsed,
  deliveredFormOfAnswer,
  deliveredFormulaOf,
  kindOfUnit,
} from './extraction/answer-form';
import type { AnswerForm, FormEvidence } from '../../workflows/analysis/answer-form';
import { readAskedFormByCues } from '../../workflows/analysis/form-reader';
import { parseQuestion } from './extraction/question-parser';
import { labelEvidenceOf } from './label-evidence';
import { extractDefined, extractOverPeriods } from './extract-defined';
import { readOverPeriods } from './extraction/definition/answer-over-periods';
import { readDefinition } from './extraction/definition/question-definition';
import type { FactStore } from './facts/fact-store';
import { withFacts } from './facts/extract-with-facts';

/** Structured results below this confidence are not trusted: a qualitative fallback replaces them. */
export const STRUCTURED_MIN_CONFIDENCE = 0.7;

type Output = ToolOutput<'extract_metric'>;

function kindOf(unit: string): NumericClaim['kind'] {
  if (unit === 'percent') return 'ratio_percent';
  if (unit === 'ratio' || unit === 'days') return 'ratio';
  if (unit === 'shares') return 'count';
  if (unit === 'USD/share') return 'per_share';
  return 'money';
}

/** Claims for an answer: the answer first, then each printed input it was computed from. */
export function claimsFromAnswer(
  docId: string,
  a: Extract<AnswerResult, { status: 'answered' }>,
): NumericClaim[] {
  const base = `${docId}/${a.metric ?? a.formula?.id ?? 'answer'}/${a.period ?? 'na'}`;
  const cite = (c: {
    page: number;
    charStart: number;
    charEnd: number;
    quote: string;
  }): Citation => ({ docId, ...c });
  if (!a.formula) {
    return [
      {
        id: `${base}#0`,
        label: a.label,
        metric: a.metric,
        kind: kindOf(a.unit),
        value: a.value,
        unit: a.unit,
        period: a.period,
        printed: a.printed,
        citations: a.citations.map(cite),
        derived: false,
        formula: null,
        inputs: [],
        source: 'code',
      },
    ];
  }
  const inputs: NumericClaim[] = a.inputs.map((inp, i) => ({
    id: `${base}#in${i}`,
    label: inp.label,
    metric: inp.metric,
    kind: kindOf(inp.unit),
    value: inp.value,
    unit: inp.unit,
    period: inp.period,
    printed: inp.printed,
    citations: [cite(inp.citation)],
    derived: false,
    formula: null,
    inputs: [],
    source: 'code',
  }));
  return [
    {
      id: `${base}#0`,
      label: a.label,
      metric: a.formula.id,
      kind: kindOf(a.unit),
      value: a.value,
      unit: a.unit,
      period: a.period,
      printed: null,
      citations: inputs.flatMap((c) => c.citations),
      derived: true,
      formula: a.formula.expression,
      inputs: inputs.map((c) => c.id),
      source: 'code',
    },
    ...inputs,
  ];
}

/** The year a report is dated (cover pages state "as of December 31, 2024" or "fiscal year ended ..."). */
export function reportYear(pages: { page: number; text: string }[]): number | null {
  const cover = pages
    .slice(0, 3)
    .map((p) => p.text)
    .join('\n');
  const dated =
    /(?:as of|as at|for the (?:fiscal )?(?:year|quarter|period) ended|fiscal year ended)\s+[A-Z][a-z]+\s+\d{1,2},\s+((?:19|20)\d{2})/i.exec(
      cover,
    );
  return dated ? Number(dated[1]) : null;
}

/**
 * extract_metric: code first (statement tables, formula catalog). Hybrid mode asks the LLM
 * only for what code could not answer, and its answer must pass the same citation gate.
 * With a fact store, a filing's inline XBRL facts answer first (facts/extract-with-facts.ts).
 */
export function createExtractMetric(
  pages: PageStore,
  llm: LlmExtractor | null,
  facts: FactStore | null = null,
) {
  const fromText = async function extract_metric(
    raw: ToolInput<'extract_metric'>,
  ): Promise<Output> {
    const input = TOOL_SCHEMAS.extract_metric.input.parse(raw);
    const docPages = await pages.pages(input.orgId, input.docId);
    let result = answerQuestion({
      question: input.question,
      pages: docPages,
      metric: input.metric,
      period: input.period,
      unit: input.unit,
    });
    let periodNote = '';
    // A framework comparison asks for "the" ratio: the period the report is as of.
    if (
      result.status === 'needs_review' &&
      input.metric &&
      !input.period &&
      /no period/i.test(result.reason)
    ) {
      const year = reportYear(docPages);
      if (year !== null) {
        result = answerQuestion({
          question: input.question,
          pages: docPages,
          metric: input.metric,
          period: `FY${year}`,
          unit: input.unit,
        });
        periodNote = ` (period FY${year}: the year the report is as of, read from its cover)`;
      }
    }

    // The asked form, read twice: by the question parser extraction acted on, and by the
    // independent cue reader. The gate compares both with the delivered form.
    const secondReading = readAskedFormByCues(input.question);
    const parsed = result.parsed ?? parseQuestion(input.question);
    const asked = askedFormFromParsed(parsed);
    // A definition the question states (or a line item the catalog lacks), when the catalog
    // could not answer: compiled and read from the filing's own rows (extract-defined.ts).
    if (result.status === 'needs_review') {
      const unmapped = /not mapped/.test(result.reason);
      const defined = extractDefined(
        input.docId,
        input.question,
        docPages,
        secondReading,
        unmapped,
      );
      if (defined && (defined.status === 'structured' || unmapped)) return defined;
    }
    // The catalog read one named figure, but the question states arithmetic around it ("SG&A
    // as a % of net sales", "R&D divided by net sales"): that arithmetic is what was asked, so
    // the question's definition is compiled and read first. The catalog's level stays the
    // fallback, and the gate sends it to review (its form is not the asked one).
    if (
      result.status === 'answered' &&
      !result.formula &&
      result.parsed.kind === 'metric' &&
      result.parsed.aggregate.kind === 'single' &&
      statesComputation(input.question)
    ) {
      const defined = extractDefined(input.docId, input.question, docPages, secondReading, false);
      if (defined?.status === 'structured') return defined;
    }
    // A sum or average over the years the question lists, where the catalog read one year or
    // other years of the figure: each listed year is read and cited (extract-defined.ts).
    if (result.status === 'answered' && !result.formula) {
      const over = readOverPeriods(input.question);
      const a = result.parsed.aggregate;
      const catalogSpans =
        over !== null &&
        over.operation === 'average' &&
        a.kind === 'average' &&
        a.startYear === over.years[0] &&
        a.endYear === over.years[over.years.length - 1] &&
        a.endYear - a.startYear + 1 === over.years.length;
      if (over && !catalogSpans) {
        const summed = extractOverPeriods(input.docId, input.question, docPages, secondReading);
        if (summed) return summed;
      }
    }
    const noAnswerForm: FormEvidence = {
      asked,
      secondReading,
      delivered: null,
      deliveredFormula: null,
    };

    if (result.status === 'answered' && result.confidence >= STRUCTURED_MIN_CONFIDENCE) {
      const claims = claimsFromAnswer(input.docId, result);
      const form: FormEvidence = {
        asked,
        secondReading,
        delivered: deliveredFormOfAnswer({
          unit: result.unit,
          scale: result.scale,
          roundedTo: result.roundedTo,
          years: result.years,
          quarter:
            result.parsed.kind === 'metric' && result.parsed.aggregate.kind === 'single'
              ? (result.parsed.period?.quarter ?? null)
              : null,
          aggregate: result.parsed.aggregate,
          ...(result.readPeriod ? { readPeriod: result.readPeriod } : {}),
        }),
        deliveredFormula: result.variant ? deliveredFormulaOf(result.variant) : null,
        labels: labelEvidenceOf(input.question, result, docPages),
      };
      const phrase = result.formula
        ? result.formula.id.replace(/_(change|growth|average)$/, '')
        : '';
      const percents = statedPercents(result.answer);
      const checkRatio = result.formula !== undefined && result.unit === 'percent';
      const corroborating = checkRatio
        ? corroboratingCitations(input.docId, docPages, phrase, percents)
        : [];
      const disagreement =
        checkRatio && corroborating.length === 0
          ? printedRatioDisagrees(docPages, phrase, percents)
          : null;
      if (disagreement) {
        const citation = { ...disagreement, docId: input.docId };
        return {
          status: 'qualitative',
          answer: null,
          unit: null,
          value: null,
          method: 'none',
          claims: [],
          citations: [citation, ...claims.flatMap((c) => (c.derived ? [] : c.citations))],
          confidence: DEGRADED_CONFIDENCE,
          errorTag: 'printed_ratio_disagrees',
          form: noAnswerForm,
          summary: `Computed ${result.answer} but the filing prints "${disagreement.quote.trim()}" on p.${disagreement.page}: a person must reconcile the definitions`,
        };
      }
      return {
        status: 'structured',
        answer: result.answer,
        unit: result.unit,
        value: result.value,
        method: 'code',
        claims,
        citations: [...claims.flatMap((c) => (c.derived ? [] : c.citations)), ...corroborating],
        confidence: result.confidence,
        errorTag: null,
        form,
        summary: `${result.label}${result.period ? ` (${result.period})` : ''}: ${result.answer}${result.formula ? ` = ${result.formula.expression}` : ''}${periodNote}${retrievalNote(input.contextPages, claims)}`,
      };
    }

    if (llm && input.allowLlm) {
      const fromLlm = await llm.extract({
        docId: input.docId,
        question: input.question,
        pages: docPages,
        preferPages: input.contextPages,
      });
      if (fromLlm) return { ...fromLlm, form: llmForm(fromLlm, asked, secondReading) };
    }

    // Qualitative fallback: say where the filing discusses it, never a guessed number.
    const reason =
      result.status === 'answered'
        ? `code extraction confidence ${result.confidence.toFixed(2)} below ${STRUCTURED_MIN_CONFIDENCE}`
        : result.reason;
    const hint = result.status === 'needs_review' ? (result.hints ?? []) : result.citations;
    const citations: Citation[] = hint.slice(0, 3).map((c) => ({ docId: input.docId, ...c }));
    return {
      status: citations.length ? 'qualitative' : 'not_found',
      answer: null,
      unit: null,
      value: null,
      method: 'none',
      claims: [],
      citations,
      confidence: DEGRADED_CONFIDENCE,
      errorTag: result.status === 'answered' ? 'low_extraction_confidence' : 'not_extracted',
      form: noAnswerForm,
      summary: `No structured answer: ${reason}`,
    };
  };
  return facts ? withFacts(fromText, pages, facts) : fromText;
}

/**
 * The form of a model's reading: one printed figure (a level), in the unit and scale the
 * model reported, for the fiscal year it named; never rounded.
 */
function llmForm(out: Output, asked: AnswerForm | null, secondReading: AnswerForm): FormEvidence {
  const claim = out.claims[0];
  const [unit, scale] = (out.unit ?? '').split(' ');
  const kind = kindOfUnit(unit);
  const periods = claim?.period ? [claim.period] : null;
  return {
    asked,
    secondReading,
    delivered: {
      kind,
      scale:
        kind === 'currency_amount' || kind === 'count'
          ? ((scale as AnswerForm['scale']) ?? 'units')
          : null,
      currency: kind === 'currency_amount' || kind === 'per_share' ? 'USD' : null,
      rounding: null,
      periods,
      periodCount: periods?.length ?? null,
      operation: kind === 'percent' || kind === 'ratio' || kind === 'days' ? 'quotient' : 'level',
      definition: null,
    },
    deliveredFormula: null,
  };
}

/** Says whether the answer's cited pages are among those retrieve_context found. */
export function retrievalNote(contextPages: readonly number[], claims: NumericClaim[]): string {
  const cited = [...new Set(claims.flatMap((c) => c.citations.map((ct) => ct.page)))].sort(
    (a, b) => a - b,
  );
  if (contextPages.length === 0) return '; retrieval found no pages for this document';
  const found = cited.filter((p) => contextPages.includes(p));
  return `; cited p.${cited.join(', p.')}: ${found.length} of ${cited.length} among the ${contextPages.length} retrieved pages`;
}

/** The question states a computation of its own (not one named figure). */
function statesComputation(question: string): boolean {
  const r = readDefinition(question);
  return r.status === 'ok' && r.definition.expr.kind !== 'item';
}
