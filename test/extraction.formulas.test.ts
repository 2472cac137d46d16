import { answerQuestion } from '../activities/analysis/extraction';
import {
  indexDocument,
  extractMetricFromIndex,
} from '../activities/analysis/extraction/extract-metric';
import { evaluateFormula, FORMULAS } from '../activities/analysis/extraction/formula-catalog';
import { parseQuestion } from '../activities/analysis/extraction/question-parser';
import {
  BALANCE_PAGE,
  CAPITAL_PAGE,
  CASH_FLOW_PAGE,
  INCOME_PAGE,
  MDNA_PAGE,
  pagesOf,
} from './extraction.fixtures';

const PAGES = pagesOf(MDNA_PAGE, INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE, CAPITAL_PAGE);
const doc = indexDocument(PAGES);
const lookup = (metric: string, fiscalYear: number) =>
  extractMetricFromIndex(doc, { metric, period: { fiscalYear } });

function computed(formula: string, fiscalYear: number) {
  const r = evaluateFormula({ formula, fiscalYear, aggregate: { kind: 'single' } }, lookup);
  if (r.status !== 'computed') throw new Error(`${formula}: ${r.reason}`);
  return r;
}

describe('formula catalog', () => {
  it('computes margins exactly', () => {
    expect(computed('gross_margin', 2019).value).toBe('42.5');
    expect(computed('operating_margin', 2019).value).toBe('20');
    expect(computed('net_margin', 2019).value).toBe('14.6');
    expect(computed('cogs_pct_revenue', 2019).value).toBe('57.5');
    expect(computed('capex_pct_revenue', 2019).value).toBe('9.5');
    expect(computed('ebitda_margin', 2019).value).toBe('24.5');
  });
  it('computes turnover with averaged balances and cites every input', () => {
    const r = computed('fixed_asset_turnover', 2019);
    // 2000 / ((600 + 500) / 2)
    expect(r.value.startsWith('3.636363')).toBe(true);
    expect(r.inputs.map((i) => `${i.metric}@${i.fiscalYear}`)).toEqual([
      'revenue@2019',
      'ppe_net@2019',
      'ppe_net@2018',
    ]);
    expect(r.confidence).toBeGreaterThanOrEqual(0.85);
    expect(computed('inventory_turnover', 2019).value).toBe('4.6');
    expect(computed('asset_turnover', 2019).value.startsWith('0.746268')).toBe(true);
  });
  it('computes balance-sheet formulas in the table scale', () => {
    expect(computed('working_capital', 2019)).toMatchObject({
      value: '500',
      scale: 'millions',
      resultKind: 'money',
    });
    expect(computed('current_ratio', 2019).value.startsWith('1.990099')).toBe(true);
    expect(computed('free_cash_flow', 2019).value).toBe('320');
    expect(computed('effective_tax_rate', 2019).value.startsWith('20')).toBe(true);
  });
  it('fails with a reason when an input is missing', () => {
    const r = evaluateFormula(
      { formula: 'fixed_asset_turnover', fiscalYear: 2018, aggregate: { kind: 'single' } },
      lookup,
    );
    expect(r.status).toBe('missing_input');
    if (r.status === 'missing_input') expect(r.reason).toContain('ppe_net FY2017');
  });
  it('averages over years and computes CAGR and change', () => {
    const avg = evaluateFormula(
      {
        formula: 'operating_margin',
        fiscalYear: 2019,
        aggregate: { kind: 'average', startYear: 2017, endYear: 2019 },
      },
      lookup,
    );
    // (20 + (-20/1800*100) + 310/1600*100) / 3
    expect(avg.status === 'computed' && avg.value.startsWith('12.7546')).toBe(true);
    const cagr = evaluateFormula(
      {
        metric: 'revenue',
        fiscalYear: 2019,
        aggregate: { kind: 'cagr', startYear: 2017, endYear: 2019 },
      },
      lookup,
    );
    // sqrt(2000/1600) - 1 = 11.8034%
    expect(cagr.status === 'computed' && cagr.value.startsWith('11.8033')).toBe(true);
    const growth = evaluateFormula(
      {
        metric: 'revenue',
        fiscalYear: 2019,
        aggregate: { kind: 'growth', startYear: 2018, endYear: 2019 },
      },
      lookup,
    );
    expect(growth.status === 'computed' && growth.value.startsWith('11.1111')).toBe(true);
  });
  it('declares inputs for every formula', () => {
    for (const f of FORMULAS)
      for (const v of f.variants) expect(v.inputs.length).toBeGreaterThan(0);
  });
});

describe('question parser', () => {
  it('reads a single metric with unit', () => {
    expect(
      parseQuestion('What is the FY2018 capital expenditure amount (in USD millions) for 3M?'),
    ).toMatchObject({
      kind: 'metric',
      metric: 'capex',
      period: { fiscalYear: 2018 },
      requestedScale: 'millions',
    });
    expect(
      parseQuestion(
        'How much total current assets did the company have at the end of FY2019? Answer in USD thousands.',
      ),
    ).toMatchObject({
      metric: 'total_current_assets',
      requestedScale: 'thousands',
    });
  });
  it('reads a defined formula with rounding', () => {
    const p = parseQuestion(
      'What is the FY2019 fixed asset turnover ratio for X? Fixed asset turnover ratio is defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019). Round your answer to two decimal places.',
    );
    expect(p).toMatchObject({
      kind: 'formula',
      formula: 'fixed_asset_turnover',
      period: { fiscalYear: 2019 },
      rounding: 2,
      aggregate: { kind: 'single' },
    });
    expect(p.confidence).toBeGreaterThanOrEqual(0.9);
  });
  it('reads multi-year averages, CAGR and statement hints', () => {
    expect(
      parseQuestion(
        'What is the FY2017 - FY2019 3 year average of capex as a % of revenue for X? Answer in units of percents and round to one decimal place.',
      ),
    ).toMatchObject({
      formula: 'capex_pct_revenue',
      aggregate: { kind: 'average', startYear: 2017, endYear: 2019 },
      rounding: 1,
      unit: 'percent',
    });
    expect(
      parseQuestion(
        "What is X's 2 year total revenue CAGR from FY2020 to FY2022 (in units of percents and round to one decimal place)?",
      ),
    ).toMatchObject({
      metric: 'revenue',
      aggregate: { kind: 'cagr', startYear: 2020, endYear: 2022 },
    });
    expect(
      parseQuestion(
        'What is the FY2021 depreciation and amortization using the cash flow statement?',
      ),
    ).toMatchObject({
      metric: 'depreciation_amortization',
      preferStatement: 'cash_flow',
    });
  });
  it('picks the formula variant the definition describes', () => {
    const p = parseQuestion(
      'What is FY2020 days payable outstanding (DPO)? DPO is defined as: 365 * (average accounts payable between FY2019 and FY2020) / (FY2020 COGS + change in inventory between FY2019 and FY2020). Round your answer to two decimal places.',
    );
    expect(p.formula).toBe('days_payable_outstanding_purchases');
  });
  it('sends what it cannot map to a person', () => {
    expect(
      parseQuestion('Does the company have an improving operating margin profile as of 2022?').kind,
    ).toBe('unsupported');
    expect(parseQuestion('What drove gross margin change as of FY2022?').kind).toBe('unsupported');
    expect(parseQuestion('What is the FY2022 adjusted EBITDA?').kind).toBe('unsupported');
    expect(parseQuestion('What is the number of employees?').kind).toBe('unsupported');
    expect(
      parseQuestion(
        'What is the FY2019 inventory turnover? Inventory turnover is defined as FY2019 COGS / FY2019 ending inventory.',
      ).kind,
    ).toBe('unsupported');
  });
});

describe('answerQuestion', () => {
  it('answers a metric in the requested unit with a citation', () => {
    const a = answerQuestion({
      question: 'What is the year end FY2019 total amount of inventories? Answer in USD millions.',
      pages: PAGES,
    });
    expect(a.status).toBe('answered');
    if (a.status !== 'answered') return;
    expect(a).toMatchObject({
      answer: '$275 million',
      unit: 'USD',
      value: '275000000',
      rounded: '275',
      scale: 'millions',
      printed: '275',
      period: 'FY2019',
    });
    expect(a.citations[0]?.page).toBe(2);
    expect(a.confidence).toBeGreaterThanOrEqual(0.85);
  });
  it('answers a formula with rounding and inputs', () => {
    const a = answerQuestion({
      question:
        'What is the FY2019 fixed asset turnover ratio? Fixed asset turnover ratio is defined as: FY2019 revenue / (average PP&E between FY2018 and FY2019). Round your answer to two decimal places.',
      pages: PAGES,
    });
    expect(a.status === 'answered' && a.answer).toBe('3.64');
    if (a.status === 'answered') {
      expect(a.inputs).toHaveLength(3);
      expect(a.formula?.id).toBe('fixed_asset_turnover');
    }
  });
  it('answers a bank capital ratio', () => {
    const a = answerQuestion({ question: 'What was the CET1 ratio at FY2022?', pages: PAGES });
    expect(a.status === 'answered' && a.answer).toBe('10.5%');
  });
  it('shows both endpoints of a change in a rate', () => {
    const a = answerQuestion({
      question: 'How much has the effective tax rate changed between FY2017 and FY2019?',
      pages: PAGES,
    });
    // 73/365 = 20.0%, 60/282 = 21.3%
    // No rounding asked: the change keeps two places; the endpoints are shown at one.
    expect(a.status === 'answered' && a.answer).toBe(
      '-1.28 percentage points (21.3% in FY2017 to 20.0% in FY2019)',
    );
  });
  it('gives the change of a per-share figure as an amount per share', () => {
    // Diluted EPS 1.44 in 2019, (0.19) in 2018: up $1.63 a share; the sign before the $.
    const up = answerQuestion({
      question: 'What was the change in diluted EPS from FY2018 to FY2019?',
      pages: PAGES,
    });
    expect(up).toMatchObject({ status: 'answered', answer: '$1.63 per share', unit: 'USD/share' });
    const down = answerQuestion({
      question: 'What was the change in diluted EPS from FY2017 to FY2018?',
      pages: PAGES,
    });
    expect(down).toMatchObject({ status: 'answered', answer: '-$1.29 per share' });
  });
  it('needs review when an input is missing, ambiguous or the question is unsupported', () => {
    expect(
      answerQuestion({ question: 'What is the FY2018 fixed asset turnover ratio?', pages: PAGES })
        .status,
    ).toBe('needs_review');
    const conflicting = pagesOf(
      BALANCE_PAGE,
      BALANCE_PAGE.replace('Total assets   $ 2,805', 'Total assets   $ 2,905'),
    );
    const a = answerQuestion({
      question: 'What were total assets at the end of FY2019?',
      pages: conflicting,
    });
    expect(a.status).toBe('needs_review');
    expect(
      answerQuestion({ question: 'Was the company able to retain customers?', pages: PAGES })
        .status,
    ).toBe('needs_review');
  });
  it('accepts explicit metric, period and unit', () => {
    const a = answerQuestion({
      question: 'revenue',
      metric: 'revenue',
      period: 'FY2017',
      unit: 'USD billions',
      pages: PAGES,
    });
    // No rounding asked: 1,600 million is exactly 1.6 billion, not a rounded 1.60.
    expect(a.status === 'answered' && a.answer).toBe('$1.6 billion');
  });
});
