import {
  answerOverPeriods,
  readOverPeriods,
} from '../activities/analysis/extraction/definition/answer-over-periods';
import { figure as figureOf } from '../activities/analysis/extraction/definition/compared-figure';
import { extractDefined } from '../activities/analysis/extract-defined';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { BALANCE_PAGE, CASH_FLOW_PAGE, INCOME_PAGE, pagesOf } from './extraction.fixtures';

/**
 * A printed figure summed or averaged over the years a question lists (issue 20): each year
 * read from the filing's rows and cited, the arithmetic exact, an outflow asked as an amount
 * paid or an expense given as its size.
 */
const PAGES = pagesOf(INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE);

describe('sums and averages over listed years', () => {
  it('reads lists, ranges and "the last three fiscal years (…)"', () => {
    expect(
      readOverPeriods("What was Example's total interest expense over 2017, 2018 and 2019?"),
    ).toEqual({ operation: 'sum', subject: 'interest expense', years: [2017, 2018, 2019] });
    expect(
      readOverPeriods('What was the average gross profit over FY2017 to FY2019 (three years)?'),
    ).toEqual({ operation: 'average', subject: 'gross profit', years: [2017, 2018, 2019] });
    expect(
      readOverPeriods(
        'What was the total of dividends paid over the last two fiscal years (2018-2019)? Answer in USD millions.',
      ),
    ).toMatchObject({ operation: 'sum', years: [2018, 2019] });
    expect(readOverPeriods('What was revenue in 2019?')).toBeNull();
    expect(readOverPeriods('What was the total revenue in 2019?')).toBeNull();
  });

  it('reads the figure around the verb and the party a question names', () => {
    expect(
      readOverPeriods(
        'How much did Example Corp spend in total on repurchases of common stock over fiscal years 2017, 2018 and 2019 combined?',
      ),
    ).toEqual({
      operation: 'sum',
      subject: 'repurchases of common stock',
      years: [2017, 2018, 2019],
    });
    expect(
      readOverPeriods(
        'What was the total cash Example Corp spent on repurchases of common stock in 2018 and 2019 combined?',
      ),
    ).toMatchObject({ subject: 'repurchases of common stock', years: [2018, 2019] });
    expect(
      readOverPeriods(
        'What was the total of dividends paid by Example Corp over the last two fiscal years (2018-2019)?',
      ),
    ).toMatchObject({ subject: 'dividends paid' });
    expect(
      readOverPeriods(
        'What was the total depreciation and amortization Example Corp recorded over its fiscal years 2018 and 2019?',
      ),
    ).toMatchObject({ subject: 'depreciation and amortization' });
    // Lower-case words after "by" are the figure's own: "cash provided by operating activities".
    expect(
      readOverPeriods(
        'What was the total cash provided by operating activities over 2018 and 2019?',
      ),
    ).toMatchObject({ subject: 'cash provided by operating activities' });
  });

  it('reads a payment asked of the statement of cash flows from its "paid" row', () => {
    const r = answerOverPeriods(
      'Using the statements of cash flows, how much did Example pay in dividends in total over 2018 and 2019? Answer in USD millions.',
      PAGES,
    );
    expect(r).toMatchObject({ status: 'answered', answer: '$115 million' });
    if (r.status === 'answered')
      expect(r.inputs.map((i) => i.matchedLabel)).toEqual(['Dividends paid', 'Dividends paid']);
    // Without the statement named, "dividends" is still the catalog's own name for the
    // dividends paid, read by the catalog's rows: the same answer from the same rows.
    const unnamed = answerOverPeriods(
      'How much did Example pay in dividends in total over 2018 and 2019? Answer in USD millions.',
      PAGES,
    );
    expect(unnamed).toMatchObject({ status: 'answered', answer: '$115 million' });
    if (unnamed.status === 'answered')
      expect(unnamed.inputs.map((i) => [i.metric, i.matchedLabel])).toEqual([
        ['dividends_paid', 'Dividends paid'],
        ['dividends_paid', 'Dividends paid'],
      ]);
    // A word the catalog does not use for a figure is no operand of its own.
    expect(
      answerOverPeriods(
        'How much did Example pay in distributions in total over 2018 and 2019? Answer in USD millions.',
        PAGES,
      ).status,
    ).toBe('needs_review');
  });

  it('sums each cited year, an expense as its size', () => {
    const r = answerOverPeriods(
      "What was Example's total interest expense over 2017, 2018 and 2019? Answer in USD millions.",
      PAGES,
    );
    expect(r).toMatchObject({
      status: 'answered',
      answer: '$93 million',
      delivered: {
        kind: 'currency_amount',
        operation: 'sum',
        periods: ['FY2017', 'FY2018', 'FY2019'],
        periodCount: 3,
      },
    });
    if (r.status !== 'answered') throw new Error('not answered');
    expect(r.inputs.map((i) => i.printed)).toEqual(['(28)', '(30)', '(35)']);
  });

  it('keeps the printed sign of a figure that is not an outflow, and averages', () => {
    expect(
      answerOverPeriods('What was the cumulative net income over FY2017-FY2019?', PAGES),
    ).toMatchObject({ status: 'answered', answer: '$476 million' });
    expect(
      answerOverPeriods(
        'What was the average gross profit over fiscal years 2017, 2018 and 2019? Answer in USD millions.',
        PAGES,
      ),
    ).toMatchObject({
      status: 'answered',
      answer: '$740 million',
      delivered: { operation: 'average' },
    });
  });

  it('gives the amount paid when the question asks what was paid', () => {
    expect(
      answerOverPeriods(
        'How much did Example pay in dividends paid in total over 2018 and 2019? Answer in USD millions.',
        PAGES,
      ),
    ).toMatchObject({ status: 'answered', answer: '$115 million' });
  });

  it('sends a year the filing does not print, or a per-share figure, to a person', () => {
    expect(
      answerOverPeriods('What was the total gross profit over 2016 and 2017?', PAGES),
    ).toMatchObject({ status: 'needs_review' });
    expect(
      answerOverPeriods(
        'What was the average diluted earnings per share over 2018 and 2019?',
        PAGES,
      ),
    ).toMatchObject({ status: 'needs_review' });
  });
});

describe('the over-periods path inside extract_metric', () => {
  it('reads "over" before a list of years as the period, not as a division', () => {
    const q =
      "What was Example's total interest expense over 2017, 2018 and 2019? Answer in USD millions.";
    expect(extractDefined('doc', q, PAGES, readAskedFormByCues(q), true)).toMatchObject({
      status: 'structured',
      answer: '$93 million',
      method: 'code',
    });
  });

  it('never takes a parenthesis of generic words for the row ("(and other)" is not "Other, net")', () => {
    const r = answerOverPeriods(
      'What was the total amount spent on repurchases of common stock (and other) over 2017 and 2019?',
      pagesOf(`${CASH_FLOW_PAGE}\nOther, net   12   10   8`),
    );
    const read = r.status === 'answered' ? r.inputs.map((i) => i.matchedLabel) : [];
    expect(read.filter((l) => /^other/i.test(l))).toEqual([]);
    expect(figureOf('and other')).toEqual({ unparsed: 'and other' });
  });
});
