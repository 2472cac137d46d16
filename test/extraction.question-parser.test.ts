import { parseQuestion } from '../activities/analysis/extraction';

describe('question parser: what a question really asks', () => {
  it('reads "change … in percent" of an amount as growth in percent', () => {
    expect(
      parseQuestion('By how much did revenue change between FY2021 and FY2022 in percent?'),
    ).toMatchObject({
      kind: 'metric',
      metric: 'revenue',
      aggregate: { kind: 'growth', startYear: 2021, endYear: 2022 },
      unit: 'percent',
    });
    expect(
      parseQuestion('What is the percentage change in net income from FY2021 to FY2022?'),
    ).toMatchObject({
      aggregate: { kind: 'growth' },
      unit: 'percent',
    });
  });

  it('keeps a dollar change a dollar change', () => {
    expect(
      parseQuestion(
        'What is the change in total assets between FY2021 and FY2022 (in USD millions)?',
      ),
    ).toMatchObject({
      aggregate: { kind: 'change', startYear: 2021, endYear: 2022 },
      unit: 'USD',
    });
  });

  it('refuses a "percentage change" of a ratio, which could be points or relative', () => {
    expect(
      parseQuestion('What is the percentage change in gross margin from FY2021 to FY2022?'),
    ).toMatchObject({ kind: 'unsupported' });
  });

  it.each([
    'What is the FY2022 revenue per share?',
    'What is the FY2022 revenue per store?',
    'What was FY2022 net income per employee (in USD)?',
  ])('refuses a per-unit figure that is not the named total: %s', (q) => {
    expect(parseQuestion(q)).toMatchObject({ kind: 'unsupported' });
  });

  it('still answers per-share metrics the catalog has', () => {
    expect(parseQuestion('What is the FY2022 diluted earnings per share?')).toMatchObject({
      kind: 'metric',
      metric: 'eps_diluted',
    });
  });

  it("refuses arithmetic on top of a named figure, outside the question's own definition", () => {
    expect(
      parseQuestion(
        'What is FY2020 unadjusted EBITDA less capex for the company? Define unadjusted EBITDA as unadjusted operating income + depreciation and amortization. Answer in USD millions.',
      ),
    ).toMatchObject({ kind: 'unsupported' });
    expect(
      parseQuestion(
        "What is the company's FY2021 net working capital? Define net working capital as total current assets less total current liabilities. Answer in USD millions.",
      ),
    ).toMatchObject({ kind: 'formula', formula: 'working_capital' });
  });

  it('refuses a defined computation or a ratio the catalog does not have, instead of answering the figure it mentions', () => {
    expect(
      parseQuestion(
        'What is the FY2021 operating cash flow ratio? Operating cash flow ratio is defined as: cash from operations / total current liabilities.',
      ),
    ).toMatchObject({ kind: 'unsupported' });
    expect(
      parseQuestion('What is the FY2021 operating cash flow ratio for the company?'),
    ).toMatchObject({ kind: 'unsupported' });
  });

  it('states payout ratios and returns as decimal ratios unless percent is asked', () => {
    expect(
      parseQuestion(
        'What is the FY2019 dividend payout ratio (using total cash dividends paid and net income)? Round answer to two decimal places.',
      ),
    ).toMatchObject({ formula: 'dividend_payout_ratio', unit: 'ratio' });
    expect(parseQuestion('What is the FY2019 dividend payout ratio in percent?')).toMatchObject({
      formula: 'dividend_payout_ratio',
      unit: 'percent',
    });
    expect(parseQuestion('What is the FY2022 gross margin?')).toMatchObject({
      formula: 'gross_margin',
      unit: 'percent',
    });
  });

  it.each([
    'What is the FY2021 revenue from discontinued operations?',
    'What is the FY2022 total revenue in Europe?',
    'What were FY2022 services revenues (in USD millions)?',
    'What is the FY2022 net income attributable to noncontrolling interests?',
  ])('refuses a part of a total: %s', (q) => {
    expect(parseQuestion(q)).toMatchObject({ kind: 'unsupported' });
  });

  it('reads weighted average shares as the line item, not an average of balances', () => {
    expect(
      parseQuestion('What is the FY2023 weighted average diluted shares outstanding?'),
    ).toMatchObject({ metric: 'shares_diluted', aggregate: { kind: 'single' } });
    expect(
      parseQuestion('What is the FY2022 net income attributable to shareholders in USD thousands?'),
    ).toMatchObject({ kind: 'metric', metric: 'net_income' });
  });
});
