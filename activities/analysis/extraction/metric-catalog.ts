import { z } from 'zod';

export const MetricKindSchema = z.enum(['money', 'ratio_percent', 'count', 'per_share']);
export type MetricKind = z.infer<typeof MetricKindSchema>;

export const StatementKindSchema = z.enum(['income', 'balance', 'cash_flow', 'capital', 'any']);
export type StatementKind = z.infer<typeof StatementKindSchema>;

export interface MetricDefinition {
  id: string;
  name: string;
  kind: MetricKind;
  statement: StatementKind;
  /**
   * Normalized line-item names, most specific first. A name ending in " *" matches any
   * continuation ("net income attributable to *" covers whatever the company is called).
   */
  labels: readonly string[];
  /** Labels that start like a synonym but mean something else. */
  exclude?: readonly RegExp[];
  /**
   * 'outflow' metrics are printed in parentheses on the cash-flow statement (capex,
   * dividends, buybacks) or as negative costs by some issuers: the amount is the magnitude.
   * 'expense' lines (income tax) may be a benefit: a row printed all in parentheses is the
   * issuer's presentation of an expense, a lone negative among positives is a benefit.
   */
  sign: 'as_printed' | 'magnitude' | 'expense';
  /** Balance-sheet items are point-in-time; flow items cover a period. */
  instant: boolean;
  /** Plausible range in units of the metric (USD, percent...), after the sign rule. */
  plausible: { min?: string; max?: string };
  /** Phrases a question uses for this metric (lower case), besides the labels. */
  questionPhrases: readonly string[];
}

const NON_NEG = { min: '0' } as const;

export const METRICS: readonly MetricDefinition[] = [
  {
    id: 'revenue',
    name: 'Revenue',
    kind: 'money',
    statement: 'income',
    labels: [
      'total net revenues',
      'total net revenue',
      'total net sales and revenues',
      'total revenues net of interest expense',
      'total revenues',
      'total revenue',
      'total net sales',
      'total sales',
      'net revenues',
      'net revenue',
      'net sales',
      'net operating revenues',
      'revenues',
      'revenue',
      'sales to customers',
      'sales',
    ],
    exclude: [/cost of/, /per share/, /deferred/, /unearned/],
    sign: 'as_printed',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: [
      'total revenue',
      'revenues',
      'revenue',
      'net sales',
      'total sales',
      'top line',
      'sales',
    ],
  },
  {
    id: 'cost_of_revenue',
    name: 'Cost of revenue',
    kind: 'money',
    statement: 'income',
    labels: [
      'total cost of revenues',
      'total cost of revenue',
      'total cost of sales',
      'total cost of goods sold',
      'cost of goods sold',
      'cost of sales',
      'cost of revenues',
      'cost of revenue',
      'cost of products sold',
      'cost of merchandise sold',
      'merchandise costs',
      'cost of goods and services sold',
    ],
    exclude: [/restructuring/, /impairment/, /amortization of/],
    sign: 'magnitude',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: [
      'cost of goods sold',
      'cogs',
      'cost of sales',
      'cost of revenue',
      'cost of revenues',
      'cost of products sold',
    ],
  },
  {
    id: 'gross_profit',
    name: 'Gross profit',
    kind: 'money',
    statement: 'income',
    labels: ['gross profit', 'total gross profit', 'gross margin', 'total gross margin'],
    sign: 'as_printed',
    instant: false,
    plausible: {},
    questionPhrases: ['gross profit'],
  },
  {
    id: 'operating_income',
    name: 'Operating income',
    kind: 'money',
    statement: 'income',
    labels: [
      'operating income loss',
      'operating income',
      'income loss from operations',
      'income from operations',
      'operating profit',
      'operating earnings',
      'earnings from operations',
      'operating loss',
    ],
    exclude: [/before/, /margin/, /other operating income/, /non operating/],
    sign: 'as_printed',
    instant: false,
    plausible: {},
    questionPhrases: ['operating income', 'operating profit', 'income from operations', 'ebit'],
  },
  {
    id: 'pretax_income',
    name: 'Income before income taxes',
    kind: 'money',
    statement: 'income',
    labels: [
      'income before income taxes',
      'income loss before income taxes',
      'income before income tax expense',
      'income before provision for income taxes',
      'income before taxes',
      'earnings before income taxes',
      'earnings before provision for income taxes',
      'earnings before provision for taxes on income',
      'income from continuing operations before income taxes',
      'earnings from continuing operations before income tax expense',
      'earnings from continuing operations before income taxes',
      'pretax income',
      'pre tax income',
      'income before income tax',
    ],
    sign: 'as_printed',
    instant: false,
    plausible: {},
    questionPhrases: [
      'pretax income',
      'pre-tax income',
      'income before taxes',
      'income before income taxes',
      'earnings before taxes',
    ],
  },
  {
    id: 'income_tax',
    name: 'Income tax expense',
    kind: 'money',
    statement: 'income',
    labels: [
      'income tax expense benefit',
      'income tax expense',
      'provision for income taxes',
      'provision benefit for income taxes',
      'income tax provision',
      'income tax provision benefit',
      'provision for taxes on income',
      'income taxes',
      'income tax benefit expense',
      'taxes on income',
    ],
    exclude: [/before/, /deferred/, /payable/, /paid/, /receivable/, /net of/],
    sign: 'expense',
    instant: false,
    plausible: {},
    questionPhrases: [
      'income tax expense',
      'income taxes',
      'tax expense',
      'provision for income taxes',
    ],
  },
  {
    id: 'net_income',
    name: 'Net income attributable to the company',
    kind: 'money',
    statement: 'income',
    labels: [
      'net income attributable to *',
      'net earnings attributable to *',
      'net income loss attributable to *',
      'net earnings loss attributable to *',
      'net income',
      'net earnings',
      'net income loss',
      'net earnings loss',
      'net loss income',
      'net loss',
    ],
    exclude: [
      /noncontrolling/,
      /non controlling/,
      /minority/,
      /per share/,
      /per common share/,
      /discontinued/,
      /continuing/,
      /including/,
      /margin/,
      /adjustments/,
      /reconcile/,
    ],
    sign: 'as_printed',
    instant: false,
    plausible: {},
    questionPhrases: ['net income', 'net earnings', 'net profit', 'bottom line'],
  },
  {
    id: 'eps_basic',
    name: 'Basic earnings per share',
    kind: 'per_share',
    statement: 'income',
    labels: [
      'basic earnings per share',
      'basic earnings per common share',
      'basic net income per share',
      'basic net earnings per share',
      'earnings per share basic',
      'earnings per common share basic',
      'net income per share basic',
      'net income per common share basic',
      'net earnings per share basic',
    ],
    exclude: [/continuing/, /discontinued/, /weighted/],
    sign: 'as_printed',
    instant: false,
    plausible: { min: '-1000', max: '10000' },
    questionPhrases: ['basic eps', 'basic earnings per share'],
  },
  {
    id: 'eps_diluted',
    name: 'Diluted earnings per share',
    kind: 'per_share',
    statement: 'income',
    labels: [
      'diluted earnings per share',
      'diluted earnings per common share',
      'diluted net income per share',
      'diluted net earnings per share',
      'earnings per share diluted',
      'earnings per common share diluted',
      'net income per share diluted',
      'net income per common share diluted',
      'net earnings per share diluted',
    ],
    exclude: [/continuing/, /discontinued/, /weighted/],
    sign: 'as_printed',
    instant: false,
    plausible: { min: '-1000', max: '10000' },
    questionPhrases: ['diluted eps', 'diluted earnings per share', 'eps', 'earnings per share'],
  },
  {
    id: 'shares_basic',
    name: 'Weighted-average basic shares outstanding',
    kind: 'count',
    statement: 'income',
    labels: [
      'weighted average shares outstanding basic',
      'weighted average common shares outstanding basic',
      'weighted average number of shares outstanding basic',
      'basic weighted average shares outstanding',
      'weighted average basic shares',
      'weighted average basic shares outstanding',
      'average shares outstanding basic',
      'average common shares outstanding basic',
      'shares used in calculation basic',
      'shares used in computing earnings per share basic',
      'basic shares',
    ],
    sign: 'as_printed',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: ['basic weighted average shares', 'basic shares outstanding'],
  },
  {
    id: 'shares_diluted',
    name: 'Weighted-average diluted shares outstanding',
    kind: 'count',
    statement: 'income',
    labels: [
      'weighted average shares outstanding diluted',
      'weighted average common shares outstanding diluted',
      'weighted average number of shares outstanding diluted',
      'diluted weighted average shares outstanding',
      'weighted average diluted shares',
      'weighted average diluted shares outstanding',
      'average shares outstanding diluted',
      'adjusted average shares outstanding diluted',
      'average common shares outstanding diluted',
      'shares used in calculation diluted',
      'shares used in computing earnings per share diluted',
      'diluted shares',
    ],
    sign: 'as_printed',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: ['diluted weighted average shares', 'diluted shares outstanding'],
  },
  {
    id: 'shares_outstanding',
    name: 'Common shares outstanding',
    kind: 'count',
    statement: 'any',
    labels: [
      'common shares outstanding',
      'shares of common stock outstanding',
      'common stock shares outstanding',
      'shares outstanding',
    ],
    exclude: [/weighted/, /average/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['shares outstanding', 'outstanding shares'],
  },
  {
    id: 'interest_expense',
    name: 'Interest expense',
    kind: 'money',
    statement: 'income',
    labels: [
      'interest expense',
      'interest expense net',
      'total interest expense',
      'interest and debt expense',
      'interest expense income net',
    ],
    exclude: [/net of interest expense/, /after interest/],
    sign: 'magnitude',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: ['interest expense'],
  },
  {
    id: 'total_assets',
    name: 'Total assets',
    kind: 'money',
    statement: 'balance',
    labels: ['total assets'],
    exclude: [/current/, /segment/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['total assets'],
  },
  {
    id: 'total_liabilities',
    name: 'Total liabilities',
    kind: 'money',
    statement: 'balance',
    labels: ['total liabilities'],
    exclude: [/equity/, /deficit/, /current/, /capital/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['total liabilities'],
  },
  {
    id: 'total_current_assets',
    name: 'Total current assets',
    kind: 'money',
    statement: 'balance',
    labels: ['total current assets'],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['total current assets', 'current assets'],
  },
  {
    id: 'total_current_liabilities',
    name: 'Total current liabilities',
    kind: 'money',
    statement: 'balance',
    labels: ['total current liabilities'],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['total current liabilities', 'current liabilities'],
  },
  {
    id: 'cash',
    name: 'Cash and cash equivalents',
    kind: 'money',
    statement: 'balance',
    labels: [
      'cash and cash equivalents',
      'cash and equivalents',
      'cash and due from banks',
      'cash and cash equivalents and restricted cash',
      'cash',
    ],
    exclude: [
      /beginning/,
      /end of/,
      /increase/,
      /decrease/,
      /restricted/,
      /held for/,
      /short term/,
      /marketable/,
    ],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['cash and cash equivalents', 'cash and equivalents', 'cash balance'],
  },
  {
    id: 'accounts_receivable',
    name: 'Accounts receivable, net',
    kind: 'money',
    statement: 'balance',
    labels: [
      'accounts receivable net',
      'trade accounts receivable net',
      'trade receivables net',
      'receivables net',
      'accounts receivable',
      'trade accounts receivable',
      'trade receivables',
      'accounts and notes receivable net',
      'receivables',
    ],
    exclude: [/other/, /long term/, /non current/, /noncurrent/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['accounts receivable', 'receivables', 'trade receivables'],
  },
  {
    id: 'inventory',
    name: 'Inventories',
    kind: 'money',
    statement: 'balance',
    labels: [
      'total inventories',
      'inventories net',
      'merchandise inventories',
      'merchandise inventory',
      'inventories',
      'inventory',
      'inventory net',
    ],
    exclude: [/provision/, /reserve/, /write/, /lifo/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['inventories', 'inventory', 'merchandise inventories'],
  },
  {
    id: 'accounts_payable',
    name: 'Accounts payable',
    kind: 'money',
    statement: 'balance',
    labels: [
      'accounts payable',
      'trade accounts payable',
      'accounts payable trade',
      'trade payables',
    ],
    exclude: [/accrued/, /other/, /increase/, /decrease/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['accounts payable', 'trade payables', 'payables'],
  },
  {
    id: 'ppe_net',
    name: 'Property, plant and equipment, net',
    kind: 'money',
    statement: 'balance',
    labels: [
      'property plant and equipment net',
      'property and equipment net',
      'net property plant and equipment',
      'net property and equipment',
      'property plant and equipment net of accumulated depreciation',
      'property and equipment net of accumulated depreciation',
      'premises and equipment net',
      'property plant and equipment',
      'property and equipment',
    ],
    exclude: [/gross/, /at cost/, /purchases/, /additions/, /proceeds/, /leases/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: [
      'pp&e',
      'ppe',
      'ppne',
      'property, plant and equipment',
      'property plant and equipment',
      'property and equipment',
      'fixed assets',
      'net fixed assets',
    ],
  },
  {
    id: 'total_equity',
    name: "Total shareholders' equity",
    kind: 'money',
    statement: 'balance',
    labels: [
      'total shareholders equity',
      'total stockholders equity',
      'total shareowners equity',
      'total common shareholders equity',
      'total equity',
      'total shareholders equity attributable to *',
      'total stockholders equity attributable to *',
    ],
    exclude: [/liabilities/, /noncontrolling/],
    sign: 'as_printed',
    instant: true,
    plausible: {},
    questionPhrases: [
      "shareholders' equity",
      'shareholders equity',
      "stockholders' equity",
      'stockholders equity',
      'total equity',
      'book value',
    ],
  },
  {
    id: 'long_term_debt',
    name: 'Long-term debt',
    kind: 'money',
    statement: 'balance',
    labels: [
      'long term debt net of current portion',
      'long term debt less current portion',
      'long term debt excluding current portion',
      'long term debt net',
      'long term debt',
      'long term borrowings',
    ],
    exclude: [/current portion of long/, /due within/, /repayment/, /proceeds/, /issuance/],
    sign: 'as_printed',
    instant: true,
    plausible: NON_NEG,
    questionPhrases: ['long-term debt', 'long term debt'],
  },
  {
    id: 'operating_cash_flow',
    name: 'Net cash provided by operating activities',
    kind: 'money',
    statement: 'cash_flow',
    labels: [
      'net cash provided by operating activities',
      'net cash provided by used in operating activities',
      'net cash from operating activities',
      'net cash provided by operations',
      'cash provided by operating activities',
      'cash provided by operations',
      'net cash used in operating activities',
      'cash flows from operating activities',
      'net cash flows from operating activities',
    ],
    exclude: [/discontinued/, /continuing/],
    sign: 'as_printed',
    instant: false,
    plausible: {},
    questionPhrases: [
      'operating cash flow',
      'cash from operations',
      'cash flow from operations',
      'cash from operating activities',
      'net cash provided by operating activities',
    ],
  },
  {
    id: 'capex',
    name: 'Capital expenditure',
    kind: 'money',
    statement: 'cash_flow',
    labels: [
      'capital expenditures',
      'capital expenditure',
      'purchases of property plant and equipment',
      'purchases of property and equipment',
      'purchase of property plant and equipment',
      'purchase of property and equipment',
      'additions to property plant and equipment',
      'additions to property and equipment',
      'payments for property plant and equipment',
      'payments for property and equipment',
      'expenditures for property plant and equipment',
      'acquisition of property plant and equipment',
      'acquisitions of property plant and equipment',
      'property and equipment additions',
    ],
    exclude: [/proceeds/, /sale/, /accrued/, /unpaid/, /non cash/, /noncash/],
    sign: 'magnitude',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: [
      'capital expenditure',
      'capital expenditures',
      'capex',
      'purchases of property, plant and equipment',
    ],
  },
  {
    id: 'depreciation_amortization',
    name: 'Depreciation and amortization',
    kind: 'money',
    statement: 'cash_flow',
    labels: [
      'depreciation and amortization',
      'depreciation amortization',
      'depreciation depletion and amortization',
      'depreciation and amortization expense',
      'depreciation amortization and other',
      'depreciation',
    ],
    exclude: [/accumulated/, /less/],
    sign: 'magnitude',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: ['depreciation and amortization', 'd&a', 'depreciation'],
  },
  {
    id: 'dividends_paid',
    name: 'Dividends paid',
    kind: 'money',
    statement: 'cash_flow',
    labels: [
      'dividends paid',
      'cash dividends paid',
      'dividends paid to shareholders',
      'dividends paid on common stock',
      'payments of dividends',
      'payment of dividends',
      'dividends to shareholders',
      'cash dividends to shareholders',
      'dividends common and preferred',
      'cash dividends',
      'dividends',
    ],
    // Preferred dividends alone are not the company's dividends; "common and preferred" are.
    // Dividends declared and not yet paid are a non-cash disclosure under the statement.
    exclude: [
      /noncontrolling/,
      /received/,
      /per share/,
      /^(?:cash )?dividends (?:paid )?(?:on |to )?preferred\b/,
      /^preferred\b/,
      /\bdeclared\b/,
      /\bnot paid\b|\bunpaid\b|\bpayable\b/,
    ],
    sign: 'magnitude',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: ['dividends paid', 'dividends', 'cash dividends'],
  },
  {
    id: 'share_repurchases',
    name: 'Repurchases of common stock',
    kind: 'money',
    statement: 'cash_flow',
    labels: [
      'repurchases of common stock',
      'repurchase of common stock',
      'repurchases of common shares',
      'repurchase of common shares',
      'purchases of treasury stock',
      'purchase of treasury stock',
      'purchases of common stock',
      'payments for repurchase of common stock',
      'share repurchases',
      'common stock repurchased',
    ],
    sign: 'magnitude',
    instant: false,
    plausible: NON_NEG,
    questionPhrases: [
      'share repurchases',
      'buybacks',
      'stock repurchases',
      'repurchases of common stock',
    ],
  },
  ...(
    [
      [
        'cet1_ratio',
        'Common equity tier 1 capital ratio',
        [
          'common equity tier 1 capital ratio',
          'cet1 capital ratio',
          'common equity tier 1 ratio',
          'cet1 ratio',
          'common equity tier 1',
          'cet1',
        ],
        ['cet1', 'common equity tier 1'],
      ],
      [
        'tier1_ratio',
        'Tier 1 capital ratio',
        [
          'tier 1 capital ratio',
          'tier 1 risk based capital ratio',
          'tier 1 ratio',
          'tier 1 capital',
        ],
        ['tier 1 capital ratio', 'tier 1 ratio'],
      ],
      [
        'total_capital_ratio',
        'Total capital ratio',
        ['total capital ratio', 'total risk based capital ratio', 'total capital'],
        ['total capital ratio'],
      ],
      [
        'leverage_ratio',
        'Tier 1 leverage ratio',
        ['tier 1 leverage ratio', 'leverage ratio', 'tier 1 leverage'],
        ['tier 1 leverage ratio', 'leverage ratio'],
      ],
      [
        'slr',
        'Supplementary leverage ratio',
        ['supplementary leverage ratio', 'slr'],
        ['supplementary leverage ratio', 'slr'],
      ],
      [
        'lcr',
        'Liquidity coverage ratio',
        ['liquidity coverage ratio', 'lcr'],
        ['liquidity coverage ratio', 'lcr'],
      ],
      [
        'nsfr',
        'Net stable funding ratio',
        ['net stable funding ratio', 'nsfr'],
        ['net stable funding ratio', 'nsfr'],
      ],
    ] as const
  ).map(([id, name, labels, phrases]): MetricDefinition => ({
    id,
    name,
    kind: 'ratio_percent',
    statement: 'capital',
    labels,
    exclude: [/minimum/, /required/, /requirement/, /buffer/, /well capitalized/, /adequately/],
    sign: 'as_printed',
    instant: true,
    // LCR and NSFR run above 100%; capital ratios rarely exceed 40%.
    plausible: id === 'lcr' || id === 'nsfr' ? { min: '50', max: '400' } : { min: '1', max: '60' },
    questionPhrases: phrases,
  })),
];

const BY_ID = new Map(METRICS.map((m) => [m.id, m]));

export function getMetric(id: string): MetricDefinition | undefined {
  return BY_ID.get(id);
}

export const METRIC_IDS = METRICS.map((m) => m.id);

/**
 * Line labels compare after this normalization: case, punctuation, footnote markers,
 * apostrophes and "&" vary between filers for the same line item.
 */
export function normalizeLabel(label: string): string {
  return label
    .toLowerCase()
    .replace(/[’'`]/g, '')
    .replace(/\((?:note|notes)\s*[\d, and]+\)/g, ' ')
    .replace(/\((?:\d{1,2}|[a-z])\)/g, ' ')
    .replace(/&/g, ' and ')
    .replace(/\bcommon stockholders\b/g, 'stockholders')
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface LabelMatch {
  score: number;
  rank: number;
  synonym: string;
}

/**
 * Score how well a row label names the metric. Exact (normalized) equality is strong;
 * a synonym followed by a qualifier after a comma or parenthesis ("Accounts receivable,
 * net of allowances of $132") is nearly as strong; any other prefix is weak.
 */
export function matchLabel(
  metric: MetricDefinition,
  rawLabel: string,
  normalized?: string,
): LabelMatch | null {
  const norm = normalized ?? normalizeLabel(rawLabel);
  if (norm === '') return null;
  if (metric.exclude?.some((re) => re.test(norm))) return null;
  let best: LabelMatch | null = null;
  metric.labels.forEach((syn, rank) => {
    let score = 0;
    if (syn.endsWith(' *')) {
      const stem = syn.slice(0, -2);
      if (norm.startsWith(stem + ' ') && norm.length > stem.length + 1) score = 1;
    } else if (norm === syn) {
      score = 1;
    } else if (norm.startsWith(syn + ' ')) {
      const rawLower = rawLabel.toLowerCase().replace(/[’'`]/g, '');
      const synWords = syn.split(' ');
      // Find where the synonym's last word ends in the raw label, then look at what follows.
      const lastWord = synWords[synWords.length - 1] ?? '';
      const idx = rawLower.indexOf(lastWord);
      const after = idx >= 0 ? rawLower.slice(idx + lastWord.length).trimStart() : '';
      score = /^[,(]/.test(after) ? 0.9 : 0.7;
    }
    if (score > 0 && (!best || score > best.score || (score === best.score && rank < best.rank))) {
      best = { score, rank, synonym: syn };
    }
  });
  return best;
}
