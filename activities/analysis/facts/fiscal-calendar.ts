import { type DeiSummary } from '../../../workflows/inline-fact';

/**
 * A filing's fiscal calendar, read from its dei facts (fiscal year focus, fiscal period focus,
 * period end date) and, for a 10-Q, the start of its year-to-date columns: where each fiscal
 * year ends, so a context's dates say which fiscal year and quarter it is. 52/53-week years
 * end on a different day each year: dates compare within a week.
 */

const DAY = 86_400_000;
/** 52/53-week years move their end by up to a week. */
export const YEAR_END_SLACK_DAYS = 7;

export interface FactPeriod {
  start: string | null;
  end: string;
}

export interface PeriodInfo {
  start: string | null;
  end: string;
  instant: boolean;
  /** Length of a duration in months (3, 6, 9, 12 …); null for an instant. */
  months: number | null;
  fiscalYear: number;
  /** The fiscal quarter a three-month duration covers, or an instant closes; else null. */
  quarter: number | null;
}

export interface FiscalCalendar {
  /** The dei fiscal year focus and period focus of the filing ("FY", "Q1" … "Q3"). */
  focusYear: number;
  focusPeriod: string;
  periodEnd: string;
  /** Where fiscal year `year` ends (approximately for other years than the anchor). */
  yearEnd(year: number): string;
  classify(p: FactPeriod): PeriodInfo;
}

export const toTime = (d: string): number => Date.parse(`${d}T00:00:00Z`);
export const toDate = (t: number): string => new Date(t).toISOString().slice(0, 10);
export const daysBetween = (a: string, b: string): number =>
  Math.round((toTime(b) - toTime(a)) / DAY);

function shiftYears(d: string, years: number): string {
  const t = new Date(`${d}T00:00:00Z`);
  t.setUTCFullYear(t.getUTCFullYear() + years);
  return toDate(t.getTime());
}

/** Months of a duration: 91 days is a quarter, 364 or 371 a year. */
export function monthsOf(start: string, end: string): number {
  return Math.round((daysBetween(start, end) + 1) / 30.44);
}

/**
 * The calendar of a filing: null when its dei facts do not say its fiscal year focus and
 * period end (the fact path then leaves the question to the text path).
 */
export function fiscalCalendar(
  dei: DeiSummary,
  periods: readonly FactPeriod[],
): FiscalCalendar | null {
  const focusYear = Number(dei.fiscalYearFocus);
  const periodEnd = dei.periodEndDate;
  const focusPeriod = (dei.fiscalPeriodFocus ?? '').toUpperCase();
  if (!Number.isInteger(focusYear) || !periodEnd || !/^\d{4}-\d{2}-\d{2}$/.test(periodEnd))
    return null;
  let anchorYear: number;
  let anchorEnd: string;
  if (focusPeriod === 'FY') {
    anchorYear = focusYear;
    anchorEnd = periodEnd;
  } else {
    const q = /^Q([1-4])$/.exec(focusPeriod);
    if (!q) return null;
    // The year-to-date column starts the day after the last fiscal year ended.
    const ytd = periods
      .filter((p) => p.start !== null && p.end === periodEnd && daysBetween(p.start, p.end) < 350)
      .sort((a, b) => daysBetween(b.start!, b.end) - daysBetween(a.start!, a.end))[0];
    anchorYear = focusYear - 1;
    anchorEnd = ytd
      ? toDate(toTime(ytd.start!) - DAY)
      : toDate(toTime(shiftYears(periodEnd, 0)) - Number(q[1]) * 91 * DAY);
  }
  const yearEnd = (year: number) => shiftYears(anchorEnd, year - anchorYear);
  const fiscalYearOf = (d: string): number => {
    // The first fiscal year whose end (with slack) is on or after the date.
    let y = anchorYear + Math.round(daysBetween(anchorEnd, d) / 365.25);
    while (daysBetween(yearEnd(y - 1), d) <= YEAR_END_SLACK_DAYS) y--;
    while (daysBetween(yearEnd(y), d) > YEAR_END_SLACK_DAYS) y++;
    return y;
  };
  return {
    focusYear,
    focusPeriod,
    periodEnd,
    yearEnd,
    classify(p: FactPeriod): PeriodInfo {
      const fiscalYear = fiscalYearOf(p.end);
      const sinceStart = daysBetween(yearEnd(fiscalYear - 1), p.end);
      const closesQuarter = Math.round(sinceStart / 91.3);
      const quarterEnd =
        closesQuarter >= 1 &&
        closesQuarter <= 4 &&
        Math.abs(sinceStart - closesQuarter * 91.3) <= 10;
      if (p.start === null)
        return {
          start: null,
          end: p.end,
          instant: true,
          months: null,
          fiscalYear,
          quarter: quarterEnd ? closesQuarter : null,
        };
      const months = monthsOf(p.start, p.end);
      return {
        start: p.start,
        end: p.end,
        instant: false,
        months,
        fiscalYear,
        quarter: months === 3 && quarterEnd ? closesQuarter : null,
      };
    },
  };
}

/** The calendar of a filing from its dei summary and the periods of its stored facts. */
export function filingCalendar(
  dei: DeiSummary,
  facts: readonly { period: { type: string; start: string | null; end: string | null } }[],
): FiscalCalendar | null {
  return fiscalCalendar(
    dei,
    facts
      .filter((f) => f.period.end !== null)
      .map((f) => ({
        start: f.period.type === 'duration' ? f.period.start : null,
        end: f.period.end!,
      })),
  );
}
