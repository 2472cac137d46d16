/**
 * The word lists of the label agreement check (label-agreement.ts): the accounting synonym
 * groups, the words that never change the line item, and the stop words, prepositions,
 * auxiliaries and verbs that bound the asked noun phrase. Pure data, workflow-safe.
 */
/**
 * Accounting synonyms: words that name the same thing in questions and row labels. Each
 * group is symmetric; a qualifier is supported when the label has any word of its group.
 */
export const LABEL_SYNONYMS: readonly (readonly string[])[] = [
  ['shareholder', 'stockholder', 'shareowner', 'owner'],
  ['available', 'attributable', 'applicable'],
  ['paid', 'payment', 'pay'],
  ['received', 'receipt', 'proceed'],
  ['purchase', 'acquisition', 'addition', 'expenditure', 'investment'],
  ['repurchase', 'buyback'],
  ['sale', 'revenue'],
  ['earning', 'income', 'profit'],
  ['expense', 'cost', 'charge', 'provision'],
  ['tax', 'taxation'],
  ['product', 'merchandise', 'good'],
  ['service', 'service'],
  ['sg', 'selling', 'administrative', 'sga'],
  ['r', 'research', 'rd'],
];

/**
 * Words that never change which line item is meant: a question may add them freely. "net"
 * is here because catalog labels differ on it ("revenues" / "net revenues") for the same line.
 */
export const NEUTRAL_WORDS: ReadonlySet<string> = new Set([
  'total',
  'amount',
  'value',
  'figure',
  'number',
  'reported',
  'recorded',
  'stated',
  'consolidated',
  'net',
  'gaap',
  'overall',
  'annual',
  'yearly',
  'full',
  'fiscal',
  'year',
  'quarter',
  'quarterly',
  'period',
  'ended',
  'ending',
  'end',
  'usd',
  'dollar',
  'million',
  'billion',
  'thousand',
  'percent',
  'percentage',
  'approximate',
  'approximately',
  'company',
  'firm',
  'entire',
  'respective',
  'actual',
  'unadjusted',
  'level',
  'balance',
  'absolute',
  'change',
  'growth',
  'increase',
  'decrease',
  'average',
  'sum',
  'combined',
  'cumulative',
  'changed',
  'averaged',
  'increased',
  'decreased',
  'grew',
  'declined',
  'across',
  'recognized',
  'recognised',
  'incurred',
  'realized',
  'disclosed',
  'shown',
  'presented',
  'listed',
  'included',
  'compound',
  'compounded',
  'cagr',
  'spend',
  'spent',
  'spending',
  'aggregate',
  'yoy',
  'over',
  'ratio',
  'rate',
]);

/** Words that end a noun phrase walking left from the head. */
export const LEFT_STOPS: ReadonlySet<string> = new Set([
  'what',
  'which',
  'how',
  'much',
  'many',
  'was',
  'were',
  'is',
  'are',
  'be',
  'been',
  'did',
  'does',
  'do',
  'the',
  'a',
  'an',
  'its',
  'their',
  'this',
  'that',
  'in',
  'on',
  'at',
  'by',
  'during',
  'between',
  'and',
  'or',
  'calculate',
  'compute',
  'find',
  'give',
  'report',
  'state',
  'provide',
  'show',
  'using',
  'use',
  'based',
  'as',
  'per',
  'with',
]);
/** Prepositions that join a left qualifier to the head ("cash paid for income taxes"). */
export const LEFT_JOINS: ReadonlySet<string> = new Set(['for', 'of', 'from', 'to', 'on']);
/** Prepositions that open a qualifying complement to the right of the head. */
export const RIGHT_OPENERS: ReadonlySet<string> = new Set([
  'from',
  'of',
  'for',
  'in',
  'within',
  'attributable',
  'available',
  'applicable',
  'generated',
  'at',
]);
/** A right complement naming one of these is the source or the period, not the line item. */
export const SOURCE_WORDS: ReadonlySet<string> = new Set([
  'statement',
  'sheet',
  'note',
  'table',
  'report',
  'filing',
  'disclosure',
  'year',
  'quarter',
  'period',
  'fiscal',
  'company',
  'business',
  'firm',
  'total',
  'fy',
  'month',
  'week',
  'close',
  'closing',
  'end',
  'beginning',
  'start',
  'opening',
  'date',
  'day',
]);
export const RIGHT_SKIP: ReadonlySet<string> = new Set([
  'the',
  'its',
  'their',
  'to',
  'by',
  'a',
  'an',
]);

/** Counts, ordinals and month names: period words, never a line item's qualifier. */
export const NUMBER_WORDS: ReadonlySet<string> = new Set(
  (
    'one two three four five six seven eight nine ten first second third fourth fifth ' +
    'january february march april may june july august september october november december ' +
    'jan feb mar apr jun jul aug sep sept oct nov dec'
  ).split(' '),
);

/**
 * The arithmetic a definition is written in ("A plus B", "A less B", "A divided by B", "did A
 * exceed B"): words that join two operands. Where extraction computed from several rows, they
 * end an operand's noun phrase and never qualify it.
 */
export const OPERATOR_WORDS: ReadonlySet<string> = new Set([
  'plus',
  'less',
  'minus',
  'times',
  'divided',
  'multiplied',
  'exceed',
  'exceeds',
  'exceeded',
]);

/** "What share of X was Y": the word names the quotient asked, not a qualifier of X or Y. */
export const QUOTIENT_NOUNS: ReadonlySet<string> = new Set([
  'share',
  'proportion',
  'fraction',
  'portion',
]);

/** Auxiliaries that open the question's own clause: "how much revenue did X generate". */
export const CLAUSE_AUX: ReadonlySet<string> = new Set(['did', 'does', 'do']);
/** Auxiliaries that end the asked noun phrase after "what" ("what severance charges did"). */
export const WH_END: ReadonlySet<string> = new Set([
  ...CLAUSE_AUX,
  'was',
  'were',
  'is',
  'are',
  'has',
  'have',
  'had',
  'will',
  'would',
  'can',
  'could',
]);
export const DETERMINERS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'its', 'their', 'this']);
/** Verbs that make the asked figure a cash payment ("how much did X pay in income taxes"). */
export const PAY_VERBS: ReadonlySet<string> = new Set([
  'pay',
  'paid',
  'pays',
  'paying',
  'remit',
  'remitted',
]);

export const PARTICLES: ReadonlySet<string> = new Set(['over', 'up', 'out', 'down', 'off', 'back']);
/** A pronoun subject ("did it sell") stands for the filer the question already named. */
export const PRONOUNS: ReadonlySet<string> = new Set(['it', 'they', 'we', 'he', 'she', 'you']);

/** Verbs saying where a figure comes from: "came from X" qualifies like "from X". */
export const ORIGIN_VERBS: ReadonlySet<string> = new Set([
  'came',
  'come',
  'comes',
  'coming',
  'derived',
  'generated',
  'earned',
  'originating',
  'arising',
]);

/**
 * Rows that are payments by nature, so a pay verb needs no "paid" on them ("Repurchases of
 * common stock", "Capital expenditures"). Not "investment" or "acquisition": "Investment
 * income" and "Acquisition-related costs" are no payments.
 */
export const PAYMENT_ROWS: ReadonlySet<string> = new Set([
  'purchase',
  'repurchase',
  'buyback',
  'expenditure',
]);
