import { z } from 'zod';
import { normalizeLabel } from './metric-catalog';
import { splitRow, type SplitRow } from './numbers';
import { findScaleDeclarations, type ScaleDeclaration } from './scale';

export const PageTextSchema = z.object({
  page: z.number().int().nonnegative(),
  text: z.string(),
});
export type PageText = z.infer<typeof PageTextSchema>;

export const CalendarDateSchema = z.object({
  year: z.number().int().min(1900).max(2100),
  month: z.number().int().min(1).max(12),
  day: z.number().int().min(1).max(31),
});
export type CalendarDate = z.infer<typeof CalendarDateSchema>;

export const PeriodSchema = z.object({
  fiscalYear: z.number().int().min(1900).max(2100),
  /** 1-4 when a fiscal quarter is meant; absent for the full fiscal year or its year-end. */
  quarter: z.number().int().min(1).max(4).optional(),
  /**
   * The length of the flow period the question names, in months, when it is not simply the
   * fiscal year or the quarter: 6 and 9 are the year to date ("first six months of fiscal
   * 2024", "nine months ended"); with `endDate`, 3 and 12 say which column of that date.
   */
  months: z.union([z.literal(3), z.literal(6), z.literal(9), z.literal(12)]).optional(),
  /**
   * The period-end date the question prints ("three months ended July 29, 2023", "as of
   * July 29, 2023"): the column printed with that date is the period, whatever fiscal year the
   * filing's calendar makes of it (period-words.ts).
   */
  endDate: CalendarDateSchema.optional(),
  /** With `endDate`: the question also named the fiscal year, which must agree with the date. */
  fiscalYearStated: z.boolean().optional(),
});
export type Period = z.infer<typeof PeriodSchema>;

export type Duration = 'year' | 'quarter' | 'half' | 'nine_months' | 'instant' | 'unknown';

export interface PeriodColumn {
  raw: string;
  /** Printed "Fiscal 2023" / "FY2023". */
  fiscalYear?: number;
  /** Bare "2019" column. */
  year?: number;
  /** Printed period-end date. */
  date?: { year: number; month: number; day: number };
  quarter?: number;
  duration: Duration;
}

export interface HeaderLine {
  lineIndex: number;
  columns: PeriodColumn[];
}

export type SectionKind =
  'income' | 'comprehensive' | 'balance' | 'cash_flow' | 'equity' | 'capital' | 'other';

export interface Section {
  kind: SectionKind;
  /** A primary financial statement (title printed as a statement heading). */
  primary: boolean;
  consolidated: boolean;
  title: string;
}

export interface IndexedLine {
  index: number;
  start: number;
  end: number;
  text: string;
  row: SplitRow;
  normLabel: string;
  /** Label of the nearest preceding value-less line joined with this label (wrapped or grouped labels). */
  contextLabel: string | null;
  /** The same joined label as printed (punctuation kept), for qualifier matching. */
  contextRaw?: string | null;
  header: HeaderLine | null;
  section: Section;
}

export interface IndexedPage {
  page: number;
  text: string;
  lines: IndexedLine[];
  scales: ScaleDeclaration[];
}

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};

const MONTH_RE = String.raw`(Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?`;
const YEAR_RE = String.raw`((?:19[89]|20[0-4])\d)`;

const PERIOD_TOKEN = new RegExp(
  [
    String.raw`${MONTH_RE}\s+(\d{1,2}),?\s+${YEAR_RE}`, // 1-3: date
    String.raw`\b(?:fiscal(?:\s+year)?|FY)\s*'?${YEAR_RE}\b`, // 4: fiscal
    String.raw`\bQ([1-4])\s*(?:FY\s*|fiscal\s+)?'?${YEAR_RE}\b`, // 5-6: quarter
    String.raw`\b(first|second|third|fourth)\s+quarter\s+(?:of\s+)?(?:fiscal\s+)?${YEAR_RE}\b`, // 7-8
    String.raw`\b${YEAR_RE}\b`, // 9: bare year
  ].join('|'),
  'gi',
);

const QUARTER_WORD: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

// Words a column-header line may carry besides its periods.
const HEADER_WORDS = new Set(
  (
    'in of the and at as for fiscal year years ended ending end months month weeks week three six nine twelve ' +
    'quarter quarters period periods thousands millions billions except per share shares data amounts dollars ' +
    'restated unaudited audited note notes total change us usd $ to from full fy q1 q2 q3 q4 ' +
    'jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october nov november dec december ' +
    'thirteen fourteen twenty fifty two fifty-two fifty-three 52 53 13 14 26 39 basis actual reported'
  ).split(' '),
);

function parsePeriodTokens(line: string): { columns: PeriodColumn[]; leftover: number } {
  const columns: PeriodColumn[] = [];
  PERIOD_TOKEN.lastIndex = 0;
  let rest = line;
  let m: RegExpExecArray | null;
  while ((m = PERIOD_TOKEN.exec(line)) !== null) {
    const raw = m[0];
    if (m[1] && m[2] && m[3]) {
      const mon = MONTHS[m[1].slice(0, 3).toLowerCase()] ?? 0;
      columns.push({
        raw,
        date: { year: Number(m[3]), month: mon, day: Number(m[2]) },
        duration: 'unknown',
      });
    } else if (m[4]) {
      columns.push({ raw, fiscalYear: Number(m[4]), duration: 'unknown' });
    } else if (m[5] && m[6]) {
      columns.push({ raw, fiscalYear: Number(m[6]), quarter: Number(m[5]), duration: 'quarter' });
    } else if (m[7] && m[8]) {
      columns.push({
        raw,
        fiscalYear: Number(m[8]),
        quarter: QUARTER_WORD[m[7].toLowerCase()] ?? 0,
        duration: 'quarter',
      });
    } else if (m[9]) {
      columns.push({ raw, year: Number(m[9]), duration: 'unknown' });
    }
    rest = rest.replace(raw, ' ');
  }
  const leftoverWords = rest
    .toLowerCase()
    .replace(/[(),:;.*"“”]/g, ' ')
    .split(/\s+/)
    .filter((w) => w !== '' && !HEADER_WORDS.has(w) && !/^[-–—%$]+$/.test(w));
  return { columns, leftover: leftoverWords.length };
}

function durationsIn(text: string): Duration[] {
  const out: Duration[] = [];
  const re =
    /\b(three|thirteen|six|twenty[- ]six|nine|thirty[- ]nine|twelve|fifty[- ]two|fifty[- ]three)\s+(?:months|weeks)\b|\b(?:fourth|first|second|third)\s+quarter\b|\bquarter(?:s)?\s+ended\b|\byears?\s+ended\b|\bfiscal\s+years?\s+ended\b|\bfull\s+year\b|\bas\s+of\b|\bat\b(?=\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const w = m[0].toLowerCase();
    if (/^(three|thirteen)/.test(w) || /quarter/.test(w)) out.push('quarter');
    else if (/^(six|twenty)/.test(w)) out.push('half');
    else if (/^(nine|thirty)/.test(w)) out.push('nine_months');
    else if (/^(as of|at)/.test(w)) out.push('instant');
    else out.push('year');
  }
  return out;
}

/** A line is a period header when it is (almost) nothing but period tokens. */
export function parseHeaderLine(line: string): PeriodColumn[] | null {
  if (line.length > 200) return null;
  const { columns, leftover } = parsePeriodTokens(line);
  if (columns.length === 0 || leftover > 1) return null;
  // A lone bare year is too weak to be a header unless it is the whole line.
  if (
    columns.length === 1 &&
    columns[0]!.year !== undefined &&
    line.trim().replace(/[^0-9]/g, '').length !== 4
  )
    return null;
  return columns;
}

const TITLE_PATTERNS: [SectionKind, RegExp][] = [
  ['cash_flow', /\bstatements? of (?:consolidated )?cash flows?\b|\bcash flows? statements?\b/],
  ['comprehensive', /\bstatements? of (?:consolidated )?comprehensive (?:income|loss|earnings)\b/],
  [
    'income',
    /\bstatements? of (?:consolidated )?(?:operations|income|earnings|(?:net )?loss)\b|\bincome statements?\b|\bstatements? of (?:operations|income|earnings) and comprehensive/,
  ],
  [
    'balance',
    /\bbalance sheets?\b|\bstatements? of (?:consolidated )?financial (?:position|condition)\b|\bstatements? of condition\b/,
  ],
  [
    'equity',
    /\bstatements? of (?:changes in )?(?:consolidated )?(?:stockholders|shareholders|shareowners|share owners)? ?(?:equity|deficit)\b|\bstatements? of shareholders\b|\bstatements? of stockholders\b/,
  ],
  [
    'capital',
    /\b(?:regulatory capital|capital ratios|risk[- ]based capital ratios|capital adequacy|key metrics|capital and liquidity ratios)\b/,
  ],
];

function classifyTitle(line: string): Section | null {
  const norm = line.toLowerCase().replace(/[’'`]/g, '').replace(/\s+/g, ' ').trim();
  const words = norm.split(' ').length;
  if (words > 14 || (/\d{2,}\s*$/.test(norm) && !/\b(?:19|20)\d{2}\s*$/.test(norm))) return null;
  for (const [kind, re] of TITLE_PATTERNS) {
    if (!re.test(norm)) continue;
    // "... and comprehensive income" belongs to the income statement.
    let k = kind;
    if (
      kind === 'comprehensive' &&
      /operations and comprehensive|income and comprehensive|earnings and comprehensive/.test(norm)
    )
      k = 'income';
    if (
      kind === 'income' &&
      /^.*comprehensive/.test(norm) &&
      !/operations|and comprehensive/.test(norm)
    )
      k = 'comprehensive';
    const consolidated = /consolidated|combined/.test(norm);
    // MD&A and selected-data tables reuse statement titles ("Statements of Operations Data").
    const notes =
      /\bnotes? to\b|\bsee notes?\b|accompanying notes|\bdata\b|selected|summary|summarized|highlights|supplemental|consolidating|quarterly|pro forma|guarantor|parent company|registrant|segment/.test(
        norm,
      );
    return { kind: k, primary: !notes, consolidated, title: line.trim() };
  }
  return null;
}

const OTHER: Section = { kind: 'other', primary: false, consolidated: false, title: '' };

/** Only the top of a page carries a statement title; prose mentions lower down are not titles. */
const TITLE_ZONE_LINES = 10;

export function indexPage(p: PageText): IndexedPage {
  const text = p.text;
  const rawLines: { start: number; end: number; text: string }[] = [];
  let pos = 0;
  for (const t of text.split('\n')) {
    rawLines.push({ start: pos, end: pos + t.length, text: t });
    pos += t.length + 1;
  }
  // A table of contents names every statement; it is not itself a statement.
  const titles = rawLines.map((l, i) => (i < TITLE_ZONE_LINES + 40 ? classifyTitle(l.text) : null));
  const distinctTitles = new Set(titles.filter((t): t is Section => t !== null).map((t) => t.kind));
  const isIndex = distinctTitles.size >= 4;
  const lines: IndexedLine[] = [];
  let section: Section = OTHER;
  let lastHeader: HeaderLine | null = null;
  let prevTextOnly: string | null = null;
  let prevTextOnlyAge = 99;
  for (let i = 0; i < rawLines.length; i++) {
    const l = rawLines[i]!;
    const title = titles[i];
    if (title && !isIndex && i < TITLE_ZONE_LINES + 40) {
      // A title inside the top zone starts a primary statement; later ones (second
      // statement on the same page) are accepted when they stand on a short line.
      if (i < TITLE_ZONE_LINES || l.text.trim().split(/\s+/).length <= 8) {
        section = title;
        lastHeader = null;
      }
    }
    const cols = parseHeaderLine(l.text);
    let header: HeaderLine | null = null;
    if (cols) {
      const ctx = [rawLines[i - 2]?.text ?? '', rawLines[i - 1]?.text ?? '', l.text].join('\n');
      assignDurations(cols, l.text, ctx);
      header = { lineIndex: i, columns: cols };
      lastHeader = header;
    }
    const row = cols
      ? { label: l.text.trim(), labelEnd: l.text.length, cells: [] }
      : splitRow(l.text);
    const normLabel = normalizeLabel(row.label);
    const contextLabel =
      row.cells.length > 0 && prevTextOnly !== null && prevTextOnlyAge <= 4
        ? normalizeLabel(prevTextOnly + ' ' + row.label)
        : null;
    lines.push({
      index: i,
      start: l.start,
      end: l.end,
      text: l.text,
      row,
      normLabel,
      contextLabel,
      contextRaw: contextLabel !== null ? `${prevTextOnly} ${row.label}` : null,
      header: row.cells.length > 0 ? lastHeader : header,
      section,
    });
    if (row.cells.length === 0 && !cols && row.label !== '') {
      prevTextOnly = row.label;
      prevTextOnlyAge = 0;
    } else {
      prevTextOnlyAge++;
    }
  }
  return { page: p.page, text, lines, scales: findScaleDeclarations(text) };
}

function assignDurations(cols: PeriodColumn[], headerText: string, context: string): void {
  const own = durationsIn(headerText);
  const ctx = own.length > 0 ? own : durationsIn(context);
  if (ctx.length === 0) return;
  const explicit = cols.filter((c) => c.duration === 'unknown');
  if (ctx.length === 1) {
    for (const c of explicit) c.duration = ctx[0]!;
    // "FOURTH QUARTER" over "2022   2021" (an earnings release): bare years are that quarter
    // of each year. Only one quarter named, and only over bare years (a date has its own).
    const named = [
      ...(own.length > 0 ? headerText : context).matchAll(
        /\b(first|second|third|fourth)\s+quarter\b|\bq([1-4])\b/gi,
      ),
    ].map((m) => (m[1] ? QUARTER_WORD[m[1].toLowerCase()] : Number(m[2])));
    if (ctx[0] === 'quarter' && named.length === 1 && named[0])
      for (const c of explicit)
        if (c.year !== undefined && !c.date && c.quarter === undefined) c.quarter = named[0];
    return;
  }
  // "Three Months Ended   Six Months Ended" over four date columns: two per group.
  if (explicit.length % ctx.length === 0) {
    const per = explicit.length / ctx.length;
    explicit.forEach((c, i) => {
      c.duration = ctx[Math.floor(i / per)] ?? 'unknown';
    });
  }
}

/**
 * How the company numbers fiscal years that end in January/February: retailers call the
 * year ended January 28, 2023 either "fiscal 2022" or "fiscal 2023". Learned from the
 * document's own wording; null when it never says.
 */
export function learnFiscalYearOffset(pages: readonly PageText[]): number | null {
  const votes = new Map<number, number>();
  const a =
    /fiscal(?:\s+year)?\s+(\d{4})\s*(?:\(|,)?\s*(?:which\s+)?(?:ended|ending|ends)\s+(?:on\s+)?(january|february|march)\s+\d{1,2},\s+(\d{4})/gi;
  const b =
    /(?:ended|ending)\s+(january|february|march)\s+\d{1,2},\s+(\d{4})\s*\(\s*["“]?fiscal(?:\s+year)?\s+(\d{4})/gi;
  for (const p of pages) {
    let m: RegExpExecArray | null;
    a.lastIndex = 0;
    while ((m = a.exec(p.text)) !== null) {
      const off = Number(m[3]) - Number(m[1]);
      if (off === 0 || off === 1) votes.set(off, (votes.get(off) ?? 0) + 1);
    }
    b.lastIndex = 0;
    while ((m = b.exec(p.text)) !== null) {
      const off = Number(m[2]) - Number(m[3]);
      if (off === 0 || off === 1) votes.set(off, (votes.get(off) ?? 0) + 1);
    }
  }
  const v0 = votes.get(0) ?? 0;
  const v1 = votes.get(1) ?? 0;
  if (v0 > 0 && v1 === 0) return 0;
  if (v1 > 0 && v0 === 0) return 1;
  if (v0 >= 3 * v1 && v0 > 0) return 0;
  if (v1 >= 3 * v0 && v1 > 0) return 1;
  return null;
}

/**
 * The naming convention from a quarter of a named fiscal year tied to its end date in prose
 * ("the end of the second quarter of fiscal 2024 on July 29, 2023", "the first quarter of
 * fiscal 2025 ended May 3, 2025"), as a 10-Q writes it: the fiscal year named is the one that
 * closes at the next year end (offset 0) or is named after the calendar year it began in (1).
 * Needs the month the fiscal year ends in; null when the votes are none or split.
 */
export function learnOffsetFromQuarterDates(
  pages: readonly PageText[],
  fiscalYearEndMonth: number | null,
): number | null {
  if (!fiscalYearEndMonth || fiscalYearEndMonth > 3) return null;
  const re = new RegExp(
    String.raw`\b(first|second|third) quarter of fiscal (?:year )?((?:19|20)\d{2}),?\s+(?:ended|ending|on)\s+(?:on\s+)?${MONTH_RE}\s+(\d{1,2}),?\s+((?:19|20)\d{2})`,
    'gi',
  );
  const votes = new Map<number, number>();
  for (const p of pages) {
    for (const m of p.text.matchAll(re)) {
      const month = MONTHS[m[3]!.slice(0, 3).toLowerCase()] ?? 0;
      if (month === 0 || monthDistance(month, fiscalYearEndMonth) <= 1) continue;
      // The year end that closes the fiscal year this quarter is in.
      const endYear = month < fiscalYearEndMonth ? Number(m[5]) : Number(m[5]) + 1;
      const off = endYear - Number(m[2]);
      if (off === 0 || off === 1) votes.set(off, (votes.get(off) ?? 0) + 1);
    }
  }
  if (votes.size !== 1) return null;
  return [...votes.keys()][0]!;
}

export interface ResolvedColumn {
  fiscalYear: number;
  quarter?: number;
  duration: Duration;
  /** 1 when the mapping to a fiscal year is certain, lower when a convention was assumed. */
  certainty: number;
  /** A dated column that is not at the fiscal year end (a quarter-end balance or period). */
  interim?: boolean;
}

/** Months apart on the calendar circle (December and January are 1 apart). */
export function monthDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 12;
  return Math.min(d, 12 - d);
}

/**
 * The calendar month the company's fiscal year ends in, from its wording ("years ended
 * December 31", "fiscal year ends on the Saturday nearest the end of January") and from
 * annual column headers ("Years Ended May 31, 2023"). Null when the votes are few or split.
 * 52/53-week years straddle two adjacent months; both count for the winning month.
 */
export function learnFiscalYearEnd(
  pages: readonly PageText[],
  indexed: readonly IndexedPage[] = [],
): number | null {
  const votes = new Array<number>(13).fill(0);
  const re = new RegExp(
    String.raw`\b(?:fiscal\s+)?years?\s+(?:ended|ending|ends?)\s+(?:on\s+)?(?:the\s+\w+\s+(?:nearest|closest)\s+(?:to\s+)?(?:the\s+(?:end|last\s+day)\s+of\s+)?)?${MONTH_RE}`,
    'gi',
  );
  for (const p of pages) {
    re.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = re.exec(p.text)) !== null) {
      const mon = MONTHS[m[1]!.slice(0, 3).toLowerCase()];
      if (mon) votes[mon]!++;
    }
  }
  for (const p of indexed) {
    for (const l of p.lines) {
      if (l.row.cells.length > 0 || !l.header || l.header.lineIndex !== l.index) continue;
      for (const c of l.header.columns)
        if (c.date && c.duration === 'year' && c.date.month >= 1) votes[c.date.month]!++;
    }
  }
  let best = 0;
  for (let mon = 1; mon <= 12; mon++) if (votes[mon]! > votes[best]!) best = mon;
  const total = votes.reduce((a, b) => a + b, 0);
  if (best === 0 || votes[best]! < 2) return null;
  let near = 0;
  for (let mon = 1; mon <= 12; mon++) if (monthDistance(mon, best) <= 1) near += votes[mon]!;
  return near >= 0.8 * total ? best : null;
}

/** Map a printed column header to the fiscal year it reports. */
export function resolveColumn(
  col: PeriodColumn,
  fiscalOffset: number | null,
  docPeriod?: number,
  latestYearInHeader?: number,
  fiscalYearEndMonth?: number | null,
): ResolvedColumn {
  const d0 = col.date;
  if (
    d0 &&
    fiscalYearEndMonth &&
    d0.month >= 1 &&
    monthDistance(d0.month, fiscalYearEndMonth) > 1
  ) {
    // A date away from the fiscal year end is a quarter end: it belongs to the fiscal year
    // that closes next, and its quarter counts from the last year end.
    const M = fiscalYearEndMonth;
    const endYear = d0.month < M ? d0.year : d0.year + 1;
    const end = resolveColumn(
      { raw: col.raw, date: { year: endYear, month: M, day: 28 }, duration: col.duration },
      fiscalOffset,
      docPeriod,
      latestYearInHeader === undefined ? undefined : latestYearInHeader + (endYear - d0.year),
    );
    const months = (d0.month - M + 12) % 12;
    return {
      fiscalYear: end.fiscalYear,
      quarter: Math.min(3, Math.max(1, Math.round(months / 3))),
      duration: col.duration,
      certainty: end.certainty,
      interim: true,
    };
  }
  if (col.fiscalYear !== undefined) {
    return {
      fiscalYear: col.fiscalYear,
      quarter: col.quarter,
      duration: col.duration,
      certainty: 1,
    };
  }
  if (col.year !== undefined)
    return {
      fiscalYear: col.year,
      ...(col.quarter !== undefined ? { quarter: col.quarter } : {}),
      duration: col.duration,
      certainty: 1,
    };
  const d = col.date!;
  if (d.month >= 3) return { fiscalYear: d.year, duration: col.duration, certainty: 1 };
  // 52/53-week years ending in the first days of January are named after the prior
  // calendar year ("January 2, 2021" closes fiscal 2020).
  if (d.month === 1 && d.day <= 7 && fiscalOffset === null)
    return { fiscalYear: d.year - 1, duration: col.duration, certainty: 0.9 };
  // A year ending in January/February: the naming convention decides.
  if (fiscalOffset !== null)
    return { fiscalYear: d.year - fiscalOffset, duration: col.duration, certainty: 1 };
  if (docPeriod !== undefined && latestYearInHeader !== undefined) {
    if (latestYearInHeader === docPeriod)
      return { fiscalYear: d.year, duration: col.duration, certainty: 0.95 };
    if (latestYearInHeader === docPeriod + 1)
      return { fiscalYear: d.year - 1, duration: col.duration, certainty: 0.95 };
  }
  return { fiscalYear: d.year, duration: col.duration, certainty: 0.75 };
}

export function columnLabel(col: PeriodColumn): string {
  return col.raw;
}
