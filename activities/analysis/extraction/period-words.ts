import {
  resolveColumn,
  type CalendarDate,
  type Duration,
  type Period,
  type PeriodColumn,
  type ResolvedColumn,
} from './statement-table';

/**
 * The words of a question that name a period more precisely than a fiscal year: a printed
 * period-end date ("three months ended July 29, 2023", "as of July 29, 2023") and the length of
 * the period ("six months", "first half", "nine months", "quarter ended"). A 10-Q prints its
 * columns by date and span, so a question that quotes them is matched to the column printed
 * with that date and span, with no fiscal-calendar convention in between.
 */

const MONTH_NAMES = [
  'jan',
  'feb',
  'mar',
  'apr',
  'may',
  'jun',
  'jul',
  'aug',
  'sep',
  'oct',
  'nov',
  'dec',
];
const DATE =
  /\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? (\d{1,2}),? ((?:19|20)\d{2})\b/g;

export type SpanMonths = 3 | 6 | 9 | 12;

const SPANS: [SpanMonths, RegExp][] = [
  [3, /\b(?:three|3)[- ]months?\b|\bquarter ended\b|\b(?:thirteen|13)[- ]weeks?\b/],
  [
    6,
    /\b(?:six|6)[- ]months?\b|\bfirst half\b|\bhalf[- ]year\b|\b(?:twenty[- ]six|26)[- ]weeks?\b/,
  ],
  [9, /\b(?:nine|9)[- ]months?\b|\b(?:thirty[- ]nine|39)[- ]weeks?\b/],
  [
    12,
    /\b(?:twelve|12)[- ]months?\b|\b(?:fiscal )?years? ended\b|\b(?:fifty[- ](?:two|three)|5[23])[- ]weeks?\b/,
  ],
];

export interface PeriodWords {
  /** The dates printed in the text, in order, each with the words it was read from. */
  dates: (CalendarDate & { raw: string })[];
  /** The one span the words name; null when none, 'several' when they name more than one. */
  months: SpanMonths | null | 'several';
}

/** Reads the dates and the span a (lower-cased) question names. */
export function readPeriodWords(text: string): PeriodWords {
  const dates = [...text.matchAll(DATE)].map((m) => ({
    raw: m[0],
    year: Number(m[3]),
    month: MONTH_NAMES.indexOf(m[1]!) + 1,
    day: Number(m[2]),
  }));
  const spans = SPANS.filter(([, re]) => re.test(text)).map(([n]) => n);
  return { dates, months: spans.length === 0 ? null : spans.length === 1 ? spans[0]! : 'several' };
}

const QUARTER_WORDS = ['first', 'second', 'third', 'fourth'];

/** The fiscal quarter a text names ("Q2", "second quarter"); undefined when none. */
export function quarterNamed(text: string): number | undefined {
  const q = /\bq([1-4])\b|\b(first|second|third|fourth) quarter\b/.exec(text);
  if (!q) return undefined;
  return q[1] ? Number(q[1]) : QUARTER_WORDS.indexOf(q[2]!) + 1;
}

const SPAN_WORD: Record<SpanMonths, string> = { 3: 'three', 6: 'six', 9: 'nine', 12: 'twelve' };
const DURATION_OF: Record<SpanMonths, Duration> = {
  3: 'quarter',
  6: 'half',
  9: 'nine_months',
  12: 'year',
};

const iso = (d: CalendarDate) =>
  `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

/**
 * A period as answers, citations and the asked/delivered form check name it, in the names the
 * independent cue reader (workflows/analysis/form-reader.ts) and the fact path use too: a
 * quarter "Q2 FY2024", a year or a year to date by its fiscal year "FY2024" (the fact path's
 * convention). A dated period whose question names no fiscal year is named by its span and
 * date ("three months ended 2023-07-29"): the fiscal year the filing's calendar makes of it is
 * not in the question, so it is not in the name either (the cue reader reads no period there).
 */
export function periodLabel(p: Period): string {
  if (p.endDate && !p.fiscalYearStated)
    return p.months
      ? `${SPAN_WORD[p.months]} months ended ${iso(p.endDate)}`
      : `at ${iso(p.endDate)}`;
  if (p.months === 6 || p.months === 9 || p.months === 12) return `FY${p.fiscalYear}`;
  return p.quarter ? `Q${p.quarter} FY${p.fiscalYear}` : `FY${p.fiscalYear}`;
}

/**
 * Whether a table column reports the period asked, for the periods this module adds; null for
 * a plain fiscal year or quarter (the table reader's own rules decide those).
 * - A dated period: the column's printed date is that date, and its span the one asked (a
 *   balance: a column of that date with no span). A flow asked at a date without its span is
 *   ambiguous in a 10-Q (three and six months end on the same day) and matches nothing.
 * - A year to date (6 or 9 months) of a fiscal year: a column of that span in that year.
 */
export function matchesNamedPeriod(
  period: Period,
  col: PeriodColumn,
  resolved: ResolvedColumn,
  instant: boolean,
): boolean | null {
  if (period.endDate) {
    const d = col.date;
    if (!d || d.year !== period.endDate.year || d.month !== period.endDate.month) return false;
    if (d.day !== period.endDate.day) return false;
    if (instant) return resolved.duration === 'instant' || resolved.duration === 'unknown';
    if (!period.months) return false;
    return resolved.duration === DURATION_OF[period.months];
  }
  if (period.months === 6 || period.months === 9) {
    if (instant) return false;
    if (resolved.fiscalYear !== period.fiscalYear) return false;
    if (resolved.duration !== DURATION_OF[period.months]) return false;
    return resolved.quarter === undefined || resolved.quarter === period.months / 3;
  }
  return null;
}

/**
 * A dated period placed in the filing's fiscal calendar: its fiscal year, for the answer's
 * other columns and checks. When the question also named the
 * fiscal year, the two must agree, or the question is not about this filing's dates.
 */
export function pinToCalendar(
  period: Period,
  calendar: { fiscalOffset: number | null; fiscalYearEndMonth?: number | null; docPeriod?: number },
): { ok: true; period: Period } | { ok: false; reason: string } {
  if (!period.endDate) return { ok: true, period };
  const r = resolveColumn(
    {
      raw: iso(period.endDate),
      date: period.endDate,
      duration: period.months ? DURATION_OF[period.months] : 'instant',
    },
    calendar.fiscalOffset,
    calendar.docPeriod,
    undefined,
    calendar.fiscalYearEndMonth,
  );
  if (period.fiscalYearStated && r.fiscalYear !== period.fiscalYear)
    return {
      ok: false,
      reason: `the question's date ${iso(period.endDate)} falls in FY${r.fiscalYear} of this filing's calendar, not the FY${period.fiscalYear} it names`,
    };
  const quarter = period.months === 3 ? r.quarter : undefined;
  if (period.quarter !== undefined && quarter !== period.quarter)
    return {
      ok: false,
      reason: `the question's date ${iso(period.endDate)} ends Q${quarter ?? '?'} of this filing's calendar, not the Q${period.quarter} it names`,
    };
  // The quarter stays as the question named it (or unnamed): the date alone picks the column.
  return { ok: true, period: { ...period, fiscalYear: r.fiscalYear } };
}
