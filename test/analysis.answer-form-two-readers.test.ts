import { readingDisagreements, type AnswerForm } from '../workflows/analysis/answer-form';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { askedFormFromParsed } from '../activities/analysis/extraction/answer-form';
import { parseQuestion } from '../activities/analysis/extraction/question-parser';

/**
 * Rewordings and unseen-style questions (written for this test, not from any dataset) with
 * the form each asks. The cue reader must read the form; the question parser must either
 * agree with it, or not map the question, or disagree — and a disagreement sends the answer
 * to a person. The `parser` column records which, so a parser change that starts to misread
 * (or stops misreading) shows here.
 */
describe('both readers on questions this code was not written against', () => {
  type Row = [string, Partial<AnswerForm>, 'agree' | 'disagree' | 'unmapped'];
  const M = { kind: 'currency_amount', scale: 'millions' } as const;
  it.each<Row>([
    [
      'What was the total revenue reported for fiscal year 2021, in USD millions?',
      { ...M, periods: ['FY2021'], operation: 'level' },
      'agree',
    ],
    [
      'For FY2022, what were net sales? Give the answer in millions of US dollars.',
      { ...M, periods: ['FY2022'] },
      'agree',
    ],
    [
      'What is FY2020 net income in USD thousands?',
      { kind: 'currency_amount', scale: 'thousands' },
      'agree',
    ],
    [
      'What were capital expenditures in FY2019 according to the cash flow statement (USD millions)?',
      { ...M, operation: 'level' },
      'agree',
    ],
    [
      'Using the balance sheet, what were total liabilities at the end of FY2021 in USD billions? Round to two decimal places.',
      { kind: 'currency_amount', scale: 'billions', rounding: 2 },
      'agree',
    ],
    [
      'What is the FY2021 operating margin, expressed as a percentage and rounded to one decimal place?',
      { kind: 'percent', rounding: 1, operation: 'quotient' },
      'agree',
    ],
    ['What is the FY2022 gross margin percentage?', { kind: 'percent', rounding: null }, 'agree'],
    [
      'What was the year-over-year percentage change in revenue from FY2021 to FY2022?',
      { kind: 'percent', operation: 'percent_change', periods: ['FY2021', 'FY2022'] },
      'agree',
    ],
    // The parser reads "did … grow" as growth (it once read a level here)…
    [
      'By what percent did net income grow between FY2020 and FY2021?',
      { kind: 'percent', operation: 'percent_change', periodCount: 2 },
      'agree',
    ],
    // …and "rise", from the change verbs it shares with the yes/no reader…
    [
      'By what percent did net income rise between FY2020 and FY2021?',
      { kind: 'percent', operation: 'percent_change', periodCount: 2 },
      'agree',
    ],
    // …but a level for a verb neither knows ("climb"): the cue reader's percent stops it.
    [
      'By what percent did net income climb between FY2020 and FY2021?',
      { kind: 'percent' },
      'disagree',
    ],
    [
      'How much did total assets change between FY2020 and FY2021, in USD millions?',
      { ...M, operation: 'change', periods: ['FY2020', 'FY2021'] },
      'agree',
    ],
    [
      'What is the FY2021 current ratio? Round to two decimal places.',
      { kind: 'ratio', rounding: 2, operation: 'quotient' },
      'agree',
    ],
    ['What is the FY2021 current ratio expressed as a decimal?', { kind: 'ratio' }, 'agree'],
    [
      'Compute the FY2022 quick ratio, defined as (cash + receivables) divided by current liabilities.',
      {
        kind: 'ratio',
        definition: { operator: '/', left: '(cash + receivables)', right: 'current liabilities' },
      },
      'unmapped',
    ],
    [
      'What is FY2021 inventory turnover? Inventory turnover is defined as COGS divided by average inventory. Round to one decimal place.',
      {
        kind: 'ratio',
        rounding: 1,
        definition: { operator: '/', left: 'cogs', right: 'average inventory' },
      },
      'agree',
    ],
    [
      'What is the three-year average revenue from FY2019 to FY2021 in USD millions?',
      { ...M, operation: 'average', periodCount: 3 },
      'agree',
    ],
    // The reworded average: the parser once averaged the last two of the three years
    // named; it reads the whole list now.
    [
      'What is the average operating margin for FY2018, FY2019 and FY2020, in percent?',
      { kind: 'percent', operation: 'average', periods: ['FY2018', 'FY2019', 'FY2020'] },
      'agree',
    ],
    [
      'What is the 3-year revenue CAGR from FY2018 to FY2021 in percent?',
      { kind: 'percent', operation: 'cagr', periods: ['FY2018', 'FY2021'] },
      'agree',
    ],
    [
      'What is FY2021 diluted earnings per share?',
      { kind: 'per_share', operation: 'level' },
      'agree',
    ],
    ['What was basic EPS in FY2020 (in USD)?', { kind: 'per_share', currency: 'USD' }, 'agree'],
    [
      'What is FY2021 days payable outstanding? Round to the nearest whole number.',
      { kind: 'days', rounding: 0 },
      'agree',
    ],
    [
      'How many shares were outstanding at the end of FY2021?',
      { kind: 'count', periods: ['FY2021'] },
      'unmapped',
    ],
    [
      'What is the FY2021 effective tax rate in percent?',
      { kind: 'percent', operation: 'quotient' },
      'agree',
    ],
    ['What is the FY2021 free cash flow in USD millions?', { ...M, operation: 'level' }, 'agree'],
    ['What is the FY2021 dividend payout ratio?', { kind: 'ratio' }, 'agree'],
    ['What is the FY2020 return on equity as a percentage?', { kind: 'percent' }, 'agree'],
    [
      'What was the FY2021 ratio of total debt to total equity, expressed as a decimal?',
      { kind: 'ratio', operation: 'quotient' },
      'unmapped',
    ],
    [
      'Net working capital is calculated as current assets minus current liabilities. What was it in FY2021 (USD millions)?',
      {
        ...M,
        periods: ['FY2021'],
        definition: { operator: '-', left: 'current assets', right: 'current liabilities' },
      },
      'unmapped',
    ],
    [
      'What is the difference between FY2021 revenue and cost of revenue in USD millions?',
      { ...M, operation: 'difference' },
      'unmapped',
    ],
    // "in USD millions" asks for the amount of the decrease; the parser once read a percent
    // change here (the gate caught it); it now reads the stated unit too.
    [
      'How much did operating income decrease from FY2020 to FY2021 (in USD millions)?',
      { ...M, operation: 'change' },
      'agree',
    ],
    [
      'What is the FY2021 capex as a % of revenue? Answer in units of percents and round to one decimal place.',
      { kind: 'percent', rounding: 1, operation: 'quotient' },
      'agree',
    ],
    // The case: "in units of percents" once read as a currency change by the parser.
    [
      'What is the year-over-year change in revenue from FY2021 to FY2022 (in units of percents and round to one decimal place)?',
      { kind: 'percent', operation: 'percent_change', rounding: 1, periods: ['FY2021', 'FY2022'] },
      'agree',
    ],
    // A defined quotient with no percent asked is a ratio, whatever its name suggests.
    [
      'What is the FY2022 return on assets (ROA)? ROA is defined as: FY2022 net income / (average total assets between FY2021 and FY2022). Round your answer to two decimal places.',
      { kind: 'ratio', operation: 'quotient', rounding: 2, periods: ['FY2022'] },
      'agree',
    ],
    [
      'What is the FY2022 cash conversion ratio? Cash conversion ratio is defined as: cash from operations / net income. Round your answer to two decimal places.',
      {
        kind: 'ratio',
        definition: { operator: '/', left: 'cash from operations', right: 'net income' },
      },
      'unmapped',
    ],
    ['What was Q3 FY2023 revenue in USD millions?', { ...M, periods: ['Q3 FY2023'] }, 'agree'],
  ])('%s', (question, expected, parser) => {
    const second = readAskedFormByCues(question);
    expect(second).toMatchObject(expected);
    const asked = askedFormFromParsed(parseQuestion(question));
    const verdict =
      asked === null
        ? 'unmapped'
        : readingDisagreements(asked, second).length
          ? 'disagree'
          : 'agree';
    expect(verdict).toBe(parser);
  });
});
