import { readDefinition } from '../activities/analysis/extraction/definition/question-definition';
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

  it('reads "did X grow from A to B" (the verb in the present after "did") as growth', () => {
    expect(
      parseQuestion(
        'By what percentage did revenues grow from fiscal 2018 to fiscal 2019? Answer in percent, rounded to one decimal place.',
      ),
    ).toMatchObject({
      kind: 'metric',
      metric: 'revenue',
      aggregate: { kind: 'growth', startYear: 2018, endYear: 2019 },
      unit: 'percent',
    });
  });

  it('reads "fall", "decline" and "rise" between two years as growth, as the yes/no reader does', () => {
    for (const q of [
      "By what percentage did Corning's operating income fall from 2019 to 2020? Give a signed answer in percent to one decimal place.",
      "How much did Lockheed Martin's gross profit decline from 2021 to 2022 in percentage terms? Express as a signed percentage with one decimal.",
      'By what percentage did net revenues rise from fiscal 2020 to fiscal 2021? Answer in percent.',
    ])
      expect(parseQuestion(q)).toMatchObject({
        kind: 'metric',
        aggregate: { kind: 'growth' },
        unit: 'percent',
      });
    // The same verbs with a currency asked: the dollar difference.
    expect(
      parseQuestion('How much did operating income fall from FY2019 to FY2020, in USD millions?'),
    ).toMatchObject({ aggregate: { kind: 'change', startYear: 2019, endYear: 2020 } });
    // Without the two years a falling verb names no period: refused, not guessed.
    expect(parseQuestion('By what percentage did operating income fall?')).toMatchObject({
      kind: 'unsupported',
    });
  });

  it('does not read an instruction after the question ("use a minus sign") as arithmetic', () => {
    const q =
      "By what percent did Nike's net income change from fiscal 2019 to fiscal 2020? Answer in percent, one decimal (use a minus sign for a decline).";
    expect(parseQuestion(q)).toMatchObject({
      kind: 'metric',
      metric: 'net_income',
      aggregate: { kind: 'growth', startYear: 2019, endYear: 2020 },
    });
    expect(readDefinition(q)).toEqual({ status: 'none' });
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

  // The answer's stated unit decides between a dollar difference and a growth rate: "how much
  // did X increase from A to B, in USD millions" asks for dollars, not percent.
  it.each([
    'By how much did net income increase from FY2022 to FY2023, in USD millions?',
    'What was the increase in operating cash flow from 2021 to 2022? Answer in USD millions.',
    'How much did total assets decrease from FY2020 to FY2021 (in millions of dollars)?',
    'By how many dollars did revenue increase between FY2022 and FY2023?',
  ])('reads an increase asked in currency as a dollar change: %s', (q) => {
    expect(parseQuestion(q)).toMatchObject({ aggregate: { kind: 'change' }, unit: 'USD' });
  });

  it.each([
    'By how much did net income increase from FY2022 to FY2023, in percent?',
    'What was revenue growth from FY2022 to FY2023?',
    'How much did revenue grow year over year in FY2023?',
    // One year named: "the increase in inventories" may be a cash-flow line, not a difference.
    'What was the increase in inventories in FY2022? Answer in USD millions.',
  ])('keeps growth where the question does not ask a currency difference over a span: %s', (q) => {
    expect(parseQuestion(q)).toMatchObject({ aggregate: { kind: 'growth' }, unit: 'percent' });
  });

  it.each([
    'What was gross margin (in dollars) for FY2019 on the income statement?',
    'What was the FY2023 operating margin? Answer in USD millions.',
  ])('does not answer a ratio formula when the question asks a currency amount: %s', (q) => {
    expect(parseQuestion(q)).toMatchObject({
      kind: 'unsupported',
      reason: expect.stringMatching(/asks a currency amount/),
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

  it('reads a year that dates the document apart from the period asked', () => {
    for (const q of [
      "As presented in Quillfeather's 2032 annual report, what was income before income taxes for 2031?",
      "What were Quillfeather's total net sales for 2031 according to the consolidated statements of earnings in its 2033 annual report?",
      "What was Quillfeather's diluted earnings per share for fiscal 2031, as shown in the FY2032 income statement?",
    ])
      expect(parseQuestion(q)).toMatchObject({ kind: 'metric', period: { fiscalYear: 2031 } });
    // The document's year is the period when the question names no other.
    expect(parseQuestion('What was revenue in the 2031 income statement?')).toMatchObject({
      period: { fiscalYear: 2031 },
    });
  });

  it('maps a line item the question names by a printed label of the catalog (three words or more)', () => {
    // Invented filer; the label words, not a question phrase, name the metric.
    expect(
      parseQuestion("What were Quillfeather's diluted earnings per common share for 2031?"),
    ).toMatchObject({ kind: 'metric', metric: 'eps_diluted' });
    expect(
      parseQuestion(
        "What were Quillfeather's purchases of property and equipment in FY2031, in USD millions?",
      ),
    ).toMatchObject({ kind: 'metric', metric: 'capex' });
    // A short label ("cash", "dividends") is not enough to name a metric by itself.
    expect(parseQuestion('How much cash was paid for income taxes in FY2031?')).not.toMatchObject({
      metric: 'cash',
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

  it('reads every year of a listed span ("2017, 2018 and 2019"), not its last two', () => {
    const p = parseQuestion(
      "What was Quillfeather's average net income over fiscal years 2017, 2018 and 2019?",
    );
    expect(p).toMatchObject({ aggregate: { kind: 'average', startYear: 2017, endYear: 2019 } });
    expect(
      parseQuestion('What was the average net income over FY2016, FY2017, FY2018 and FY2019?'),
    ).toMatchObject({ aggregate: { kind: 'average', startYear: 2016, endYear: 2019 } });
  });

  it('reads weighted average shares as the line item, not an average of balances', () => {
    expect(
      parseQuestion('What is the FY2023 weighted average diluted shares outstanding?'),
    ).toMatchObject({ metric: 'shares_diluted', aggregate: { kind: 'single' } });
    expect(
      parseQuestion('What is the FY2022 net income attributable to shareholders in USD thousands?'),
    ).toMatchObject({ kind: 'metric', metric: 'net_income' });
  });

  it('does not map a question to a metric whose rows exclude what it asks', () => {
    expect(
      parseQuestion(
        'What amount of dividends had Example Corp declared but not yet paid at the end of fiscal 2031?',
      ),
    ).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining('declared') });
    expect(
      parseQuestion('What was net income from continuing operations in FY2031?'),
    ).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining('continuing') });
    expect(parseQuestion('How much did Example Corp pay in dividends in FY2031?')).toMatchObject({
      kind: 'metric',
      metric: 'dividends_paid',
    });
  });

  it('reads an amount paid as the cash paid, not as the income statement’s expense', () => {
    for (const q of [
      'How much cash did Example Corp pay for income taxes in FY2031?',
      'How much did Example Corp pay in income taxes in FY2031?',
    ])
      expect(parseQuestion(q)).toMatchObject({
        kind: 'unsupported',
        reason: expect.stringContaining('an amount paid'),
      });
    // The expense itself, and payments the catalog reads from the cash-flow statement, stay.
    expect(parseQuestion('What was Example Corp’s income tax expense in FY2031?')).toMatchObject({
      kind: 'metric',
      metric: 'income_tax',
    });
    expect(
      parseQuestion('How much did Example Corp pay for capital expenditures in FY2031?'),
    ).toMatchObject({ kind: 'metric', metric: 'capex' });
    expect(
      parseQuestion('What were Example Corp’s income taxes payable in FY2031?'),
    ).not.toMatchObject({ reason: expect.stringContaining('an amount paid') });
  });
});
