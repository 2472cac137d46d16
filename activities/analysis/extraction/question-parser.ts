import { z } from 'zod';
import { AggregateSchema, getFormula, unitOfResultKind, type Aggregate } from './formula-catalog';
import { METRICS, StatementKindSchema } from './metric-catalog';
import { parseRequestedScale, ScaleSchema } from './scale';
import { quarterNamed, readPeriodWords } from './period-words';
import { PeriodSchema, type Period } from './statement-table';
import { NUMBER_WORDS, askedRounding } from './asked-rounding';
import { statesChange } from './change-verbs';

export const RequestedUnitSchema = z.enum([
  'USD',
  'percent',
  'ratio',
  'days',
  'shares',
  'USD/share',
]);
export type RequestedUnit = z.infer<typeof RequestedUnitSchema>;

export const ParsedQuestionSchema = z.object({
  kind: z.enum(['metric', 'formula', 'unsupported']),
  metric: z.string().optional(),
  formula: z.string().optional(),
  aggregate: AggregateSchema,
  period: PeriodSchema.optional(),
  requestedScale: ScaleSchema.optional(),
  unit: RequestedUnitSchema.optional(),
  /** Decimal places the question asks for. */
  rounding: z.number().int().min(0).max(10).optional(),
  preferStatement: StatementKindSchema.optional(),
  confidence: z.number().min(0).max(1),
  reason: z.string(),
});
export type ParsedQuestion = z.infer<typeof ParsedQuestionSchema>;

function num(w: string): number | undefined {
  return /^\d+$/.test(w) ? Number(w) : NUMBER_WORDS[w.toLowerCase()];
}

interface FormulaPhrase {
  re: RegExp;
  /** Candidates in order; the question's own definition picks among them. */
  ids: readonly string[];
  /** Confidence that the catalog formula is the one meant when no definition is given. */
  undefinedConfidence: number;
}

// Ordered: more specific phrases first ("fixed asset turnover" before "asset turnover").
const FORMULA_PHRASES: readonly FormulaPhrase[] = [
  { re: /fixed[- ]asset turnover/, ids: ['fixed_asset_turnover'], undefinedConfidence: 0.9 },
  {
    re: /inventory turnover|sold (?:its|their) inventory|times .* inventory/,
    ids: ['inventory_turnover'],
    undefinedConfidence: 0.9,
  },
  { re: /receivables? turnover/, ids: ['receivables_turnover'], undefinedConfidence: 0.85 },
  { re: /(?:total )?asset turnover/, ids: ['asset_turnover'], undefinedConfidence: 0.9 },
  {
    re: /days payables? outstanding|\bdpo\b/,
    ids: ['days_payable_outstanding', 'days_payable_outstanding_purchases'],
    undefinedConfidence: 0.8,
  },
  {
    re: /days sales outstanding|\bdso\b/,
    ids: ['days_sales_outstanding'],
    undefinedConfidence: 0.8,
  },
  {
    re: /days inventory outstanding|\bdio\b|days in inventory|days of inventory/,
    ids: ['days_inventory_outstanding'],
    undefinedConfidence: 0.8,
  },
  { re: /working capital/, ids: ['working_capital'], undefinedConfidence: 0.9 },
  { re: /current ratio/, ids: ['current_ratio'], undefinedConfidence: 0.9 },
  { re: /quick ratio|acid[- ]test/, ids: ['quick_ratio'], undefinedConfidence: 0.75 },
  {
    re: /(?:capex|capital expenditures?)\s*(?:as a\s*)?(?:%|percent(?:age)?)\s*(?:of)?\s*(?:total\s+)?(?:revenue|sales)|(?:capex|capital expenditures?)\s*(?:to|\/)\s*(?:revenue|sales)/,
    ids: ['capex_pct_revenue'],
    undefinedConfidence: 0.9,
  },
  {
    re: /(?:cost of goods sold|cogs|cost of sales|cost of revenue)\s*(?:as a\s*)?(?:%|percent(?:age)?)\s*(?:of)?\s*(?:total\s+)?(?:revenue|sales)|(?:cogs|cost of goods sold)\s*%\s*margin/,
    ids: ['cogs_pct_revenue'],
    undefinedConfidence: 0.9,
  },
  { re: /ebitda\s*(?:%\s*)?margin/, ids: ['ebitda_margin'], undefinedConfidence: 0.85 },
  { re: /\bebitda\b/, ids: ['ebitda'], undefinedConfidence: 0.85 },
  { re: /gross (?:profit )?(?:%\s*)?margin/, ids: ['gross_margin'], undefinedConfidence: 0.9 },
  {
    re: /operating (?:income |profit )?(?:%\s*)?margin/,
    ids: ['operating_margin'],
    undefinedConfidence: 0.9,
  },
  {
    re: /net (?:profit |income |earnings )?(?:%\s*)?margin|(?:^|\s)profit margin/,
    ids: ['net_margin'],
    undefinedConfidence: 0.9,
  },
  { re: /effective (?:income )?tax rate/, ids: ['effective_tax_rate'], undefinedConfidence: 0.9 },
  { re: /(?:dividend )?payout ratio/, ids: ['dividend_payout_ratio'], undefinedConfidence: 0.85 },
  {
    re: /debt[- ]to[- ]equity|debt\s*\/\s*equity/,
    ids: ['debt_to_equity'],
    undefinedConfidence: 0.7,
  },
  {
    re: /return on (?:total )?assets|\broa\b/,
    ids: ['return_on_assets'],
    undefinedConfidence: 0.75,
  },
  {
    re: /return on (?:shareholders'? |stockholders'? )?equity|\broe\b/,
    ids: ['return_on_equity'],
    undefinedConfidence: 0.75,
  },
  { re: /free cash flow|\bfcf\b/, ids: ['free_cash_flow'], undefinedConfidence: 0.85 },
];

/**
 * A printed label of three words or more names its line item as exactly as any question
 * phrase ("diluted earnings per common share", "purchases of property and equipment"); the
 * shorter ones ("cash", "sales", "dividends") are too general to name a metric on their own.
 */
const namingLabels = (m: (typeof METRICS)[number]) =>
  m.labels.filter((l) => !l.endsWith('*') && l.split(' ').length >= 3);

// Phrases for single metrics, longest first so "total current assets" beats "total assets".
const METRIC_PHRASES: readonly { phrase: string; metric: string }[] = METRICS.flatMap((m) =>
  [...new Set([...m.questionPhrases, m.name, ...namingLabels(m)].map((p) => p.toLowerCase()))].map(
    (phrase) => ({ phrase, metric: m.id }),
  ),
).sort((a, b) => b.phrase.length - a.phrase.length);

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function findMetrics(text: string): string[] {
  const found: string[] = [];
  let rest = text;
  for (const { phrase, metric } of METRIC_PHRASES) {
    const re = new RegExp(`(?:^|[^a-z&])${escapeRe(phrase)}(?:$|[^a-z&])`);
    if (re.test(rest)) {
      if (!found.includes(metric)) found.push(metric);
      rest = rest.replace(new RegExp(escapeRe(phrase), 'g'), ' ');
    }
  }
  return found;
}

function fiscalYears(text: string): number[] {
  const out: number[] = [];
  const re = /\b(?:fy\s?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\b|\bfy\s?'?(\d{2})\b/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const y = m[1] ? Number(m[1]) : 2000 + Number(m[2]);
    out.push(y);
  }
  return out;
}

/** A year that dates a document: "2022 annual report", "FY2019 income statement", "2022 10-K". */
const DOCUMENT_YEAR =
  /\b(?:fy\s?|fiscal (?:year )?)?(?:19|20)\d{2} (?:annual report|form 10-k|10-k|10-q|quarterly report|income statement|balance sheet|cash flow statement|(?:consolidated )?(?:financial )?statements?(?: of [a-z]+(?: [a-z]+)?)?)\b/g;

function yearSpan(text: string): { startYear: number; endYear: number } | null {
  const re =
    /(?:fy\s?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\s*(?:-|–|—|to|through|thru|and|until|vs\.?|versus)\s*(?:the\s+)?(?:fy\s?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})/i;
  const m = re.exec(text);
  if (!m) return null;
  let a = Number(m[1]);
  const b = Number(m[2]);
  // "fiscal years 2017, 2018 and 2019": the pair matched is the list's last two. The years
  // listed before it, each the year before the next, start the span.
  let before = text.slice(0, m.index);
  for (;;) {
    const prev = LISTED_BEFORE.exec(before);
    if (!prev || Number(prev[1]) !== Math.min(a, b) - 1 || a > b) break;
    a = Number(prev[1]);
    before = before.slice(0, prev.index);
  }
  return a < b ? { startYear: a, endYear: b } : { startYear: b, endYear: a };
}

/** A year listed right before another: "2017, " of "2017, 2018 and 2019". */
const LISTED_BEFORE = /(?:fy\s?|fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\s*,\s*$/i;

function statementPreference(text: string): z.infer<typeof StatementKindSchema> | undefined {
  const mentions = new Set<string>();
  if (/cash flows? statement|statement of cash flows?|cash flow statement/.test(text))
    mentions.add('cash_flow');
  if (/balance sheet|statement of financial position|financial condition/.test(text))
    mentions.add('balance');
  if (
    /income statement|statement of income|statement of operations|p&l|profit and loss|statement of earnings/.test(
      text,
    )
  )
    mentions.add('income');
  if (mentions.size !== 1) return undefined;
  return [...mentions][0] as z.infer<typeof StatementKindSchema>;
}

const UNSUPPORTED_AUX = /^(?:is|are|was|were|does|do|did|has|have|can|could|should|will|would)\b/;
const NON_GAAP =
  /(?<!un)adjusted|non[- ]gaap|pro forma|organic|constant currency|excluding|segment|per employee|per store|same[- ]store|comparable sales|guidance|outlook|expected/;

/**
 * A part of a total, not the total the catalog reads: discontinued operations, minority
 * interests, a region, a product or service line. Such figures need a person (or a segment
 * table reader we do not have), never the consolidated line.
 */
const PART_OF_TOTAL =
  /\bdiscontinued\b|\bnon-?controlling\b|\bminority interests?\b|\b(?:in|from|for) (?:the )?(?:europe|asia|americas|north america|latin america|china|greater china|japan|emea|apac|international|domestic|u\.s\.|united states)\b|\b(?:europe|asia|emea|apac|americas|international|domestic|product|products|service|services|subscription|licen[cs]e|hardware|software|wholesale|retail|online|digital) (?:revenues?|sales)\b|\b(?:revenues?|sales) (?:from|by) (?!(?:the )?(?:company|firm|fy|fiscal|year|quarter|operations|\d))/;

/**
 * The question states its answer in currency: "in USD millions", "Answer in USD", "(in
 * dollars)", "in millions of dollars", "how many dollars", "in $".
 */
function asksCurrencyAmount(q: string): boolean {
  return (
    /\b(?:in|answer in)\s+(?:usd|us\$|u\.s\. dollars|dollars)\b/.test(q) ||
    /(?:^|\s)in\s+\$/.test(q) ||
    /\busd\s+(?:thousands|millions|billions)\b/.test(q) ||
    /\b(?:thousands|millions|billions) of (?:usd|dollars|u\.s\. dollars)\b/.test(q) ||
    /\bhow many dollars\b/.test(q)
  );
}

function unsupported(reason: string): ParsedQuestion {
  return { kind: 'unsupported', aggregate: { kind: 'single' }, confidence: 0, reason };
}

/**
 * Map a question to a catalog metric or formula, a period and a requested unit, with
 * regular rules only. Anything it cannot map with confidence is 'unsupported': that sends
 * the question to a person, which is the right outcome for an unclear request.
 */
export function parseQuestion(question: string): ParsedQuestion {
  const parsed = parseQuestionForm(question);
  // The precision asked is read even when the rest is not mapped: the question's own
  // definition path answers it, and the gate compares it.
  if (parsed.rounding !== undefined) return parsed;
  const dp = askedRounding(question);
  return dp === null ? parsed : { ...parsed, rounding: dp };
}

function parseQuestionForm(question: string): ParsedQuestion {
  const text = question.toLowerCase().replace(/[’‘]/g, "'").replace(/\s+/g, ' ').trim();
  const defIdx = text.search(/\b(?:is|are)?\s*defined as\b|\bdefine [^.?]* as\b|\bdefinition\b/);
  const main = defIdx >= 0 ? text.slice(0, defIdx) : text;
  const definition =
    defIdx >= 0
      ? (text
          .slice(defIdx)
          .split(/(?<=\.)\s(?=round|answer|base|provide|respond|calculate|using)/)[0] ?? '')
      : '';
  const firstSentence = main.split(/\?\s/)[0] ?? main;
  if (UNSUPPORTED_AUX.test(text) && !/\b(?:calculate|compute)\b/.test(text)) {
    return unsupported('yes/no or qualitative question');
  }
  if (
    /^(?:what|which) (?:drove|are the|were the|is the reason|caused|factors)|\bwhy\b|\bexplain\b|\bdescribe\b|\bsummar/.test(
      firstSentence,
    ) &&
    !/\b(?:calculate|compute)\b/.test(text)
  ) {
    return unsupported('qualitative question');
  }
  if (
    /^which\b|\bamong\b|\bcompare|\blargest\b|\bsmallest\b|\bhighest\b|\blowest\b|\bmost\b/.test(
      firstSentence,
    )
  ) {
    return unsupported('comparison or ranking question');
  }
  if (NON_GAAP.test(main)) return unsupported('non-GAAP, segment or forward-looking figure');
  const part = PART_OF_TOTAL.exec(main);
  if (part)
    return unsupported(`"${part[0].trim()}": a part of a total, not the consolidated figure`);
  // "EBITDA less capex", "net income plus D&A": an arithmetic on top of the named figure that
  // the catalog does not compute (a question's own definition may use these words freely).
  // Only the question itself: instructions after it ("use a minus sign for a decline") are
  // not arithmetic on the figure.
  const compound = /\b(?:less|minus|plus|net of|after deducting|excluding)\b(?! than)/.exec(
    main.replace(/\?.*$/, ''),
  );
  if (compound)
    return unsupported(`"${compound[0]}" combines figures beyond the catalog's formulas`);

  const requestedScale = parseRequestedScale(text) ?? undefined;
  const roundingDp = askedRounding(text) ?? undefined;
  const preferStatement = statementPreference(text);
  // "as shown in the FY2019 income statement", "in its 2020 annual report": a year that dates
  // the document is not the period asked, when the question names another one.
  const withoutDocumentYears = main.replace(DOCUMENT_YEAR, ' ');
  const periodText = fiscalYears(withoutDocumentYears).length > 0 ? withoutDocumentYears : main;
  const span = yearSpan(periodText);
  const years = fiscalYears(periodText);
  const quarter = quarterNamed(main);

  // Formula?
  let formulaId: string | undefined;
  let conf = 0.95;
  const fp = FORMULA_PHRASES.find((p) => p.re.test(main));
  if (fp) {
    if (definition) {
      const ok = fp.ids.find((id) => {
        const f = getFormula(id)!;
        if (f.definitionMustMention && !f.definitionMustMention.every((re) => re.test(definition)))
          return false;
        if (f.definitionMustNotMention?.some((re) => re.test(definition))) return false;
        if (f.usesAverage !== /\baverage\b|\bavg\b|\bmean\b/.test(definition)) return false;
        return true;
      });
      if (!ok)
        return unsupported(
          `the question's definition of ${getFormula(fp.ids[0]!)!.name} differs from the catalog formula`,
        );
      formulaId = ok;
      conf = 0.97;
    } else {
      formulaId = fp.ids[0];
      conf = fp.undefinedConfidence;
    }
  }

  let aggregate: Aggregate = { kind: 'single' };
  if (/\bcagr\b|compound(?:ed)? annual growth/.test(main)) {
    if (!span) return unsupported('CAGR without a start and end year');
    aggregate = { kind: 'cagr', ...span };
  } else if (
    /\baverage\b|\bmean\b/.test(main) &&
    span &&
    !/average (?:pp&?e|inventor|total assets|assets|equity|receivable|payable)/.test(main)
  ) {
    const n = /(\w+)[- ]year average/.exec(main);
    const count = n ? num(n[1]!) : undefined;
    if (count !== undefined && count !== span.endYear - span.startYear + 1)
      return unsupported('year count and span disagree');
    aggregate = { kind: 'average', ...span };
  } else if (
    /\bchanged?\b|\bdifference\b/.test(main) &&
    span &&
    !formulaId?.startsWith('working')
  ) {
    aggregate = { kind: 'change', ...span };
  } else if (/\bgrowth\b|year[- ]over[- ]year|\byoy\b/.test(main) || statesChange(main)) {
    // "rise", "fall", "decline" between two years are growth as much as "increase" is (the
    // yes/no reader's vocabulary, change-verbs.ts). Without the two years, only a rate word
    // implies last year against the year before.
    const rateWord =
      /\bgrowth\b|\bgrow\b|\bgrew\b|\bincrease\b|\bdecrease\b|year[- ]over[- ]year|\byoy\b/;
    if (span) aggregate = { kind: 'growth', ...span };
    else if (!rateWord.test(main)) return unsupported('a change without the two periods it spans');
    else if (years.length >= 1) {
      const y = Math.max(...years);
      aggregate = { kind: 'growth', startYear: y - 1, endYear: y };
    } else return unsupported('growth without a year');
  }

  let metricId: string | undefined;
  // A question that defines its own computation must map to a catalog formula: answering it
  // with the plain figure it mentions ("cash from operations / current liabilities") is wrong.
  if (!formulaId && definition)
    return unsupported('the question defines a computation the catalog does not have');
  if (!formulaId) {
    const ms = findMetrics(main.replace(/\(in [^)]*\)/g, ' '));
    if (ms.length === 0) return unsupported('no catalog metric or formula named in the question');
    if (ms.length > 1) return unsupported(`question names several metrics (${ms.join(', ')})`);
    metricId = ms[0];
    // "operating cash flow ratio": a ratio built on the figure, not the figure itself.
    const isRatioMetric = METRICS.find((x) => x.id === metricId)?.kind === 'ratio_percent';
    if (
      !isRatioMetric &&
      /\bratio\b|\bturnover\b|\bcoverage\b|\bmargin\b|\byield\b|\bmultiple\b/.test(main)
    )
      return unsupported('asks for a ratio the catalog does not compute');
    // "weighted average shares" is a line item, not an average of two balances.
    if (/(?<!weighted[- ])\baverage\b/.test(main) && aggregate.kind === 'single')
      aggregate = { kind: 'average_balance' };
    conf = 0.95;
  }

  // The answer's stated unit: "how much did X increase from A to B, in USD millions" asks for
  // the dollar difference, not a growth rate; a margin "in dollars" is the printed line, not the
  // catalog's ratio (the question's own wording of the answer, never the metric's usual form).
  const currencyAsked = asksCurrencyAmount(main) && !/\bpercent|%|per cent|\bratio\b/.test(main);
  if (
    currencyAsked &&
    aggregate.kind === 'growth' &&
    span &&
    statesChange(main) &&
    !/\bgrowth\b|\bgrew\b|year[- ]over[- ]year|\byoy\b|\brate\b/.test(main)
  )
    aggregate = { kind: 'change', startYear: span.startYear, endYear: span.endYear };
  if (currencyAsked && formulaId && getFormula(formulaId)!.resultKind !== 'money')
    return unsupported(
      `asks a currency amount; the catalog's ${getFormula(formulaId)!.name} is a ${getFormula(formulaId)!.resultKind}`,
    );

  // "By how much did revenue change … in percent?" asks for growth, not a dollar difference;
  // for a ratio, "percentage change" could mean points or relative change: a person decides.
  const metricKind = metricId ? METRICS.find((x) => x.id === metricId)?.kind : undefined;
  const resultIsRatio = formulaId
    ? getFormula(formulaId)!.resultKind !== 'money'
    : metricKind === 'ratio_percent';
  // "in units of percents" asks for percent as much as "in percent" does.
  if (aggregate.kind === 'change' && /\bpercent(?:s|age)?\b|\bper cent\b|%/.test(main)) {
    if (!resultIsRatio)
      aggregate = { kind: 'growth', startYear: aggregate.startYear, endYear: aggregate.endYear };
    else if (/\b(?:percent(?:age)?|%) change\b/.test(main))
      return unsupported(
        '"percentage change" of a ratio is ambiguous: percentage points or relative change',
      );
  }
  // What the catalog excludes from a metric's rows it excludes from the question too: "dividends
  // declared but not yet paid" is not dividends paid, "net income including noncontrolling
  // interests" not the company's net income. Words of the question only: no anchored pattern.
  const excludedBy = metricId
    ? METRICS.find((x) => x.id === metricId)
        ?.exclude?.filter((re) => !re.source.startsWith('^'))
        .map((re) => re.exec(main.replace(/[^a-z0-9%&$ ]+/g, ' ').replace(/\s+/g, ' ')))
        .find((m) => m !== null)
    : null;
  if (excludedBy)
    return unsupported(
      `"${excludedBy[0]}": the question asks for what the catalog's ${metricId} excludes`,
    );
  // "How much did X pay in income taxes / for interest" asks for cash paid, which the
  // statement of cash flows (or its supplemental disclosure) prints; the income statement's
  // expense is another figure. The question's own line item is read instead (line-item.ts).
  const metricDef = metricId ? METRICS.find((x) => x.id === metricId) : undefined;
  if (
    metricDef?.kind === 'money' &&
    metricDef.statement !== 'cash_flow' &&
    /\b(?:pay|pays|paid|payments?)\b/.test(main)
  )
    return unsupported(
      `an amount paid: the cash the filing reports as paid, not the catalog's ${metricDef.name}`,
    );
  // A figure "per share / per store / per employee" is not the catalog total it names.
  const perUnit =
    /\bper (?:share|employee|store|square (?:foot|feet)|sq\.? ?ft|customer|member|unit|subscriber)\b/.exec(
      main,
    );
  if (perUnit && metricKind !== 'per_share' && !(formulaId && /per_share|eps/.test(formulaId))) {
    return unsupported(
      `"${perUnit[0]}" figure: not the catalog total ${metricId ?? formulaId ?? ''}`.trim(),
    );
  }

  let period: Period | undefined;
  // A flow over a span a 10-Q prints (three, six, nine months), named by its end date or as a
  // year to date ("first six months of fiscal 2024"): the column of that date and span.
  const words = readPeriodWords(main);
  const interimSpan = words.months === 3 || words.months === 6 || words.months === 9;
  const dated = words.dates.length === 1 && interimSpan ? words.dates[0]! : null;
  if (aggregate.kind === 'single' && (dated || words.months === 6 || words.months === 9)) {
    const months = words.months as 3 | 6 | 9;
    if (quarter && months !== 3)
      return unsupported(`a quarter and a ${months}-month period in one question`);
    if (words.dates.length > 1) return unsupported('several dates for a single-period figure');
    const stated = [
      ...new Set(
        fiscalYears(dated ? withoutDocumentYears.replace(dated.raw, ' ') : withoutDocumentYears),
      ),
    ];
    if (stated.length > 1)
      return unsupported(`several years (${stated.join(', ')}) for a single-period figure`);
    if (dated) {
      period = {
        fiscalYear: stated[0] ?? dated.year,
        months,
        endDate: { year: dated.year, month: dated.month, day: dated.day },
        ...(stated.length > 0 ? { fiscalYearStated: true } : {}),
        ...(quarter ? { quarter } : {}),
      };
    } else {
      if (stated.length === 0) return unsupported('no fiscal year in the question');
      period = { fiscalYear: stated[0]!, months };
    }
  } else if (aggregate.kind === 'single' || aggregate.kind === 'average_balance') {
    if (years.length === 0) return unsupported('no fiscal year in the question');
    const distinct = [...new Set(years)];
    if (distinct.length > 1 && aggregate.kind === 'single' && !span) {
      return unsupported(`several years (${distinct.join(', ')}) for a single-period figure`);
    }
    const fy = span ? span.endYear : distinct[distinct.length - 1]!;
    period = { fiscalYear: fy };
    if (quarter) period = { fiscalYear: fy, quarter };
  } else {
    period = { fiscalYear: aggregate.endYear };
    if (quarter) return unsupported('multi-period quarterly figures are not supported');
  }

  let unit: RequestedUnit | undefined;
  if (formulaId) {
    const f = getFormula(formulaId)!;
    unit = unitOfResultKind(f.resultKind);
  } else if (metricId) {
    const m = METRICS.find((x) => x.id === metricId)!;
    unit =
      m.kind === 'money'
        ? 'USD'
        : m.kind === 'ratio_percent'
          ? 'percent'
          : m.kind === 'count'
            ? 'shares'
            : 'USD/share';
  }
  if (aggregate.kind === 'cagr' || aggregate.kind === 'growth') unit = 'percent';
  // "payout ratio", "return on assets" asked without "percent" are decimal ratios (0.28), the
  // way such questions state them; margins and rates stay percentages.
  if (
    unit === 'percent' &&
    formulaId &&
    /ratio|^return_on/.test(formulaId) &&
    !/\bpercent|%|per cent/.test(text)
  )
    unit = 'ratio';

  return {
    kind: formulaId ? 'formula' : 'metric',
    metric: metricId,
    formula: formulaId,
    aggregate,
    period,
    requestedScale,
    unit,
    rounding: roundingDp,
    preferStatement: formulaId ? undefined : preferStatement,
    confidence: conf,
    reason: formulaId ? `formula ${formulaId}` : `metric ${metricId}`,
  };
}
