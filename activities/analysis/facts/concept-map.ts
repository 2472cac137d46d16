import {
  getMetric,
  matchLabel,
  METRICS,
  normalizeLabel,
  type MetricDefinition,
} from '../extraction/metric-catalog';

/**
 * Which taxonomy concepts report a line item, keyed by its accounting meaning (the metric
 * catalog's ids, plus the few operating lines the catalog does not read from text). Standard
 * us-gaap and ifrs-full concepts only, most specific first; a filer's extension concept is
 * found by its name or the row it is printed in (extensionMatches), never listed here.
 */
export const STANDARD_CONCEPTS: Readonly<Record<string, readonly string[]>> = {
  revenue: [
    'us-gaap:Revenues',
    'us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax',
    'us-gaap:RevenueFromContractWithCustomerIncludingAssessedTax',
    'us-gaap:SalesRevenueNet',
    'ifrs-full:Revenue',
  ],
  cost_of_revenue: [
    'us-gaap:CostOfRevenue',
    'us-gaap:CostOfGoodsAndServicesSold',
    'us-gaap:CostOfGoodsSold',
    'ifrs-full:CostOfSales',
  ],
  gross_profit: ['us-gaap:GrossProfit', 'ifrs-full:GrossProfit'],
  operating_income: ['us-gaap:OperatingIncomeLoss', 'ifrs-full:ProfitLossFromOperatingActivities'],
  pretax_income: [
    'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesExtraordinaryItemsNoncontrollingInterest',
    'us-gaap:IncomeLossFromContinuingOperationsBeforeIncomeTaxesMinorityInterestAndIncomeLossFromEquityMethodInvestments',
    'ifrs-full:ProfitLossBeforeTax',
  ],
  income_tax: ['us-gaap:IncomeTaxExpenseBenefit', 'ifrs-full:IncomeTaxExpenseContinuingOperations'],
  // Net income attributable to the parent: what "net income" of a company means.
  net_income: ['us-gaap:NetIncomeLoss', 'ifrs-full:ProfitLossAttributableToOwnersOfParent'],
  eps_basic: ['us-gaap:EarningsPerShareBasic', 'ifrs-full:BasicEarningsLossPerShare'],
  eps_diluted: [
    'us-gaap:EarningsPerShareDiluted',
    'us-gaap:EarningsPerShareBasicAndDiluted',
    'ifrs-full:DilutedEarningsLossPerShare',
  ],
  shares_basic: ['us-gaap:WeightedAverageNumberOfSharesOutstandingBasic'],
  shares_diluted: ['us-gaap:WeightedAverageNumberOfDilutedSharesOutstanding'],
  interest_expense: ['us-gaap:InterestExpense', 'us-gaap:InterestExpenseNonoperating'],
  total_assets: ['us-gaap:Assets', 'ifrs-full:Assets'],
  total_liabilities: ['us-gaap:Liabilities', 'ifrs-full:Liabilities'],
  total_current_assets: ['us-gaap:AssetsCurrent', 'ifrs-full:CurrentAssets'],
  total_current_liabilities: ['us-gaap:LiabilitiesCurrent', 'ifrs-full:CurrentLiabilities'],
  cash: ['us-gaap:CashAndCashEquivalentsAtCarryingValue', 'ifrs-full:CashAndCashEquivalents'],
  accounts_receivable: ['us-gaap:AccountsReceivableNetCurrent'],
  inventory: ['us-gaap:InventoryNet', 'ifrs-full:Inventories'],
  accounts_payable: ['us-gaap:AccountsPayableCurrent', 'us-gaap:AccountsPayableTradeCurrent'],
  ppe_net: ['us-gaap:PropertyPlantAndEquipmentNet', 'ifrs-full:PropertyPlantAndEquipment'],
  // Equity of the parent's shareholders; with noncontrolling interests only when the question
  // asks for it or the filing reports nothing else (see FactIndex.conceptsFor).
  total_equity: ['us-gaap:StockholdersEquity', 'ifrs-full:EquityAttributableToOwnersOfParent'],
  long_term_debt: ['us-gaap:LongTermDebtNoncurrent'],
  operating_cash_flow: [
    'us-gaap:NetCashProvidedByUsedInOperatingActivities',
    'us-gaap:NetCashProvidedByUsedInOperatingActivitiesContinuingOperations',
    'ifrs-full:CashFlowsFromUsedInOperatingActivities',
  ],
  capex: [
    'us-gaap:PaymentsToAcquirePropertyPlantAndEquipment',
    'us-gaap:PaymentsToAcquireProductiveAssets',
    'ifrs-full:PurchaseOfPropertyPlantAndEquipmentClassifiedAsInvestingActivities',
  ],
  depreciation_amortization: [
    'us-gaap:DepreciationDepletionAndAmortization',
    'us-gaap:DepreciationAndAmortization',
    'us-gaap:DepreciationAmortizationAndAccretionNet',
  ],
  dividends_paid: ['us-gaap:PaymentsOfDividends', 'us-gaap:PaymentsOfDividendsCommonStock'],
  share_repurchases: ['us-gaap:PaymentsForRepurchaseOfCommonStock'],
  sga: ['us-gaap:SellingGeneralAndAdministrativeExpense'],
  research_development: ['us-gaap:ResearchAndDevelopmentExpense'],
  operating_expenses: ['us-gaap:OperatingExpenses', 'us-gaap:CostsAndExpenses'],
};

/** The equity concept of a question that asks for equity including noncontrolling interests. */
export const EQUITY_WITH_NCI = [
  'us-gaap:StockholdersEquityIncludingPortionAttributableToNoncontrollingInterest',
  'ifrs-full:Equity',
];

/**
 * Operating lines the text catalog does not read, in its shape (the fact path asks for them
 * by name and checks their printed rows with the same label matcher).
 */
export const FACT_ONLY_METRICS: readonly MetricDefinition[] = [
  {
    id: 'sga',
    name: 'Selling, general and administrative expense',
    kind: 'money',
    statement: 'income',
    labels: [
      'selling general and administrative expense',
      'selling general and administrative expenses',
      'selling general and administrative',
      'total selling general and administrative',
    ],
    sign: 'magnitude',
    instant: false,
    plausible: { min: '0' },
    questionPhrases: [
      'sg&a',
      'selling, general and administrative',
      'selling general and administrative',
    ],
  },
  {
    id: 'research_development',
    name: 'Research and development expense',
    kind: 'money',
    statement: 'income',
    labels: [
      'research and development',
      'research and development expense',
      'research and development expenses',
      'technology and development',
    ],
    sign: 'magnitude',
    instant: false,
    plausible: { min: '0' },
    questionPhrases: ['research and development', 'r&d'],
  },
  {
    id: 'operating_expenses',
    name: 'Total operating expenses',
    kind: 'money',
    statement: 'income',
    labels: [
      'total operating expenses',
      'operating expenses',
      'total costs and expenses',
      'costs and expenses',
    ],
    sign: 'magnitude',
    instant: false,
    plausible: { min: '0' },
    questionPhrases: ['operating expenses', 'total operating expenses', 'opex'],
  },
];

/**
 * Printed row names of a line item that the text catalog leaves out because in prose they
 * can mean something else ("cash generated by operating activities" is the operating cash
 * flow row of some filers; a dollar row "gross margin" is gross profit). Used only to check
 * the row a fact is printed in, never to find a figure in text.
 */
const EXTRA_ROW_LABELS: Readonly<Record<string, readonly string[]>> = {
  operating_cash_flow: [
    'cash generated by operating activities',
    'total operating activities',
    'net cash provided by used in operating activities',
    'net cash flow from operating activities',
  ],
  capex: [
    'capital investments',
    'capital expenditures *',
    'payments for acquisition of property plant and equipment',
  ],
  total_equity: ['total shareholders equity *', 'total stockholders equity *'],
  net_income: ['net income attributable to *', 'net earnings attributable to *'],
  long_term_debt: ['term debt', 'long term debt *'],
  revenue: ['revenues', 'revenue', 'total operating revenues', 'net sales *', 'sales to customers'],
  operating_income: ['operating income *'],
  eps_basic: [
    'net earnings per common share basic',
    'net income per common share basic',
    'earnings per share basic *',
  ],
  eps_diluted: [
    'net earnings per common share diluted',
    'net income per common share diluted',
    'earnings per share diluted *',
  ],
};

export function factMetric(id: string): MetricDefinition | undefined {
  return getMetric(id) ?? FACT_ONLY_METRICS.find((m) => m.id === id);
}

/** Every metric the fact path can be asked for. */
export const FACT_METRICS: readonly MetricDefinition[] = [
  ...METRICS.filter((m) => STANDARD_CONCEPTS[m.id] !== undefined),
  ...FACT_ONLY_METRICS,
];

/** The metric with the row-label synonyms the printed-row check accepts for it. */
export function rowLabelMetric(id: string): MetricDefinition | undefined {
  const m = factMetric(id);
  if (!m) return undefined;
  const extra = EXTRA_ROW_LABELS[id] ?? [];
  return { ...m, labels: [...m.labels, ...extra] };
}

/** Does a printed row label name this metric? (The text catalog's matcher, with the extras.) */
export function rowNamesMetric(metricId: string, rowLabel: string): boolean {
  const m = rowLabelMetric(metricId);
  if (!m) return false;
  if (matchLabel(m, rowLabel) !== null) return true;
  // A qualifier after a comma ("…, net of sales") is the filer's detail of the same line:
  // the catalog's exclusions apply to the line's name before it.
  const head = rowLabel.split(',')[0]!;
  return head !== rowLabel && matchLabel(m, head) !== null;
}

/** `PaymentsToAcquirePropertyPlantAndEquipment` → "payments to acquire property plant and equipment". */
export function conceptWords(concept: string): string {
  const local = concept.includes(':') ? concept.slice(concept.indexOf(':') + 1) : concept;
  return normalizeLabel(
    local.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2'),
  );
}

const STANDARD_PREFIXES = new Set(['us-gaap', 'ifrs-full', 'dei', 'srt']);

export function isExtensionConcept(concept: string): boolean {
  return !STANDARD_PREFIXES.has(concept.split(':')[0] ?? '');
}

/**
 * An extension concept (the filer's own) reports the metric when its name reads as one of
 * the metric's line-item names: the filing's label linkbase is not part of the HTML, so the
 * name (and, checked later, the printed row) is what there is.
 */
export function extensionMatches(metricId: string, concept: string): boolean {
  if (!isExtensionConcept(concept)) return false;
  const m = rowLabelMetric(metricId);
  if (!m) return false;
  const words = conceptWords(concept);
  return m.labels.some((l) => !l.endsWith(' *') && words === l);
}
