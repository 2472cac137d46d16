// The cue reader (readAskedFormByCues): the answer form a question asks, read from its phrasing.
import type { AnswerForm } from '../workflows/analysis/answer-form';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';

describe('the cue reader on phrasings', () => {
  it.each<[string, Partial<AnswerForm>]>([
    [
      'What is the FY2020 revenue in USD millions?',
      { kind: 'currency_amount', scale: 'millions', operation: 'level' },
    ],
    ['What was FY2020 revenue (in $ billions)?', { kind: 'currency_amount', scale: 'billions' }],
    // An explicit answer unit asks for an amount even when a rate is named.
    [
      'What tax effect of stock compensation lowered the FY2019 effective rate? Answer in USD millions.',
      { kind: 'currency_amount', scale: 'millions', currency: 'USD' },
    ],
    // Everyday change verbs: rise, fall, went up.
    [
      'By how much did the gross margin rise from fiscal 2020 to fiscal 2021, in percentage points?',
      { operation: 'percent_change', periods: ['FY2020', 'FY2021'], periodCount: 2 },
    ],
    [
      'How much did operating expenses fall between FY2018 and FY2019 (in USD millions)?',
      { kind: 'currency_amount', operation: 'change', periods: ['FY2018', 'FY2019'] },
    ],
    ['FY2020 revenue, in thousands of dollars?', { kind: 'currency_amount', scale: 'thousands' }],
    ['What is the FY2020 revenue in USD bn?', { scale: 'billions' }],
    [
      'What is the FY2021 gross margin as a percentage?',
      { kind: 'percent', operation: 'quotient' },
    ],
    ['What is the FY2021 gross margin in percent?', { kind: 'percent' }],
    [
      'What is the FY2021 return on assets expressed as a decimal?',
      { kind: 'ratio', operation: 'quotient' },
    ],
    [
      'What is the FY2021 operating margin? Round to one decimal place.',
      { kind: 'percent', rounding: 1 },
    ],
    [
      'Round your answer to two decimal places: FY2021 current ratio?',
      { kind: 'ratio', rounding: 2 },
    ],
    ['FY2021 current ratio, rounded to the nearest whole number?', { rounding: 0 }],
    [
      'What is the percentage change in revenue between FY2020 and FY2021?',
      { kind: 'percent', operation: 'percent_change', periods: ['FY2020', 'FY2021'] },
    ],
    [
      'By how much did net income change from FY2020 to FY2021, in USD millions?',
      { kind: 'currency_amount', operation: 'change', scale: 'millions' },
    ],
    [
      'How much did operating cash flow decline between FY2020 and FY2021 (in percent)?',
      { kind: 'percent', operation: 'percent_change' },
    ],
    [
      'What is the year-over-year revenue growth in FY2021?',
      { kind: 'percent', operation: 'percent_change' },
    ],
    [
      'What is the FY2021 diluted EPS in USD?',
      { kind: 'per_share', currency: 'USD', operation: 'level' },
    ],
    ['What was net income per diluted share in FY2021?', { kind: 'per_share' }],
    ['What is FY2021 days sales outstanding?', { kind: 'days', operation: 'quotient' }],
    ['How many times did the company turn over its inventory in FY2021?', { kind: 'ratio' }],
    [
      'What is the FY2019 - FY2021 3 year average of capex as a % of revenue?',
      {
        kind: 'percent',
        operation: 'average',
        periods: ['FY2019', 'FY2020', 'FY2021'],
        periodCount: 3,
      },
    ],
    [
      'What is the average net margin over FY2019, FY2020 and FY2021?',
      { operation: 'average', periods: ['FY2019', 'FY2020', 'FY2021'], periodCount: 3 },
    ],
    [
      'What is the two-year revenue CAGR from FY2019 to FY2021?',
      { kind: 'percent', operation: 'cagr', periods: ['FY2019', 'FY2021'] },
    ],
    [
      'What is the FY2021 debt to equity ratio? It is calculated as total debt divided by total equity.',
      {
        kind: 'ratio',
        operation: 'quotient',
        definition: { operator: '/', left: 'total debt', right: 'total equity' },
      },
    ],
    [
      'What is the difference between FY2021 revenue and FY2021 cost of sales, in USD millions?',
      { operation: 'difference' },
    ],
    ['What was the number of shares outstanding at the end of FY2021?', { kind: 'count' }],
    ['Is the company profitable in FY2021?', { kind: 'yes_no' }],
    [
      'What was Q2 FY2024 net revenue in USD millions?',
      { periods: ['Q2 FY2024'], kind: 'currency_amount' },
    ],
    [
      'What is the ratio of cash to current liabilities in FY2021 (below 1 is fine)?',
      { kind: 'ratio', operation: 'quotient' },
    ],
  ])('%s', (question, expected) => {
    expect(readAskedFormByCues(question)).toMatchObject(expected);
  });
});

describe('cue reader: the precision a question asks', () => {
  it('reads "to two decimals", "one decimal" and "nearest million" as decimal places, not "as a decimal"', () => {
    const r = (q: string) => readAskedFormByCues(q).rounding;
    expect(r('What was the current ratio in FY2024? Give the ratio to two decimals.')).toBe(2);
    expect(
      r('Revenue growth in FY2024 versus FY2023: what is the percent change (one decimal)?'),
    ).toBe(1);
    expect(
      r('Total assets at December 31, 2024, in USD millions, rounded to the nearest million?'),
    ).toBe(0);
    expect(r('What was the FY2024 payout ratio, expressed as a decimal?')).toBeNull();
  });
});

describe('cue reader: one figure at two dated points is a change', () => {
  it('reads "higher or lower at DATE than at DATE" as a change, a difference of two figures as a difference', () => {
    const op = (q: string) => readAskedFormByCues(q).operation;
    expect(
      op(
        'How much higher or lower were total liabilities at June 28, 2025 than at September 28, 2024? Give the difference in USD billions.',
      ),
    ).toBe('change');
    expect(
      op(
        'How much higher or lower was operating income for fiscal year 2024 than for fiscal year 2023? Give the difference in USD millions.',
      ),
    ).toBe('change');
    expect(op('What is the difference between revenue and cost of sales in FY2024?')).toBe(
      'difference',
    );
  });
});

describe('cue reader: an interim period named by its end date', () => {
  it('names no fiscal period for "the three months ended DATE" (the filer’s calendar decides it)', () => {
    const periods = (q: string) => readAskedFormByCues(q).periods;
    expect(
      periods(
        'What were total net sales for the three months ended June 28, 2025, in USD millions?',
      ),
    ).toBeNull();
    expect(periods('Net income for the six months ended June 30, 2025 (USD millions)?')).toBeNull();
    expect(periods('What was revenue in Q2 2025, in USD millions?')).toEqual(['Q2 FY2025']);
    expect(periods('What were total assets as of December 31, 2024, in USD millions?')).toEqual([
      'FY2024',
    ]);
  });
});
