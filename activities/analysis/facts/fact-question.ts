import { z } from 'zod';
import { parseRequestedScale, ScaleSchema } from '../extraction/scale';
import { getFormula } from '../extraction/formula-catalog';
import { FACT_METRICS, factMetric } from './concept-map';
import { askedRounding } from '../extraction/asked-rounding';

/**
 * The fact path's reading of a question: which line item (or catalog formula), which
 * operation (a level, a change, a growth rate) and which periods, each period as the words
 * state it (a date, a length in months, a fiscal year, a quarter). The periods are matched to
 * the filing's contexts later (period-match.ts), with its fiscal calendar. Regular rules only;
 * what it cannot read is `unsupported`, and the question stays with the text path.
 */

export const PeriodRefSchema = z.object({
  /** The words the reference was read from. */
  text: z.string(),
  endDate: z.string().optional(),
  months: z.number().int().optional(),
  fiscalYear: z.number().int().optional(),
  quarter: z.number().int().min(1).max(4).optional(),
});
export type PeriodRef = z.infer<typeof PeriodRefSchema>;

export const FactQuestionSchema = z.object({
  kind: z.enum(['metric', 'formula']),
  metric: z.string().optional(),
  formula: z.string().optional(),
  operation: z.enum(['level', 'change', 'growth']),
  periods: z.array(PeriodRefSchema),
  requestedScale: ScaleSchema.optional(),
  rounding: z.number().int().min(0).max(10).optional(),
  /** A change or growth named with one period ("year-over-year growth in fiscal 2024"): the prior year is the other. */
  priorYearImplied: z.boolean(),
  /** Equity including noncontrolling interests asked for explicitly. */
  withNoncontrolling: z.boolean(),
  /**
   * Words that say the question asks about a part of the company ("segment", "automotive
   * revenue"): answered only from the member the question names (segment-member.ts).
   */
  partWords: z.string().optional(),
});
export type FactQuestion = z.infer<typeof FactQuestionSchema>;

export type FactQuestionReading =
  { status: 'read'; question: FactQuestion } | { status: 'unsupported'; reason: string };

const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const DATE = String.raw`${MONTH}\s+(\d{1,2}),?\s+((?:19|20)\d{2})`;
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
const WORD_NUM: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
};
const LENGTH: Record<string, number> = {
  three: 3,
  '3': 3,
  thirteen: 3,
  '13': 3,
  six: 6,
  '6': 6,
  'twenty-six': 6,
  '26': 6,
  nine: 9,
  '9': 9,
  'thirty-nine': 9,
  '39': 9,
  twelve: 12,
  '12': 12,
  'fifty-two': 12,
  '52': 12,
  'fifty-three': 12,
  '53': 12,
};

function isoDate(mon: string, day: string, year: string): string {
  const m = MONTHS[mon.slice(0, 3)] ?? 0;
  return `${year}-${String(m).padStart(2, '0')}-${day.padStart(2, '0')}`;
}

/**
 * References to the filing itself ("its 10-K for fiscal 2024", "in its Q2 2025 Form 10-Q",
 * "its 10-Q for the quarter ended June 28, 2025", "its 2024 annual report (10-K)") name the
 * document, not the period asked about: they are blanked before periods are read.
 */
const DOC_REF = new RegExp(
  String.raw`(?:(?:its|the|a)\s+)?(?:(?:fiscal\s+(?:year\s+)?)?(?:q[1-4]\s+)?(?:fy\s?)?\d{4}\s+)?(?:(?:annual|quarterly)\s+report|form\s+10-[kq]|10-[kq])(?:\s*\((?:form\s+)?10-[kq]\))?(?:\s+for\s+(?:the\s+)?(?:(?:fiscal\s+)?(?:year|quarter|period)\s+ended\s+${DATE}|fiscal(?:\s+year)?\s+\d{4}|fy\s?\d{4}|\d{4}))?`,
  'g',
);

/** Period phrases, most specific first; each match is blanked so a later rule cannot reread it. */
const PERIOD_RULES: { re: RegExp; read: (m: RegExpExecArray) => Omit<PeriodRef, 'text'> }[] = [
  {
    re: new RegExp(
      String.raw`\b(three|six|nine|twelve|3|6|9|12|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three|13|26|39|52|53)[- ](?:months?|weeks?)\s+(?:period\s+)?end(?:ed|ing)\s+${DATE}`,
      'g',
    ),
    read: (m) => ({ months: LENGTH[m[1]!], endDate: isoDate(m[2]!, m[3]!, m[4]!) }),
  },
  {
    re: new RegExp(String.raw`\b(?:fiscal\s+)?(year|quarter)\s+end(?:ed|ing)\s+${DATE}`, 'g'),
    read: (m) => ({ months: m[1] === 'year' ? 12 : 3, endDate: isoDate(m[2]!, m[3]!, m[4]!) }),
  },
  {
    re: /\bfirst half (?:of )?(?:fiscal (?:year )?|fy\s?)?((?:19|20)\d{2})\b|\b(?:first )?six months of (?:fiscal (?:year )?|fy\s?)?((?:19|20)\d{2})\b/g,
    read: (m) => ({ months: 6, fiscalYear: Number(m[1] ?? m[2]) }),
  },
  {
    re: /\byear[- ]to[- ]date (?:through|to|as of|ended) (?:fiscal |the )?(?:q([1-4])|(first|second|third) quarter)(?: of)?\s*(?:fy\s?|fiscal (?:year )?)?'?((?:19|20)\d{2})\b/g,
    read: (m) => {
      const q = m[1] ? Number(m[1]) : WORD_NUM[m[2]!]!;
      return { months: 3 * q, fiscalYear: Number(m[3]) };
    },
  },
  {
    re: /\b(?:fiscal\s+)?(?:q([1-4])|(first|second|third|fourth) quarter)(?:\s+of)?\s*(?:fy\s?|fiscal(?:\s+year)?\s+)?'?((?:19|20)\d{2})\b|\b(?:fiscal\s+|fy\s?)?((?:19|20)\d{2})\s+q([1-4])\b/g,
    read: (m) => ({
      quarter: m[1] ? Number(m[1]) : m[2] ? WORD_NUM[m[2]]! : Number(m[5]),
      fiscalYear: Number(m[3] ?? m[4]),
    }),
  },
  {
    re: new RegExp(DATE, 'g'),
    read: (m) => ({ endDate: isoDate(m[1]!, m[2]!, m[3]!) }),
  },
  {
    re: /\b(?:(?:fiscal|calendar)(?:\s+year)?\s+|fy\s?'?|full[- ]year\s+|(?:the\s+)?year\s+)?((?:19|20)\d{2})\b/g,
    read: (m) => ({ fiscalYear: Number(m[1]) }),
  },
];

export function readPeriodRefs(text: string): PeriodRef[] {
  let rest = text.replace(DOC_REF, (s) => ' '.repeat(s.length));
  const found: (PeriodRef & { at: number })[] = [];
  for (const rule of PERIOD_RULES) {
    rule.re.lastIndex = 0;
    rest = rest.replace(rule.re, (...args) => {
      const s = args[0] as string;
      const at = args[args.length - 2] as number;
      const m = Object.assign([...args.slice(0, -2)] as string[], {
        index: at,
        input: rest,
      }) as unknown as RegExpExecArray;
      found.push({ text: s.trim(), at, ...rule.read(m) });
      return ' '.repeat(s.length);
    });
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...r }) => r);
}

/** Catalog formulas the fact path computes, by the words that name them. */
const FORMULA_WORDS: readonly { re: RegExp; formula: string }[] = [
  { re: /\boperating (?:income |profit )?margin\b/, formula: 'operating_margin' },
  { re: /\bnet (?:profit |income |earnings )?margin\b|\bprofit margin\b/, formula: 'net_margin' },
  { re: /\bgross (?:profit )?margin\b/, formula: 'gross_margin' },
  { re: /\bcurrent ratio\b/, formula: 'current_ratio' },
  { re: /\bdebt[- ]to[- ]equity\b|\bdebt\s*\/\s*equity\b/, formula: 'debt_to_equity' },
  { re: /\bfree cash flow\b|\bfcf\b/, formula: 'free_cash_flow' },
  { re: /\beffective (?:income )?tax rate\b/, formula: 'effective_tax_rate' },
  { re: /\bworking capital\b/, formula: 'working_capital' },
];

/** A part of the company rather than its total: only a member the question names answers it. */
const PART_OF_COMPANY =
  /\bsegments?\b|\bdivisions?\b|\bbusiness(?:es)?\b|\bregions?\b|\bgeograph\w*|\b(?:product|products|services?|subscription|hardware|software|automotive|energy|international|domestic|americas|europe|china|asia|emea|wholesale|retail|online)\s+(?:revenues?|sales|segment|income)\b|\b(?:revenues?|sales) (?:from|by|in) (?!(?:the )?(?:company|fiscal|full|year|quarter|period|first|second|third|fourth|q[1-4]|fy|h[12]|\d))/;
/** The words that make a question ask about a part of the company, if any. */
export function partOfCompanyWords(text: string): string | null {
  return PART_OF_COMPANY.exec(text.toLowerCase())?.[0] ?? null;
}
const NOT_REPORTED =
  /\badjusted\b|\bnon[- ]gaap\b|\bpro forma\b|\borganic\b|\bconstant currency\b|\bguidance\b|\boutlook\b|\bforecast\b|\bper (?:employee|store|customer|subscriber|member)\b/;

const METRIC_PHRASES = FACT_METRICS.flatMap((m) =>
  [...m.questionPhrases, m.name, ...m.labels.filter((l) => !l.endsWith(' *'))].map((p) => ({
    phrase: p.toLowerCase().trim(),
    metric: m.id,
  })),
)
  .filter((p) => p.phrase.length >= 3)
  .sort((a, b) => b.phrase.length - a.phrase.length);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The line items (fact metrics) a text names, longest phrase first; each phrase read once. */
export function findMetrics(text: string): string[] {
  let rest = text;
  const found: string[] = [];
  for (const { phrase, metric } of METRIC_PHRASES) {
    const re = new RegExp(`(?<![a-z&])${escapeRe(phrase)}(?![a-z&])`, 'g');
    if (re.test(rest)) {
      if (!found.includes(metric)) found.push(metric);
      rest = rest.replace(re, ' ');
    }
  }
  return found;
}

/** Words an operand's name may carry beside its line item's own name ("the total … expense"). */
const OPERAND_FILLER = new Set(
  'the its a an total reported consolidated company s expense expenses amount for of'.split(' '),
);

/**
 * The one line item an operand's name names, when the name says nothing more: "widget revenue"
 * is not revenue, "total net sales" is. Null for none, several, or extra words.
 */
export function wholeLineItem(name: string): string | null {
  // A presentation clause the definition's last operand swallowed ("…, to two decimals").
  const text = name
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(
      /,[^,]*\b(?:decimals?|rounded|round|percent(?:age)?|millions?|billions?|thousands?|usd|dollars?)\b[^,]*$/,
      '',
    );
  const found = findMetrics(text);
  if (found.length !== 1) return null;
  let rest = text;
  for (const { phrase, metric } of METRIC_PHRASES)
    if (metric === found[0])
      rest = rest.replace(new RegExp(`(?<![a-z&])${escapeRe(phrase)}(?![a-z&])`, 'g'), ' ');
  const extra = rest.split(/[^a-z0-9&]+/).filter((w) => w !== '' && !OPERAND_FILLER.has(w));
  return extra.length === 0 ? found[0]! : null;
}

/** The question without its own definition ("defined as …", "= …", "(operating cash flow minus capex)"). */
function mainPart(text: string): string {
  const blanked = text.replace(/\([^)]*\b(?:minus|divided by|over|less)\b[^)]*\)/g, (d) =>
    ' '.repeat(d.length),
  );
  const cut = blanked.search(
    /\b(?:is |are )?defined as\b|\bdefinition\b|\buse [^.?]* divided by\b|\busing [^.?]* divided by\b|\s=\s/,
  );
  return cut >= 0 ? blanked.slice(0, cut) : blanked;
}

/** Reads a question for the fact path (see the module comment). */
export function readFactQuestion(question: string): FactQuestionReading {
  const text = question
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[–—]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  const main = mainPart(text);
  if (/^(?:is|are|was|were|does|do|did|has|have|can|could|should|will|would)\b/.test(text))
    return { status: 'unsupported', reason: 'a yes/no question' };
  if (/\b(?:why|explain|describe|summari[sz]e|which|compare|rank)\b/.test(main))
    return { status: 'unsupported', reason: 'a qualitative or comparative question' };
  const notReported = NOT_REPORTED.exec(main);
  if (notReported)
    return { status: 'unsupported', reason: `"${notReported[0]}": not a reported figure` };
  const part = PART_OF_COMPANY.exec(main);

  const scale = parseRequestedScale(text) ?? undefined;
  const currencyAsked = /\$|\busd\b|\bdollars?\b|\b(?:thousands|millions|billions)\b/.test(text);
  const percentAsked = /%|\bpercent(?:age)?\b|\bper cent\b/.test(text);
  let formula = FORMULA_WORDS.find((f) => f.re.test(main))?.formula;
  // "Gross margin" in dollars is the gross profit line (some filers print it so).
  if (formula === 'gross_margin' && currencyAsked && !percentAsked) formula = undefined;
  const growth =
    (percentAsked && /\bgrow\b/.test(main)) ||
    /\bgrowth\b|\bgrew\b|\bgrow or shrink\b|\bpercent(?:age)? change\b|% change\b|\bby what percent(?:age)?\b|\bin percentage terms\b|\bchange[^.?]*\b(?:as a |in )percent(?:age)?\b/.test(
      text,
    );
  const change =
    /\bchanged?\b|\bincrease\b|\bdecrease\b|\bdifference\b|\bhigher or lower\b|\bhow much (?:higher|lower|more|less)\b/.test(
      main,
    );
  const operation: FactQuestion['operation'] = growth ? 'growth' : change ? 'change' : 'level';

  let metric: string | undefined;
  if (!formula) {
    const found = findMetrics(
      main.replace(/\([^)]*\)/g, (s) => (/\b(?:net of|excluding|including)\b/.test(s) ? ' ' : s)),
    );
    if (found.length === 0)
      return { status: 'unsupported', reason: 'no line item the fact path reads is named' };
    if (found.length > 1) {
      // "net cash provided by operating activities … (cash from operations)": one item, two names.
      const distinct = [...new Set(found)];
      if (distinct.length > 1)
        return {
          status: 'unsupported',
          reason: `several line items named (${distinct.join(', ')})`,
        };
    }
    metric = found[0];
    if (
      /\bratio\b|\bturnover\b|\bcoverage\b|\bmargin\b|\byield\b|\bmultiple\b/.test(main) &&
      factMetric(metric!)?.kind !== 'ratio_percent'
    )
      return { status: 'unsupported', reason: 'asks for a ratio the fact path does not compute' };
  } else if (!getFormula(formula)) {
    return { status: 'unsupported', reason: `formula ${formula} is not in the catalog` };
  }
  const periods = readPeriodRefs(main);
  if (periods.length === 0) return { status: 'unsupported', reason: 'no period named' };
  return {
    status: 'read',
    question: {
      kind: formula ? 'formula' : 'metric',
      ...(formula ? { formula } : { metric }),
      operation,
      periods,
      ...(scale ? { requestedScale: scale } : {}),
      ...(askedRounding(text) !== null ? { rounding: askedRounding(text)! } : {}),
      priorYearImplied:
        /\byear[- ]over[- ]year\b|\byoy\b|\b(?:the |a )?(?:prior|previous|preceding) year\b|\ba year (?:earlier|before)\b/.test(
          text,
        ),
      withNoncontrolling:
        /\bincluding (?:the )?(?:portion attributable to )?(?:non-?controlling|minority)\b|\bincluding noncontrolling\b/.test(
          text,
        ),
      ...(part ? { partWords: part[0] } : {}),
    },
  };
}
