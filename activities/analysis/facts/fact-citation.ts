import { abs, cmp, dec, shift10 } from '../../../workflows/analysis/decimal-core';
import type { Citation, NumericClaim } from '../../../workflows/analysis/evidence';
import type { StoredFact } from '../../../db/repositories/filing-facts';

/** Reads one stored fact of a document by id (or by the id of a duplicate folded into it). */
export type FactLoader = (
  orgId: string,
  docId: string,
  factId: string,
) => Promise<StoredFact | undefined>;

/**
 * Characters a fact citation's span may add around the fact's own displayed text: the
 * parentheses or minus sign and the dollar sign printed beside the tagged digits, which
 * say how the number is printed ("(9,447)"), never a wider passage.
 */
export const FACT_SPAN_SLACK = 8;

/** `2024-09-28` for an instant, `2023-10-01..2024-09-28` for a duration. */
export function factPeriodString(p: StoredFact['period']): string {
  if (p.type === 'forever') return 'forever';
  if (p.type === 'instant' || p.start === null) return p.end ?? '';
  return `${p.start}..${p.end}`;
}

/**
 * Why a fact citation does not hold (null when it does): the fact must exist in this
 * document of this org, be the concept and period the citation names, be printed inside the
 * cited span (which adds at most the sign and currency around it), and carry the claim's
 * value. The caller has already checked that the span is the stored page text and that it
 * prints the claimed number, the rule every citation follows.
 */
export async function factCitationProblem(
  load: FactLoader,
  orgId: string,
  claim: Pick<NumericClaim, 'value' | 'kind'>,
  c: Citation,
): Promise<string | null> {
  const ref = c.fact;
  if (!ref) return null;
  const fact = await load(orgId, c.docId, ref.factId);
  if (!fact) return `fact ${ref.factId} is not a fact of ${c.docId} in this org`;
  if (fact.concept !== ref.concept)
    return `fact ${ref.factId} is ${fact.concept}, not ${ref.concept}`;
  const period = factPeriodString(fact.period);
  if (period !== ref.period) return `fact ${ref.factId} is for ${period}, not ${ref.period}`;
  if (!fact.location) return `fact ${ref.factId} is not displayed on any page`;
  const loc = fact.location;
  if (
    loc.page !== c.page ||
    loc.start < c.charStart ||
    loc.end > c.charEnd ||
    c.charEnd - c.charStart - (loc.end - loc.start) > FACT_SPAN_SLACK
  )
    return `fact ${ref.factId} is printed at ${c.docId} p.${loc.page} ${loc.start}-${loc.end}, not at the cited ${c.page} ${c.charStart}-${c.charEnd}`;
  if (!fact.numeric || fact.value === null) return `fact ${ref.factId} has no numeric value`;
  let factValue = abs(dec(fact.value));
  // A pure-unit fact (a rate) is tagged as a fraction; a percent claim states it in percent.
  if (claim.kind === 'ratio_percent' && fact.unit === 'xbrli:pure')
    factValue = shift10(factValue, 2);
  if (cmp(abs(dec(claim.value)), factValue) !== 0)
    return `fact ${ref.factId} has the value ${fact.value}, not the claimed ${claim.value}`;
  return null;
}
