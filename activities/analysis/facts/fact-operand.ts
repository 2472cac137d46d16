import { dec, toString } from '../../../workflows/analysis/decimal-core';
import type { Citation } from '../../../workflows/analysis/evidence';
import type { FactReadings } from '../../../workflows/analysis/fact-readings';
import type { StoredFact } from '../../../db/repositories/filing-facts';
import type { PageText } from '../extraction/statement-table';
import { factPeriodString } from './fact-citation';
import type { FactIndex } from './fact-lookup';
import type { PeriodInfo } from './fiscal-calendar';
import { periodText } from './period-match';
import { readPrinted, type PrintedReading } from './printed-reading';

/**
 * One operand of a fact answer — the fact read for a line item and period, its printed
 * reading, its citation — and the readings an answer records. Shared by the fact path's
 * answers (answer-from-facts.ts) and its definitions (defined-from-facts.ts).
 */

/** Confidence of an answer whose every operand's fact and printed reading agree. */
export const FACT_ANSWER_CONFIDENCE = 0.97;

export interface UsedOperand {
  metric: string;
  period: PeriodInfo;
  fact: StoredFact;
  printed: PrintedReading;
  citation: Citation;
}

/**
 * The citation of a fact: its displayed text where the page prints it, widened over the
 * sign and parentheses printed around the tagged digits ("(9,447)"), so the quote shows the
 * number as a person reads it.
 */
export function factCitation(docId: string, fact: StoredFact, pages: PageText[]): Citation | null {
  const loc = fact.location;
  if (!loc) return null;
  const text = pages.find((p) => p.page === loc.page)?.text;
  if (text === undefined || loc.end > text.length) return null;
  let start = loc.start;
  let end = loc.end;
  while (start > 0 && loc.start - start < 4 && /[(\-−–$]/.test(text[start - 1]!)) start--;
  if (text[end] === ')' || text[end] === '%') end++;
  return {
    docId,
    page: loc.page,
    charStart: start,
    charEnd: end,
    quote: text.slice(start, end),
    fact: {
      factId: fact.factId,
      concept: fact.concept,
      period: factPeriodString(fact.period),
      displayed: fact.displayedText,
    },
  };
}

/**
 * One operand from the facts: the facts reporting the line item for exactly that period
 * (concepts that mean the same item must report the same amount), read against the printed
 * table at the fact's place, and cited where the page shows it.
 */
export function readFactOperand(a: {
  index: FactIndex;
  metric: string;
  period: PeriodInfo;
  opts: { withNoncontrolling?: boolean };
  docId: string;
  pages: PageText[];
  part: string | null;
}):
  | { ok: true; fact: StoredFact; printed: PrintedReading; citation: Citation }
  | { ok: false; reason: string } {
  const { index, metric, period } = a;
  const candidates = index.factsFor(metric, period, a.opts).filter((f) => f.value !== null);
  if (candidates.length === 0)
    return {
      ok: false,
      reason: a.part
        ? `no fact of ${a.part} for ${periodText(period)}`
        : `no company-total fact for ${periodText(period)}`,
    };
  // Concepts that mean the same line item must report the same amount; two different
  // amounts are two different lines, and which one is asked a person decides.
  const amounts = new Set(candidates.map((f) => toString(dec(f.value!))));
  if (amounts.size > 1)
    return {
      ok: false,
      reason: `${candidates.map((f) => `${f.concept} = ${f.value}`).join(', ')} differ for ${periodText(period)}`,
    };
  // The same amount may be tagged in a note and in the statement: the reading of the fact
  // printed in a row that names the line item.
  const read = candidates.map((f) => ({
    f,
    printed: readPrinted(f, metric, period, a.pages, a.part),
  }));
  const chosen = read.find((r) => r.printed.agreed) ?? read[0]!;
  const citation = factCitation(a.docId, chosen.f, a.pages);
  if (!citation) return { ok: false, reason: `fact ${chosen.f.factId} is not displayed on a page` };
  return { ok: true, fact: chosen.f, printed: chosen.printed, citation };
}

export function readingsOf(
  used: UsedOperand[],
  status: 'facts' | 'text',
  declined: string | null,
): FactReadings {
  return {
    used: status,
    declined,
    operands: used.map((u) => ({
      metric: u.metric,
      period: periodText(u.period),
      fact: {
        factId: u.fact.factId,
        concept: u.fact.concept,
        value: u.fact.value ?? '',
        displayed: u.fact.displayedText,
        page: u.fact.location?.page ?? null,
      },
      printed: { label: u.printed.label, cell: u.printed.cell, value: u.printed.value },
      agreed: u.printed.agreed,
      reasons: u.printed.reasons,
    })),
    agreed: used.length === 0 ? null : used.every((u) => u.printed.agreed),
  };
}

/** Readings to record beside a text answer: why the facts were not used. */
export function declinedReadings(reason: string): FactReadings {
  return { used: 'text', declined: reason, operands: [], agreed: null };
}
