import {
  abs,
  dec,
  div,
  mul,
  sub,
  toFixed,
  toString,
} from '../../../workflows/analysis/decimal-core';
import {
  canonicalOperation,
  type AnswerForm,
  type FormEvidence,
} from '../../../workflows/analysis/answer-form';
import type { NumericClaim } from '../../../workflows/analysis/evidence';
import { readAskedFormByCues } from '../../../workflows/analysis/form-reader';
import type { ToolOutput } from '../../../workflows/analysis/tool-registry';
import { DEGRADED_CONFIDENCE } from '../../../workflows/analysis/step-result';
import type { StoredFact } from '../../../db/repositories/filing-facts';
import { deliveredFormulaOf, kindOfUnit } from '../extraction/answer-form';
import type { ExtractMetricResult } from '../extraction/extract-metric';
import { evaluateFormula, getFormula, unitOfResultKind } from '../extraction/formula-catalog';
import { convertScale, type Scale } from '../extraction/scale';
import type { PageText } from '../extraction/statement-table';
import { coverWords, rowLabels } from '../label-evidence';
import { factMetric } from './concept-map';
import { FactIndex } from './fact-lookup';
import { findMetrics, readFactQuestion } from './fact-question';
import { itemsOf } from '../extraction/definition/grammar';
import { readDefinition } from '../extraction/definition/question-definition';
import { filingCalendar, type PeriodInfo } from './fiscal-calendar';
import { matchPeriods, periodLabel, periodText, type PeriodMatch } from './period-match';
import {
  FACT_ANSWER_CONFIDENCE,
  readFactOperand,
  readingsOf,
  type UsedOperand,
} from './fact-operand';
import { namedPart, partMembers, withPrintedNames } from './segment-member';
import { type DeiSummary } from '../../../workflows/inline-fact';

type Output = ToolOutput<'extract_metric'>;
type Unit = 'USD' | 'percent' | 'ratio' | 'shares' | 'USD/share';

export type FactAnswer =
  /**
   * Computed from facts, every operand agreeing with its printed reading; `part` names the
   * part of the company answered (null for the company total).
   */
  | { status: 'answered'; output: Output; part: string | null }
  /** A fact and the printed table disagree: a person reconciles them (both are cited). */
  | { status: 'disagreed'; output: Output }
  /** The fact path does not answer this question; the text path does what it can. */
  | { status: 'declined'; reason: string };

const SCALE_OF_EXPONENT: Record<number, Scale> = {
  0: 'units',
  3: 'thousands',
  6: 'millions',
  9: 'billions',
};
const SCALE_WORD: Record<Scale, string> = {
  units: '',
  thousands: ' thousand',
  millions: ' million',
  billions: ' billion',
};

function unitOfMetric(kind: string | undefined): Unit {
  if (kind === 'per_share') return 'USD/share';
  if (kind === 'count') return 'shares';
  if (kind === 'ratio_percent') return 'percent';
  return 'USD';
}

function claimKind(unit: Unit): NumericClaim['kind'] {
  if (unit === 'percent') return 'ratio_percent';
  if (unit === 'ratio') return 'ratio';
  if (unit === 'shares') return 'count';
  if (unit === 'USD/share') return 'per_share';
  return 'money';
}

/**
 * The filer's initials, as questions write them: "The Procter & Gamble Company" is "p&g" and
 * "pg", "International Business Machines Corporation" is "ibm". Legal-form words do not count;
 * a one-word name has none, and two plain letters are too common a word to count.
 */
export function initialsOf(registrantName: string): string[] {
  const words = registrantName
    .toLowerCase()
    .match(/[a-z0-9]+|&/g)
    ?.filter(
      (w) =>
        !/^(?:the|company|co|inc|incorporated|corp|corporation|ltd|plc|llc|lp|sa|ag|nv|se)$/.test(
          w,
        ),
    );
  const named = (words ?? []).filter((w) => w !== '&');
  if (named.length < 2) return [];
  const withAmp = (words ?? []).map((w) => (w === '&' ? '&' : w[0]!)).join('');
  const plain = named.map((w) => w[0]!).join('');
  // Two plain letters ("up") are a word of their own more often than a name.
  return [
    ...new Set([
      ...(withAmp.includes('&') ? [withAmp] : []),
      ...(plain.length >= 3 || withAmp.includes('&') ? [plain] : []),
    ]),
  ];
}

function withThousands(s: string): string {
  const neg = s.startsWith('-');
  const [i = '0', f] = (neg ? s.slice(1) : s).split('.');
  return `${neg ? '-' : ''}${i.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${f !== undefined ? `.${f}` : ''}`;
}

/** The answer text, in the asked scale and rounding (the text path's presentation). */
function formatAnswer(
  valueUnits: string,
  unit: Unit,
  scale: Scale,
  rounding: number | null,
  exactPrinted: boolean,
): { text: string; rounded: string } {
  const scaled = unit === 'USD' || unit === 'shares';
  const inScale = scaled ? convertScale(valueUnits, 'units', scale) : valueUnits;
  const exact = toString(dec(inScale));
  const fraction = exact.split('.')[1] ?? '';
  const rounded =
    rounding !== null
      ? toFixed(dec(inScale), rounding)
      : exactPrinted || fraction.length <= 4
        ? exact
        : toFixed(dec(inScale), 2);
  switch (unit) {
    case 'USD':
      return {
        text: `${rounded.startsWith('-') ? '-' : ''}$${withThousands(rounded.replace('-', ''))}${SCALE_WORD[scale]}`,
        rounded,
      };
    case 'USD/share':
      return { text: `$${rounded} per share`, rounded };
    case 'percent':
      return { text: `${rounded}%`, rounded };
    case 'shares':
      return { text: `${withThousands(rounded)}${SCALE_WORD[scale]} shares`, rounded };
    default:
      return { text: rounded, rounded };
  }
}

/**
 * Answers a numeric question from a filing's facts (issue 22 part 3): the question's line
 * item resolved to concepts, its periods to contexts, derived answers by the catalog's
 * formulas, every operand cited by its fact and checked against the printed table.
 */
export function answerFromFacts(input: {
  docId: string;
  question: string;
  pages: PageText[];
  facts: readonly StoredFact[];
  /** Facts of parts of the company (a product, segment or region member), when loaded. */
  partFacts?: readonly StoredFact[];
  dei: DeiSummary;
}): FactAnswer {
  const reading = readFactQuestion(input.question);
  if (reading.status !== 'read') return { status: 'declined', reason: reading.reason };
  const q = reading.question;
  // A question that defines its own computation over other line items too ("R&D intensity,
  // defined as research and development divided by total net sales") asks for that
  // computation, not the item: defined-from-facts.ts answers it. A catalog formula the question
  // restates is computed here (the form check compares it with the definition), and words
  // that only say how to present the item ("current minus prior") name no other item.
  const defined = readDefinition(input.question);
  const otherItems =
    q.kind === 'metric' && defined.status === 'ok'
      ? itemsOf(defined.definition.expr)
          .flatMap((i) => findMetrics(i.name))
          .filter((m) => m !== q.metric)
      : [];
  if (otherItems.length > 0 && defined.status === 'ok')
    return {
      status: 'declined',
      reason: `the question defines its own computation ("${defined.definition.text}") over other line items (${[...new Set(otherItems)].join(', ')})`,
    };
  const cal = filingCalendar(input.dei, input.facts);
  if (!cal)
    return {
      status: 'declined',
      reason: 'the filing does not state its fiscal year focus and period end (dei)',
    };
  // The part of the company the question names, by the filing's own members: its facts,
  // never the total, answer it.
  const part = namedPart(
    input.question,
    withPrintedNames(
      partMembers(input.partFacts ?? [], input.facts),
      input.partFacts ?? [],
      input.facts,
      input.pages,
    ),
  );
  if (part.status === 'several')
    return {
      status: 'declined',
      reason: `the question names several parts of the company (${part.words.join(', ')}); the fact path answers one`,
    };
  if (part.status === 'none' && q.partWords)
    return {
      status: 'declined',
      reason: `"${q.partWords}": a part of the company, and no product, segment or region this filing tags is named`,
    };
  if (part.status === 'one' && q.kind === 'formula')
    return {
      status: 'declined',
      reason: `a ratio of one part of the company (${part.words}) is not computed from facts`,
    };
  const partWords = part.status === 'one' ? part.words : null;
  const index =
    part.status === 'one'
      ? new FactIndex(input.partFacts ?? [], cal, part.members)
      : new FactIndex(input.facts, cal);
  const count = q.operation === 'level' ? 1 : 2;
  const opts = { withNoncontrolling: q.withNoncontrolling };
  const matches = new Map<string, PeriodMatch>();
  const periodsOf = (metric: string): PeriodMatch => {
    let m = matches.get(metric);
    if (!m) {
      const def = factMetric(metric);
      m = matchPeriods(q.periods, index.periodsFor(metric, opts), cal, {
        instant: def?.instant ?? false,
        count,
        priorYearImplied: q.priorYearImplied,
      });
      matches.set(metric, m);
    }
    return m;
  };
  const used: UsedOperand[] = [];
  const lookup = (metric: string, fiscalYear: number): ExtractMetricResult => {
    const notFound = (reason: string): ExtractMetricResult => ({
      status: 'not_found',
      metric,
      period: { fiscalYear },
      reason,
      candidates: [],
    });
    const pm = periodsOf(metric);
    if (pm.status !== 'matched') return notFound(pm.reason);
    const period = pm.periods.find((p) => p.fiscalYear === fiscalYear);
    if (!period) return notFound(`no period of fiscal ${fiscalYear} asked`);
    const read = readFactOperand({
      index,
      metric,
      period,
      opts,
      docId: input.docId,
      pages: input.pages,
      part: partWords,
    });
    if (!read.ok) return notFound(read.reason);
    const { fact, printed, citation } = read;
    const def = factMetric(metric);
    const unit = unitOfMetric(def?.kind);
    const scale =
      unit === 'USD/share' || unit === 'percent'
        ? 'units'
        : (SCALE_OF_EXPONENT[fact.scale ?? 0] ?? 'units');
    if (!used.some((u) => u.fact.factId === fact.factId))
      used.push({ metric, period, fact, printed, citation });
    return {
      status: 'found',
      metric,
      period: { fiscalYear },
      value: {
        amount: convertScale(fact.value!, 'units', scale),
        unit,
        scale,
        printed: citation.quote.trim(),
      },
      citation,
      confidence: FACT_ANSWER_CONFIDENCE,
      matchedLabel: printed.label ?? fact.concept,
      periodHeader: periodText(period),
      statement: '',
      alternatives: [],
    };
  };

  let valueUnits: string;
  let unit: Unit;
  let tableScale: Scale;
  let expression: string | null = null;
  let variant: string | null = null;
  let periods: PeriodInfo[];
  if (q.kind === 'metric') {
    const metric = q.metric!;
    const pm = periodsOf(metric);
    if (pm.status !== 'matched') return { status: 'declined', reason: pm.reason };
    const found = pm.periods.map((p) => ({ p, r: lookup(metric, p.fiscalYear) }));
    if (new Set(pm.periods.map((p) => p.fiscalYear)).size !== pm.periods.length)
      return { status: 'declined', reason: 'two periods of the same fiscal year' };
    const missing = found.find((x) => x.r.status !== 'found');
    if (missing && missing.r.status === 'not_found')
      return { status: 'declined', reason: missing.r.reason };
    const values = used.map((u) => u.fact.value!);
    unit = unitOfMetric(factMetric(metric)?.kind);
    tableScale =
      unit === 'USD' || unit === 'shares'
        ? (SCALE_OF_EXPONENT[used[0]!.fact.scale ?? 0] ?? 'units')
        : 'units';
    periods = pm.periods;
    if (q.operation === 'level') valueUnits = values[0]!;
    else {
      const [start, end] = [dec(values[0]!), dec(values[1]!)];
      expression = `${metric}[${periodLabel(periods[1]!)}] - ${metric}[${periodLabel(periods[0]!)}]`;
      variant = metric;
      if (q.operation === 'change') valueUnits = toString(sub(end, start));
      else {
        if (start.m === 0n) return { status: 'declined', reason: 'the start value is zero' };
        valueUnits = toString(mul(div(sub(end, start), abs(start), 24), dec('100')));
        unit = 'percent';
        expression = `(${expression}) / |${metric}[${periodLabel(periods[0]!)}]| * 100`;
      }
    }
  } else {
    const f = getFormula(q.formula!)!;
    // The periods of the first operand of the first variant the filing reports every operand
    // of name the years; every operand must match them.
    const variantHere =
      f.variants.find((v) => v.inputs.every((i) => index.conceptsFor(i.metric, opts).length > 0)) ??
      f.variants[0]!;
    const firstMetric = variantHere.inputs[0]!.metric;
    const pm = periodsOf(firstMetric);
    if (pm.status !== 'matched') return { status: 'declined', reason: pm.reason };
    periods = pm.periods;
    const years = periods.map((p) => p.fiscalYear);
    if (new Set(years).size !== years.length)
      return { status: 'declined', reason: 'two periods of the same fiscal year' };
    const aggregate =
      q.operation === 'level'
        ? ({ kind: 'single' } as const)
        : ({
            kind: q.operation === 'change' ? 'change' : 'growth',
            startYear: years[0]!,
            endYear: years[1]!,
          } as const);
    const ev = evaluateFormula(
      { formula: f.id, fiscalYear: years[years.length - 1]!, aggregate },
      lookup,
    );
    if (ev.status !== 'computed')
      return { status: 'declined', reason: `cannot compute ${ev.formulaText}: ${ev.reason}` };
    // Only the operands the computed variant used are cited.
    const at = (c: { page: number; charStart: number }) => `${c.page}:${c.charStart}`;
    const usedAt = new Set(ev.inputs.map((i) => at(i.citation)));
    used.splice(0, used.length, ...used.filter((u) => usedAt.has(at(u.citation))));
    const u = unitOfResultKind(ev.resultKind);
    unit = u === 'days' ? 'ratio' : u;
    valueUnits = ev.resultKind === 'money' ? convertScale(ev.value, ev.scale, 'units') : ev.value;
    tableScale = ev.scale;
    expression = ev.formulaText;
    variant = ev.variantText;
  }

  const docId = input.docId;
  const secondReading = readAskedFormByCues(input.question);
  const labels = periods.map(periodLabel);
  const kind = kindOfUnit(unit);
  const scaled = unit === 'USD' || unit === 'shares';
  const operation = canonicalOperation(
    kind,
    q.operation === 'level' ? 'level' : q.operation === 'change' ? 'change' : 'percent_change',
  );
  const asked: AnswerForm = {
    kind,
    scale: scaled ? (q.requestedScale ?? null) : null,
    currency: unit === 'USD' || unit === 'USD/share' ? 'USD' : null,
    rounding: q.rounding ?? null,
    periods: labels,
    periodCount: labels.length,
    operation,
    definition: null,
  };

  if (used.some((u) => !u.printed.agreed)) {
    const bad = used.filter((u) => !u.printed.agreed);
    return {
      status: 'disagreed',
      output: {
        status: 'qualitative',
        answer: null,
        unit: null,
        value: null,
        method: 'none',
        claims: [],
        citations: used.map((u) => u.citation),
        confidence: DEGRADED_CONFIDENCE,
        errorTag: 'fact_text_disagree',
        form: { asked, secondReading, delivered: null, deliveredFormula: null },
        readings: readingsOf(used, 'facts', null),
        summary: `The tagged facts and the printed table disagree: ${bad
          .map(
            (u) =>
              `${u.fact.concept} ${periodText(u.period)} = ${u.fact.value} (fact ${u.fact.factId}, p.${u.citation.page}) vs printed "${u.printed.cell ?? 'none'}" in row "${u.printed.label ?? ''}": ${u.printed.reasons.join('; ')}`,
          )
          .join(' | ')}; a person must reconcile them`,
      },
    };
  }

  const scale: Scale = scaled ? (q.requestedScale ?? tableScale) : 'units';
  const rounding = q.rounding ?? null;
  const { text } = formatAnswer(
    valueUnits,
    unit,
    scale,
    rounding,
    q.kind === 'metric' && q.operation === 'level',
  );
  const delivered: AnswerForm = { ...asked, scale: scaled ? scale : null, rounding };
  const itemName =
    q.kind === 'formula'
      ? getFormula(q.formula!)!.name
      : (factMetric(q.metric!)?.name ?? q.metric!);
  // A reportable segment is named so ("Revenue of Europe segment"): the question's
  // "segment" qualifies the part, not the line item.
  const segment =
    part.status === 'one' &&
    part.members.some(
      (m) => m.dimension === 'us-gaap:StatementBusinessSegmentsAxis' || /Segment/.test(m.member),
    );
  const name = partWords ? `${itemName} of ${partWords}${segment ? ' segment' : ''}` : itemName;
  const label =
    q.operation === 'level' ? name : `${q.operation === 'change' ? 'change' : 'growth'} of ${name}`;
  const periodNote = periods.map(periodText).join(' → ');
  const base = `${docId}/${q.metric ?? q.formula}/${labels.join('-')}`;
  const inputClaims: NumericClaim[] = used.map((u, i) => {
    const uUnit = unitOfMetric(factMetric(u.metric)?.kind);
    return {
      id: `${base}#in${i}`,
      label: factMetric(u.metric)?.name ?? u.metric,
      metric: u.metric,
      kind: claimKind(uUnit),
      value: toString(dec(u.fact.value!)),
      unit: uUnit,
      period: periodLabel(u.period),
      printed: u.citation.quote.trim(),
      citations: [u.citation],
      derived: false,
      formula: null,
      inputs: [],
      source: 'code',
    };
  });
  const claims: NumericClaim[] =
    q.kind === 'metric' && q.operation === 'level'
      ? [{ ...inputClaims[0]!, id: `${base}#0`, label: name }]
      : [
          {
            id: `${base}#0`,
            label,
            // A change or growth is its own quantity (it may be negative): named as the text
            // path names it, so plausibility does not judge it as the level.
            metric:
              q.operation === 'level'
                ? (q.formula ?? q.metric!)
                : `${q.operation}_${q.formula ?? q.metric!}`,
            kind: claimKind(unit),
            value: valueUnits,
            unit,
            period: labels.join('-'),
            printed: null,
            citations: inputClaims.flatMap((c) => c.citations),
            derived: true,
            formula: expression,
            inputs: inputClaims.map((c) => c.id),
            source: 'code',
          },
          ...inputClaims,
        ];
  const cited = [...new Set(used.map((u) => u.citation.page))].slice(0, 4);
  const form: FormEvidence = {
    asked,
    secondReading,
    delivered,
    deliveredFormula: variant ? deliveredFormulaOf(variant) : null,
    labels: {
      question: input.question,
      formula: q.kind === 'formula',
      entry: name,
      catalogPhrases: [
        ...new Set(
          used.flatMap((u) => {
            const m = factMetric(u.metric);
            return m ? [m.name, ...m.questionPhrases, ...m.labels] : [];
          }),
        ),
        ...(q.kind === 'formula' ? [name] : []),
      ].slice(0, 200),
      read: used.slice(0, 20).map((u) => ({
        metric: u.metric,
        label: u.printed.label ?? u.fact.concept,
        heading: null,
        page: u.citation.page,
      })),
      filerWords: [
        ...new Set([
          ...(input.dei.registrantName ?? '')
            .toLowerCase()
            .split(/[^a-z0-9&]+/)
            .filter((w) => w.length > 0),
          ...initialsOf(input.dei.registrantName ?? ''),
          ...coverWords(input.pages),
        ]),
      ].slice(0, 400),
      pageLabels: cited.flatMap((p) =>
        rowLabels(input.pages.find((x) => x.page === p)?.text ?? '').map((l) => ({
          page: p,
          label: l,
        })),
      ),
    },
  };
  return {
    status: 'answered',
    part: partWords,
    output: {
      status: 'structured',
      answer: text,
      unit,
      value: valueUnits,
      method: 'code',
      claims,
      citations: used.map((u) => u.citation),
      confidence: FACT_ANSWER_CONFIDENCE,
      errorTag: null,
      form,
      readings: readingsOf(used, 'facts', null),
      summary: `${label} (${periodNote}): ${text}${expression ? ` = ${expression}` : ''}; from inline XBRL facts ${used.map((u) => `${u.fact.concept} [${u.fact.factId}] printed "${u.citation.quote.trim()}" p.${u.citation.page}`).join(', ')}, each agreeing with its printed row`,
    },
  };
}
