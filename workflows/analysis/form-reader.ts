import {
  canonicalOperation,
  splitTopLevel,
  type AnswerForm,
  type Definition,
  type Operation,
  type QuantityKind,
} from './answer-form';

/**
 * The second, deliberately different reading of a question's asked form. It knows no metric
 * catalog and no formulas: it only looks for unit, scale, rounding, operation and period
 * cues in the words ("in percent", "divided by", "in USD billions", "round to one decimal
 * place", "3 year average", "between FY2019 and FY2021"). It shares nothing with the
 * question parser (activities/analysis/extraction/question-parser.ts) but the text itself,
 * so a misreading in one is unlikely to be repeated by the other. Pure and deterministic.
 */

const WORD_NUMBERS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
};

function count(token: string | undefined): number | null {
  if (token === undefined) return null;
  if (/^\d{1,2}$/.test(token)) return Number(token);
  return WORD_NUMBERS[token] ?? null;
}

/** Lower case, one space, straight quotes: the only preparation of the text. */
export function tokenize(question: string): string {
  return question
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[–—−]/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
}

const DEFINITION_CUE =
  /\b(?:is|are)?\s*defined as:?|\bdefine [^.?]{1,80}? as:?|\b(?:calculate|compute) [^.?]{1,80}? as(?! an? (?:%|percent|percentage|share|proportion|fraction|decimal|ratio|whole|number)\b):?|\b(?:is )?calculated as:?|\bcomputed as:?|\bformula:|\s=\s/;

/** The question proper and the inline definition (if any), split at the definition cue. */
/**
 * A parenthesised clause that spells out arithmetic ("free cash flow (operating cash flow minus
 * capex)") is the question's own definition of the figure it follows, not an operation asked
 * of it: it is read as the definition, and the rest of the question as the question.
 */
const PARENTHESISED_DEFINITION =
  /\(([^()]*\b(?:minus|less(?! than)|plus|divided by|over)\b[^()]*)\)/;

const PERIOD_OPERAND = String.raw`(?:the )?(?:current|prior|previous|preceding|later|earlier|newer|older|ending|beginning|end|start|this|last|(?:fy\s?|fiscal (?:year )?)?(?:19|20)\d{2})(?: (?:year|period|quarter|value|figure|amount))?`;
const SIGN_CONVENTION = new RegExp(
  String.raw`^\s*${PERIOD_OPERAND} (?:minus|less) ${PERIOD_OPERAND}\s*(?:[;,.]|$)`,
);

const INSTRUCTION =
  /\b(?:use|sign|if|when|negative|positive|answer|round(?:ed)?|express(?:ed)?|give|show)\b/;

function splitDefinition(text: string): { main: string; definitionText: string | null } {
  const m = DEFINITION_CUE.exec(text);
  if (!m) {
    const p = PARENTHESISED_DEFINITION.exec(text);
    // "(current minus prior; negative if it fell)" states a change's sign, not a figure's
    // definition: its operands are periods, not line items.
    // "(use a minus sign for a decline)" is an instruction that names arithmetic, not a formula.
    if (!p || SIGN_CONVENTION.test(p[1]!) || INSTRUCTION.test(p[1]!))
      return { main: text, definitionText: null };
    return {
      main: `${text.slice(0, p.index)}${' '.repeat(p[0].length)}${text.slice(p.index + p[0].length)}`,
      definitionText: p[1]!.trim() || null,
    };
  }
  // The definition runs to the end of its sentence: instructions after it ("Round ...") are not part of it.
  const after = text.slice(m.index + m[0].length);
  const end = after.search(/\.\s|\.$|\?\s|\?$/);
  const body = (end >= 0 ? after.slice(0, end) : after).trim();
  // "Define net working capital as ..." names the quantity before the cue: keep it in main,
  // and so is whatever follows the definition's sentence ("What was it in FY2021?").
  const named = /^(?:define|calculate|compute) ([^.?]{1,80}?) as:?$/.exec(m[0].trim());
  const rest = end >= 0 ? after.slice(end + 1) : '';
  return {
    main: `${text.slice(0, m.index)}${named ? ` ${named[1]}` : ''} ${rest}`.trim(),
    definitionText: body || null,
  };
}

function readDefinition(definitionText: string | null): Definition | null {
  if (!definitionText) return null;
  // "A minus B, over C": the comma closes the numerator, so the whole of it is divided by C.
  const over = /^(.+?),\s*(?:over|divided by)\s+(.+?)[.;:]*$/.exec(definitionText.trim());
  if (over && !/,/.test(over[2]!))
    return { operator: '/', left: over[1]!.trim(), right: over[2]!.trim() };
  const split = splitTopLevel(definitionText.replace(/[.;:]+$/, ''));
  return split ? { operator: split.operator, left: split.left, right: split.right } : null;
}

/** A part a definition names: "ebitda = A", "dio = A", "capex as A", "free cash flow defined as A". */
// A name never spans " and ": "depreciation and amortization and capex = …" names capex.
const PART_NAME = String.raw`[a-z](?:(?! and )[a-z0-9&' -]){0,40}?`;
const PART_IS = String.raw`\s(?:=|(?:is )?defined as|as)\s`;
/** Where the named parts begin: ", where EBITDA = …", " with DIO = …", " with X defined as …". */
const PARTS_CUE = new RegExp(String.raw`(?:,\s*|\s)(?:where|with)\s+(?=${PART_NAME}${PART_IS})`);
const PART_SPLIT = new RegExp(
  String.raw`,\s*(?:and\s+)?(?=${PART_NAME}${PART_IS})|\sand\s(?=${PART_NAME}${PART_IS})`,
);
const PART = new RegExp(String.raw`^(${PART_NAME})${PART_IS}(.+)$`);

/**
 * "EBITDA less capex, where EBITDA = A + B and capex = C"; "defined as DIO + DSO − DPO, with
 * DIO = …, DSO = … and DPO = …": the answer is the arithmetic over named parts, and each part
 * is defined after "where" / "with". The answer's definition is that arithmetic, each operand
 * carrying the definitions of the parts it names (so the check sees the line items used).
 */
function readDefinitionOverParts(whole: string): Definition | null {
  const cue = PARTS_CUE.exec(whole);
  if (!cue) return null;
  const after = whole.slice(cue.index + cue[0].length);
  const end = after.search(/\?\s|\?$|\.\s|\.$/);
  const clause = end >= 0 ? after.slice(0, end) : after;
  const parts = new Map<string, string>();
  for (const piece of clause.split(PART_SPLIT)) {
    const m = PART.exec(piece.trim());
    if (m) parts.set(m[1]!.trim(), m[2]!.replace(/[,;]\s*all at .*$/, '').trim());
  }
  if (parts.size === 0) return null;
  // The arithmetic: after the head's own definition cue, or the head itself ("what was X's
  // FY2023 EBITDA minus capex"): its top-level operator splits it.
  const head = whole.slice(0, cue.index);
  const own = DEFINITION_CUE.exec(head);
  const split = splitTopLevel(own ? head.slice(own.index + own[0].length) : head);
  if (!split) return null;
  const named = (side: string) => {
    const bodies = [...parts]
      .filter(([name]) =>
        new RegExp(String.raw`(?:^|[^a-z0-9])${escapeRegExp(name)}(?:$|[^a-z0-9])`).test(side),
      )
      .map(([, body]) => body);
    return bodies.length === 0 ? side.trim() : `${side.trim()} (${bodies.join('; ')})`;
  };
  // Only an answer over its parts: every part is named by one side or the other.
  const left = named(split.left);
  const right = named(split.right);
  if (left === split.left.trim() && right === split.right.trim()) return null;
  return { operator: split.operator, left, right };
}

const escapeRegExp = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function readScale(text: string): AnswerForm['scale'] {
  const m =
    /\b(?:in|into|as|of)\s+(?:units of\s+)?(?:usd|us\$|\$|dollars?|u\.s\. dollars)?\s?(thousands|millions|billions|mn|bn)\b/.exec(
      text,
    ) ??
    /\b(?:usd|us\$|\$)\s?(thousands|millions|billions|mn|bn)\b/.exec(text) ??
    /\bin (thousands|millions|billions) of (?:usd|us dollars|dollars)\b/.exec(text);
  if (!m) return null;
  const w = m[1]!;
  if (w.startsWith('thousand')) return 'thousands';
  if (w.startsWith('billion') || w === 'bn') return 'billions';
  return 'millions';
}

function readRounding(text: string): number | null {
  // "two decimal places", "with one decimal" (a precision, not "as a decimal").
  const dp =
    /(\w+)[- ]decimal[- ]places?\b|\b(\w+) (?:digits?|places?) after the decimal|\bwith (\w+) decimals?\b|\bto (\w+) decimals?\b|\b(zero|one|two|three|four|\d) decimals?\b/.exec(
      text,
    );
  if (dp) {
    const n = count(dp[1] ?? dp[2] ?? dp[3] ?? dp[4] ?? dp[5]);
    if (n !== null) return n;
  }
  if (/\bround(?:ed|ing)?\b[^.?]{0,40}\b(?:whole (?:number|percent(?:age)?)|integer)\b/.test(text))
    return 0;
  // "Rounded to the nearest million" (in millions): no decimal places.
  if (/\bnearest (?:whole|integer|dollar|thousand|million|billion)\b/.test(text)) return 0;
  if (/\bnearest tenth\b/.test(text)) return 1;
  if (/\bnearest hundredth\b|\bnearest cent\b/.test(text)) return 2;
  return null;
}

function readKind(main: string, whole: string): QuantityKind | null {
  if (/^(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b/.test(main))
    return 'yes_no';
  if (/\bper (?:diluted |basic )?share\b|\beps\b|\bearnings per\b/.test(main)) return 'per_share';
  if (/\bdays\b|\bdso\b|\bdpo\b|\bdio\b|\bcash conversion cycle\b/.test(main)) return 'days';
  if (/\bexpressed as a decimal\b|\bas a decimal\b|\bin decimal\b/.test(whole)) return 'ratio';
  // An explicit answer unit ("Answer in USD millions", "in US$ billions") asks for an amount,
  // whatever rate or margin word the question also names.
  if (
    /\bin (?:usd|us\$|\$|us dollars|dollars)\s?(?:thousands|millions|billions|mn|bn)\b|\b(?:answer|express(?:ed)?|state|give|report)\b[^.?]{0,20}\bin (?:usd|us\$|us dollars|dollars)\b/.test(
      whole,
    ) &&
    !/%|\bpercent(?:s|age)?\b|\bper cent\b|\bper share\b/.test(whole)
  )
    return 'currency_amount';
  // "gross margin (in dollars)": the dollar figure a margin word can also name.
  if (
    /\bin (?:us )?dollars\b|\bdollar (?:amount|value|figure)\b|\bas an amount\b/.test(whole) &&
    !/%|\bpercent(?:s|age)?\b|\bper cent\b/.test(whole)
  )
    return 'currency_amount';
  if (
    /%|\bpercent(?:s|age)?\b|\bper cent\b|\bmargin\b|\bcagr\b|\bgrowth rate\b|\brate of (?:growth|return)\b|\b(?:tax|interest|growth) rate\b|\breturn on\b|\byield\b/.test(
      main,
    )
  )
    return 'percent';
  if (
    /\bratio\b|\bturnover\b|\bhow many times\b|\btimes\b|\bmultiple\b|\bcoverage\b|\bdivided by\b|\bproportion\b|\bx\b/.test(
      main,
    )
  )
    return 'ratio';
  if (/\bnumber of\b|\bhow many\b|\bheadcount\b|\bshares outstanding\b/.test(main)) return 'count';
  if (
    /\busd\b|\$|\bdollars?\b|\b(?:thousands|millions|billions)\b|\bamount\b|\brevenues?\b|\bsales\b|\bincome\b|\bearnings\b|\bprofit\b|\bexpenditures?\b|\bcapex\b|\bcash\b|\bassets\b|\bliabilities\b|\bdebt\b|\bequity\b|\bexpenses?\b|\bcosts?\b|\bcogs\b|\bpayables?\b|\breceivables?\b|\binventor(?:y|ies)\b|\bebitda\b|\bdividends?\b|\bworking capital\b|\bcapital\b|\bgoodwill\b|\bdepreciation\b|\bamortization\b|\bprovision\b|\brepurchases?\b|\bbuybacks?\b|\bborrowings?\b/.test(
      main,
    )
  )
    return 'currency_amount';
  return null;
}

const CHANGE_WORDS =
  /\bimproved?\b|\bworsen(?:ed)?\b|\bchanged?\b|\bchanges\b|\bgrowth\b|\bgr[eo]w(?:n)?\b|\bincreased?\b|\bdecreased?\b|\bdecline[ds]?\b|\bdrop(?:ped)?\b|\bfell\b|\bfall(?:s|en|ing)?\b|\bros(?:e)\b|\bris(?:e|es|en|ing)\b|\bwent (?:up|down)\b|\byear[- ]over[- ]year\b|\byoy\b/;

function readOperation(main: string, whole: string, def: Definition | null): Operation | null {
  if (/\bcagr\b|\bcompound(?:ed)? annual growth\b/.test(main)) return 'cagr';
  if (/(?<!weighted[- ])\baverage[ds]?\b|\bmean\b/.test(main)) return 'average';
  const percentAsked =
    /%|\bpercent(?:s|age)?\b|\bper cent\b|\bgrowth rate\b|\brate of growth\b/.test(main) ||
    /\bin (?:units of )?percents?\b/.test(whole);
  if (/\bdifference\b/.test(main)) {
    // "difference between FY2019 and FY2020" is a change of one figure over time; between two
    // figures ("between revenue and cost of sales") it is a difference of the two.
    const Y = String.raw`(?:the )?(?:fiscal (?:year )?|fy\s?)?(?:19|20)\d{2}`;
    // A dated point or a fiscal period on each side ("at June 28, 2025 than at September 28,
    // 2024", "for fiscal year 2024 … than for fiscal year 2023") is one figure over time too.
    const D = String.raw`(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}, )?${Y}`;
    const overTime =
      new RegExp(String.raw`\b(?:between ${Y} and ${Y}|from ${Y} to ${Y})\b`).test(main) ||
      new RegExp(
        String.raw`\bhigher or lower\b[^?]*\b(?:at|for|in|as of) ${D}\b[^?]*\bthan (?:at|for|in|as of) ${D}\b`,
      ).test(main);
    if (!overTime) return 'difference';
    return percentAsked ? 'percent_change' : 'change';
  }
  if (CHANGE_WORDS.test(main)) {
    if (/\bgrowth\b|\bgr[eo]w(?:n)?\b/.test(main) && !/\b(?:usd|dollars?|\$)\b|\$/.test(main))
      return 'percent_change';
    return percentAsked ? 'percent_change' : 'change';
  }
  // "Acquisitions, net of cash acquired" and "(net of cash acquired)" are how a filing prints a
  // row's own qualifier; "revenue net of returns" asks for a difference.
  if (/\bminus\b|\bless\b(?! than)|(?<![(,]\s?)\bnet of\b|\bsubtract/.test(main))
    return 'difference';
  if (/\bsum of\b|\bcombined\b|\bcumulative\b|\bin aggregate\b|\badded together\b/.test(main))
    return 'sum';
  // "in total over FY2017-FY2019", "total interest expense over 2018, 2019 and 2020",
  // "summed over fiscal years ...": a total over several named years is their sum.
  if (
    /\bsummed\b|\bin total\b|\btotal (?:[\w&'’,.-]+ ){0,6}(?:over|across)\b/.test(main) &&
    new Set(readPeriodCues(main).map((c) => c.year)).size >= 2
  )
    return 'sum';
  // An inline definition is checked against the delivered formula itself (answer-form.ts);
  // it does not change what kind of operation the question asks for: a figure the question
  // names and defines ("EBITDA, defined as A plus B") is that figure's level.
  void def;
  // "gross margin (in dollars)": the dollar figure a margin word can also name is printed as
  // such, not divided (the kind reader reads it as an amount by the same words).
  const marginInDollars =
    /\bin (?:us )?dollars\b|\bdollar (?:amount|value|figure)\b|\bas an amount\b/.test(whole) &&
    !percentAsked;
  if (
    /\bdivided by\b|\bratio\b|\bas an? (?:%|percent(?:age)?) of\b|\b(?:%|percent(?:age)?) of\b|\bturnover\b|\btimes\b|\brate\b|\byield\b|\breturn on\b|\bcoverage\b/.test(
      main,
    ) ||
    (/\bmargin\b/.test(main) && !marginInDollars)
  )
    return 'quotient';
  // "interest expense plus provision for income taxes": two figures added (and not divided:
  // "A plus B as a % of C" is a quotient, read above).
  if (/\bplus\b/.test(main)) return 'sum';
  // No operation cue at all: the question asks for a figure as it stands.
  return 'level';
}

interface PeriodCue {
  year: number;
  quarter: number | null;
  at: number;
}

/**
 * "The three months ended March 31, 2025", "the quarter ended …", "the six months ended …": an
 * interim period named by its end date. Which fiscal quarter or year it belongs to depends on
 * the filer's calendar, which this reader does not know: such a date names no period here.
 */
const INTERIM_BY_DATE =
  /\b(?:(?:three|six|nine|thirteen|twenty[- ]six|thirty[- ]nine|3|6|9|13|26|39)[- ](?:months?|weeks?)|quarter|quarterly period) (?:period )?end(?:ed|ing) [a-z]+\.? \d{1,2},? (?:19|20)\d{2}/g;

/**
 * The filing named as the source ("in Home Depot's 2024 annual report (10-K)", "its Q3 2025
 * Form 10-Q", "its 10-K for fiscal 2024") names the document, not the period asked about.
 */
const FILING_REF =
  /\b(?:(?:fiscal (?:year )?)?(?:q[1-4] )?(?:fy\s?)?(?:19|20)\d{2} )?(?:(?:annual|quarterly) report|form 10-[kq]|10-[kq])(?: ?\((?:form )?10-[kq]\))?(?: for (?:the )?(?:fiscal (?:year )?|fy\s?)?(?:19|20)\d{2})?/g;

/**
 * A year that ends in January, February or March ("the fiscal year ended February 2, 2025",
 * "the 53 weeks ended January 28, 2024") is usually called by the calendar year it began in
 * (the filer's fiscal 2024): which fiscal year the date closes depends on the filer's calendar,
 * which this reader does not know, so such a date names no fiscal year here.
 */
const EARLY_YEAR_END_BY_DATE =
  /\b(?:(?:fiscal )?year|(?:fifty[- ]two|fifty[- ]three|twelve|52|53|12)[- ](?:weeks?|months?)) (?:period )?end(?:ed|ing) (?:jan|feb|mar)[a-z]*\.? \d{1,2},? (?:19|20)\d{2}/g;

/**
 * A point in time off December ("accrued liabilities at July 29, 2023", "the cash ratio as of
 * May 31, 2019") is a year end for some filers and a quarter end inside the next fiscal year
 * for others: which fiscal period it falls in is the filer's calendar, which this reader does
 * not know, so a question with such a date names no period here. A year named by its end
 * ("the fiscal year ended September 28, 2024", "the 52 weeks ended August 29, 2021") still
 * does.
 */
const POINT_DATE_OFF_DECEMBER =
  /(?<!\b(?:year|weeks?|months?) (?:period )?end(?:ed|ing) )\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov)[a-z]*\.? \d{1,2},? (?:19|20)\d{2}\b/g;

/**
 * "Year-to-date through Q3 FY2025" is a part of fiscal 2025 that runs to the end of its third
 * quarter, not the third quarter alone: it is named by its fiscal year, as the fact path
 * labels a year-to-date period.
 */
const YEAR_TO_DATE =
  /\byear[- ]to[- ]date (?:through|to|as of|ended) (?:the )?(?:fiscal )?(?:q[1-4]|(?:first|second|third|fourth) quarter)(?: of)?\s*((?:fy\s?|fiscal (?:year )?)?'?(?:19|20)\d{2})\b/g;

const blank = (m: string) => ' '.repeat(m.length);

function readPeriodCues(text: string): PeriodCue[] {
  const main = text
    .replace(FILING_REF, blank)
    .replace(INTERIM_BY_DATE, blank)
    .replace(EARLY_YEAR_END_BY_DATE, blank)
    .replace(YEAR_TO_DATE, (m: string, year: string) => `${year}`.padEnd(m.length));
  const out: PeriodCue[] = [];
  const re =
    /\b(?:(q[1-4])|(first|second|third|fourth) quarter)?(?:\s*(?:of|in)?\s*)?(?:fy\s?|fiscal\s+(?:year\s+)?|the year\s+)?((?:19|20)\d{2})\b|\bfy\s?'?(\d{2})\b/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(main)) !== null) {
    const year = m[3] ? Number(m[3]) : 2000 + Number(m[4]);
    const quarter = m[1]
      ? Number(m[1].slice(1))
      : m[2]
        ? { first: 1, second: 2, third: 3, fourth: 4 }[m[2] as 'first']
        : null;
    out.push({ year, quarter, at: m.index });
  }
  return out;
}

function label(c: { year: number; quarter: number | null }): string {
  return c.quarter ? `Q${c.quarter} FY${c.year}` : `FY${c.year}`;
}

function readPeriods(
  main: string,
  op: Operation | null,
): { periods: string[] | null; periodCount: number | null } {
  // A point in time off December leaves the period to the filer's calendar (above), even
  // beside a quarter the question also names ("the end of Q3 2025 (June 28, 2025)").
  if (new RegExp(POINT_DATE_OFF_DECEMBER.source).test(main))
    return { periods: null, periodCount: null };
  const cues = readPeriodCues(main);
  const years = [...new Set(cues.map((c) => c.year))].sort((a, b) => a - b);
  const counted =
    /\b(\w+)[- ](?:fiscal[- ])?years?[- ](?:average|total|sum|period|cagr)\b|\b(?:average|total|sum) (?:over|of) (?:the )?(?:last |past )?(\w+) (?:fiscal )?years\b/.exec(
      main,
    );
  const n = count(counted?.[1] ?? counted?.[2]);
  if (cues.some((c) => c.quarter !== null)) {
    // Quarters: only a single quarter, or two named points of a change, are read.
    const labels = [...new Set(cues.map(label))];
    if (labels.length === 1 && (op === 'level' || op === 'quotient'))
      return { periods: labels, periodCount: 1 };
    return { periods: null, periodCount: null };
  }
  if (years.length === 0) return { periods: null, periodCount: n };
  const first = years[0]!;
  const last = years[years.length - 1]!;
  if (op === 'average' || op === 'sum') {
    // "FY2017 - FY2019", "between FY2017 and FY2019", "FY2017, FY2018 and FY2019": every year of the span.
    if (years.length === 1) return { periods: null, periodCount: n };
    const span = Array.from({ length: last - first + 1 }, (_, i) => `FY${first + i}`);
    return { periods: span, periodCount: n ?? span.length };
  }
  if (op === 'change' || op === 'percent_change' || op === 'cagr') {
    if (years.length < 2) return { periods: null, periodCount: null };
    return { periods: [`FY${first}`, `FY${last}`], periodCount: 2 };
  }
  if (years.length === 1) return { periods: [`FY${first}`], periodCount: 1 };
  return { periods: null, periodCount: null };
}

function readCurrency(main: string, kind: QuantityKind | null): string | null {
  if (kind !== 'currency_amount' && kind !== 'per_share') return null;
  if (/\busd\b|\$|\bus dollars?\b|\bdollars?\b/.test(main)) return 'USD';
  return null;
}

/** The cue reader's asked form for a question. */
export function readAskedFormByCues(question: string): AnswerForm {
  const whole = tokenize(question);
  const { main, definitionText } = splitDefinition(whole);
  const definition = readDefinitionOverParts(whole) ?? readDefinition(definitionText);
  let kind = readKind(main, whole);
  // "X defined as A divided by B" with no unit cue: a quotient of two amounts is a ratio.
  // A percent asked after the definition ("calculate it as A divided by B, in percent") too.
  if (kind === 'currency_amount' && definition?.operator === '/')
    kind = /%|percent/.test(whole) ? 'percent' : 'ratio';
  // A quotient the question defines is a percent only when the question says percent; a
  // name such as "return on assets" or "margin" does not outweigh the definition.
  const percentSaid = /%|\bpercent(?:s|age)?\b|\bper cent\b/.test(whole);
  if (definition?.operator === '/' && (kind === null || kind === 'percent'))
    kind = percentSaid ? 'percent' : 'ratio';
  let op = readOperation(main, whole, definition);
  // "Did the gross margin percentage fall from 2021 to 2022?" compares the two values: the
  // answer is yes or no, not a percent change.
  if (kind === 'yes_no' && op === 'percent_change') op = 'change';
  // "Was operating income lower in Q2 2023 than in Q2 2022?", "did R&D in 2023 exceed its 2022
  // R&D?": one figure compared between two years is a change, however it is worded.
  if (
    kind === 'yes_no' &&
    (op === 'level' || op === 'quotient') &&
    /\b(?:higher|lower|greater|smaller|larger|more|less|exceed(?:ed|s)?)\b/.test(main) &&
    new Set(main.match(/\b(?:19|20)\d{2}\b/g) ?? []).size >= 2
  )
    op = 'change';
  if (op === 'percent_change' || op === 'cagr') kind = 'percent';
  const { periods, periodCount } = readPeriods(main, op);
  const scale = readScale(whole);
  return {
    kind,
    scale: kind === 'currency_amount' || kind === 'count' || kind === null ? scale : null,
    currency: readCurrency(whole, kind),
    rounding: readRounding(whole),
    periods,
    periodCount,
    operation: canonicalOperation(kind, op),
    definition,
  };
}
