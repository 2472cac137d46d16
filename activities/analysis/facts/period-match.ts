import type { PeriodRef } from './fact-question';
import {
  daysBetween,
  YEAR_END_SLACK_DAYS,
  type FiscalCalendar,
  type PeriodInfo,
} from './fiscal-calendar';

/**
 * Matching the periods a question names to the filing's contexts. Each reference ("fiscal
 * 2024", "September 28, 2024", "the six months ended June 30, 2025", "Q2 2024") selects the
 * periods it fits; references that select a common period are one period said twice ("fiscal
 * 2024 (February 2, 2025)"). A level asks for one period, a change or growth for two; any
 * other count, or a reference that fits nothing in the filing, is a question for a person.
 */

/** Dates a question prints may differ from the context by a day or two (a 52/53-week year's label). */
const DATE_SLACK_DAYS = 3;

export function refMatches(
  ref: PeriodRef,
  p: PeriodInfo,
  cal: FiscalCalendar,
  instant: boolean,
): boolean {
  if (p.instant !== instant) return false;
  if (ref.endDate !== undefined && Math.abs(daysBetween(ref.endDate, p.end)) > DATE_SLACK_DAYS)
    return false;
  if (instant) {
    // A balance "at fiscal 2024" is the year-end one; "at Q3 2025" closes that quarter.
    if (ref.quarter !== undefined)
      return p.fiscalYear === ref.fiscalYear && p.quarter === ref.quarter;
    if (ref.fiscalYear !== undefined && ref.endDate === undefined)
      return Math.abs(daysBetween(cal.yearEnd(ref.fiscalYear), p.end)) <= YEAR_END_SLACK_DAYS;
    if (ref.fiscalYear !== undefined) return p.fiscalYear === ref.fiscalYear;
    return ref.endDate !== undefined;
  }
  if (ref.months !== undefined && p.months !== ref.months) return false;
  if (ref.quarter !== undefined)
    return p.months === 3 && p.fiscalYear === ref.fiscalYear && p.quarter === ref.quarter;
  if (ref.fiscalYear !== undefined && p.fiscalYear !== ref.fiscalYear) return false;
  // "Fiscal 2024" of a flow, with no length said, is the whole year.
  if (ref.months === undefined && ref.endDate === undefined) return p.months === 12;
  return true;
}

const key = (p: PeriodInfo) => `${p.start ?? ''}..${p.end}`;

export type PeriodMatch =
  { status: 'matched'; periods: PeriodInfo[] } | { status: 'unmatched'; reason: string };

/**
 * The periods the question asks about among `available` (the periods the line item has
 * company-total facts for), oldest first.
 */
export function matchPeriods(
  refs: readonly PeriodRef[],
  available: readonly PeriodInfo[],
  cal: FiscalCalendar,
  opts: { instant: boolean; count: 1 | 2; priorYearImplied?: boolean },
): PeriodMatch {
  const clusters: { refs: string[]; periods: Map<string, PeriodInfo> }[] = [];
  for (const ref of refs) {
    const fits = new Map(
      available.filter((p) => refMatches(ref, p, cal, opts.instant)).map((p) => [key(p), p]),
    );
    if (fits.size === 0)
      return { status: 'unmatched', reason: `"${ref.text}": no period of this filing fits it` };
    const joined = clusters.find((c) => [...fits.keys()].some((k) => c.periods.has(k)));
    if (joined) {
      for (const k of [...joined.periods.keys()]) if (!fits.has(k)) joined.periods.delete(k);
      joined.refs.push(ref.text);
    } else clusters.push({ refs: [ref.text], periods: fits });
  }
  // "Year-over-year growth in fiscal 2024": the same period a year earlier is the other one.
  if (
    opts.count === 2 &&
    clusters.length === 1 &&
    opts.priorYearImplied &&
    clusters[0]!.periods.size === 1
  ) {
    const p = [...clusters[0]!.periods.values()][0]!;
    const prior = available.filter(
      (x) =>
        x.instant === p.instant &&
        x.months === p.months &&
        Math.abs(daysBetween(x.end, p.end) - 365) <= YEAR_END_SLACK_DAYS + 1,
    );
    if (prior.length === 1)
      clusters.unshift({
        refs: ['the prior year'],
        periods: new Map([[key(prior[0]!), prior[0]!]]),
      });
  }
  if (clusters.length !== opts.count)
    return {
      status: 'unmatched',
      reason: `the question names ${clusters.length} period${clusters.length === 1 ? '' : 's'} (${clusters.map((c) => c.refs.join(' / ')).join('; ')}), ${opts.count === 1 ? 'a level asks for one' : 'a change asks for two'}`,
    };
  const out: PeriodInfo[] = [];
  for (const c of clusters) {
    if (c.periods.size !== 1)
      return {
        status: 'unmatched',
        reason: `"${c.refs.join(' / ')}" fits ${c.periods.size} periods of this filing (${[...c.periods.keys()].join(', ')}): say which`,
      };
    out.push([...c.periods.values()][0]!);
  }
  return { status: 'matched', periods: out.sort((a, b) => a.end.localeCompare(b.end)) };
}

/** "FY2024", "Q2 FY2025": the answer-form label of a period (a year-to-date or balance by its fiscal year). */
export function periodLabel(p: PeriodInfo): string {
  return p.quarter !== null && !p.instant ? `Q${p.quarter} FY${p.fiscalYear}` : `FY${p.fiscalYear}`;
}

/** "2023-10-01..2024-09-28" or "2024-09-28". */
export function periodText(p: PeriodInfo): string {
  return p.start === null ? p.end : `${p.start}..${p.end}`;
}
