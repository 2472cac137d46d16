import { answerQuestion } from '../activities/analysis/extraction';
import { extractDefined } from '../activities/analysis/extract-defined';
import { periodLabel, readPeriodWords } from '../activities/analysis/extraction/period-words';
import { parseQuestion } from '../activities/analysis/extraction/question-parser';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { pagesOf } from './extraction.fixtures';

/**
 * A 10-Q prints its columns by span and end date: three and six months ended the same day. A
 * question that quotes the date and the span is read from exactly that column (issue 20,
 * "periods as a filing prints them"); one that quotes a date without a span, or a date that
 * falls in another fiscal year than the one it names, goes to a person. The company's fiscal
 * year ends in early February, so July is its second quarter of the year named after the
 * February it ends in.
 */
const QUARTERLY_PAGE = [
  'RETAILCO, INC.',
  'CONDENSED CONSOLIDATED STATEMENTS OF EARNINGS',
  '(Unaudited, in millions, except per share amounts)',
  'Three Months Ended   Six Months Ended',
  'July 29, 2023   July 30, 2022   July 29, 2023   July 30, 2022',
  'Revenue   $ 9,583   $ 10,329   $ 19,050   $ 20,976',
  'Cost of sales   7,363   8,042   14,606   16,272',
  'Gross profit   2,220   2,287   4,444   4,704',
  'Selling, general and administrative expenses   1,824   1,882   3,680   3,783',
  'Restructuring charges   (1)   34   (1)   35',
  'Operating income   397   371   765   886',
  'Net earnings   $ 274   $ 306   $ 519   $ 647',
  'Diluted earnings per share   $ 1.25   $ 1.35   $ 2.34   $ 2.86',
].join('\n');
const CALENDAR_PAGE = [
  'Basis of Presentation',
  'Our fiscal year ends on the Saturday nearest the end of January. Fiscal 2024 ends on February 3, 2024',
  'and fiscal 2023 ended on January 28, 2023. The fiscal year ended January 28, 2023 included 52 weeks.',
].join('\n');
const PAGES = pagesOf(QUARTERLY_PAGE, CALENDAR_PAGE);

describe('periods named by their span and end date', () => {
  it('reads the dates and the one span a question names', () => {
    expect(readPeriodWords('revenue for the three months ended july 29, 2023')).toEqual({
      dates: [{ raw: 'july 29, 2023', year: 2023, month: 7, day: 29 }],
      months: 3,
    });
    expect(readPeriodWords('first half of fiscal 2024').months).toBe(6);
    expect(readPeriodWords('the thirty-nine weeks ended october 28, 2023').months).toBe(9);
    expect(readPeriodWords('using the six-month and three-month columns').months).toBe('several');
    expect(readPeriodWords('revenue in fiscal 2023').months).toBeNull();
  });

  it('names a dated period as the cue reader does', () => {
    const q =
      "What was RetailCo's revenue for the second quarter of fiscal 2024 (three months ended July 29, 2023)? Answer in USD millions.";
    const parsed = parseQuestion(q);
    expect(parsed.period).toMatchObject({
      months: 3,
      endDate: { year: 2023, month: 7, day: 29 },
      quarter: 2,
      fiscalYear: 2024,
      fiscalYearStated: true,
    });
    // Named as the cue reader names it: the question's own fiscal quarter.
    expect(periodLabel(parsed.period!)).toBe('Q2 FY2024');
    expect(readAskedFormByCues(q).periods).toEqual(['Q2 FY2024']);
    // With no fiscal year in the question, by its span and date (the cue reader reads none).
    const dateOnly = 'What was revenue for the three months ended July 29, 2023?';
    expect(periodLabel(parseQuestion(dateOnly).period!)).toBe('three months ended 2023-07-29');
    expect(readAskedFormByCues(dateOnly).periods).toBeNull();
  });

  it('reads the three-month and the six-month column of the same date apart', () => {
    const three = answerQuestion({
      question:
        'What was revenue for the three months ended July 29, 2023? Answer in USD millions.',
      pages: PAGES,
    });
    expect(three).toMatchObject({ status: 'answered', answer: '$9,583 million' });
    // Not a catalog metric: the filing's own row, by the line-item path.
    const q =
      'What restructuring charges did RetailCo record in the six months ended July 30, 2022? Answer in USD millions.';
    expect(extractDefined('retailco-q2', q, PAGES, readAskedFormByCues(q), true)).toMatchObject({
      status: 'structured',
      answer: '$35 million',
    });
    const sixRevenue = answerQuestion({
      question: 'What was revenue for the six months ended July 29, 2023? Answer in USD millions.',
      pages: PAGES,
    });
    expect(sixRevenue).toMatchObject({ status: 'answered', answer: '$19,050 million' });
    if (sixRevenue.status === 'answered')
      expect(sixRevenue.readPeriod).toMatchObject({ months: 6, fiscalYear: 2024 });
  });

  it('computes a catalog ratio over the dated columns only', () => {
    const r = answerQuestion({
      question:
        'What was the gross margin for the quarter ended July 29, 2023? Answer as a percentage rounded to one decimal place.',
      pages: PAGES,
    });
    expect(r).toMatchObject({ status: 'answered', answer: '23.2%' });
  });

  it("compiles a question's own definition over the dated columns", () => {
    const q =
      'What was operating income as a % of revenue for the six months ended July 29, 2023? Answer in percent to two decimal places.';
    const r = extractDefined('retailco-q2', q, PAGES, readAskedFormByCues(q), true);
    expect(r).toMatchObject({ status: 'structured', answer: '4.02%', method: 'code' });
  });

  it('reads a year to date named without its date ("the first six months of fiscal 2024")', () => {
    const q =
      "What were RetailCo's selling, general and administrative expenses for the first six months of fiscal 2024? Answer in USD millions.";
    expect(extractDefined('retailco-q2', q, PAGES, readAskedFormByCues(q), true)).toMatchObject({
      status: 'structured',
      answer: '$3,680 million',
    });
  });

  it('learns how the filer names its fiscal years from a quarter it dates in prose', () => {
    // No "fiscal 2024 ends on …" here: only the 10-Q's own sentence ties a fiscal year to a date.
    const prose = [
      'Our fiscal year ends on the Saturday nearest the end of January.',
      'Our Annual Report covers the fiscal year ended January 28, 2023.',
      'Between the end of the second quarter of fiscal 2024 on July 29,',
      '2023, and August 25, 2023, we repurchased shares.',
    ].join('\n');
    const q =
      "What was RetailCo's operating margin for the first six months of fiscal 2024? Answer in units of percents, rounded to two decimal places.";
    expect(answerQuestion({ question: q, pages: pagesOf(QUARTERLY_PAGE, prose) })).toMatchObject({
      status: 'answered',
      answer: '4.02%',
    });
    // Without that sentence the year's name is a guess, and the answer waits for a person.
    expect(
      answerQuestion({
        question: q,
        pages: pagesOf(
          QUARTERLY_PAGE,
          'Our fiscal year ends on the Saturday nearest the end of January.\nOur Annual Report covers the fiscal year ended January 28, 2023.',
        ),
      }).status,
    ).toBe('needs_review');
  });

  it("reads an operand at a date of its own from that date's column, not its calendar year's", () => {
    const balance = [
      'RETAILCO, INC.',
      'CONDENSED CONSOLIDATED BALANCE SHEETS',
      '($ in millions) (Unaudited)',
      'July 29, 2023   January 28, 2023   July 30, 2022',
      'Total current assets   12,214   12,902   13,967',
      'Total assets   15,030   15,803   17,090',
      'Accounts payable   5,716   6,041   6,978',
      'Accrued liabilities   709   843   820',
      'Total current liabilities   10,052   11,582   11,874',
    ].join('\n');
    const pages = pagesOf(QUARTERLY_PAGE, CALENDAR_PAGE, balance);
    const q =
      "Define RetailCo's accrued liabilities ratio as accrued liabilities at July 29, 2023 divided by total current liabilities at July 29, 2023. What was it? Round to three decimal places.";
    const r = extractDefined('retailco-bs', q, pages, readAskedFormByCues(q), true);
    expect(r).toMatchObject({ status: 'structured', answer: '0.071' });
    // 709 / 10,052 from the July 29, 2023 column (before: the January 28, 2023 year-end's
    // 843 / 11,582 = 0.073, the column of fiscal 2023 taken from the date's calendar year).
    expect(r!.citations.map((c) => c.quote)).toEqual([
      expect.stringMatching(/^Accrued liabilities\s+709\b/),
      expect.stringMatching(/^Total current liabilities\s+10,052\b/),
    ]);
    // One operand dated, the other not: the undated one is read at the same date.
    const q2 =
      "Define the ratio as accrued liabilities at July 29, 2023 divided by total current liabilities. What was RetailCo's ratio? Round to three decimal places.";
    const r2 = extractDefined('retailco-bs', q2, pages, readAskedFormByCues(q2), true);
    expect(r2).toMatchObject({ status: 'structured', answer: '0.071' });
    // A flow at a bare date has no column: a person reads it.
    const q3 =
      'Define the margin as operating income at July 29, 2023 divided by revenue at July 29, 2023. What was it? Round to three decimal places.';
    expect(extractDefined('retailco-bs', q3, pages, readAskedFormByCues(q3), true)).toMatchObject({
      status: 'not_found',
      answer: null,
    });
  });

  it('sends a flow at a date without its span, or a date outside the fiscal year named, to a person', () => {
    const noSpan = answerQuestion({
      question: 'What was revenue for the period ended July 29, 2023? Answer in USD millions.',
      pages: PAGES,
    });
    expect(noSpan.status).toBe('needs_review');
    const otherYear = answerQuestion({
      question:
        'What was revenue for the second quarter of fiscal 2023 (three months ended July 29, 2023)? Answer in USD millions.',
      pages: PAGES,
    });
    expect(otherYear.status).toBe('needs_review');
    if (otherYear.status === 'needs_review')
      expect(otherYear.reason).toMatch(/falls in FY2024 of this filing's calendar, not the FY2023/);
  });
});
