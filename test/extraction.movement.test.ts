import {
  answerMovement,
  readMovement,
} from '../activities/analysis/extraction/definition/answer-movement';
import { BALANCE_PAGE, CASH_FLOW_PAGE, INCOME_PAGE, pagesOf } from './extraction.fixtures';

/**
 * A printed figure's movement between two periods the question names (issue 20, item 1):
 * read for each period from the filing's own rows, each reading cited; the change is
 * end − start, the percent change that over the start.
 */
const PAGES = pagesOf(INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE);

describe('movement questions over printed line items', () => {
  it('reads the three ways a question asks how a figure moved', () => {
    expect(
      readMovement(
        "How much did Example's accounts payable increase from December 31, 2018 to December 31, 2019, in USD millions?",
      ),
    ).toMatchObject({ subject: "example's accounts payable", word: 'increase', percent: false });
    expect(
      readMovement('By what percentage did cost of revenues rise from 2018 to 2019?'),
    ).toMatchObject({ subject: 'cost of revenues', word: 'rise', percent: true });
    expect(
      readMovement(
        'What was the percent change in goodwill between the FY2018 and FY2019 balance sheets?',
      ),
    ).toMatchObject({ subject: 'goodwill', word: 'change', percent: true });
    // A third period is another question.
    expect(readMovement('How much did revenue change from 2017 to 2018 and 2019?')).toBeNull();
    expect(readMovement('What was revenue in 2019?')).toBeNull();
  });

  it('answers an amount change in the scale asked, citing both readings', () => {
    const r = answerMovement(
      'How much did accounts payable increase from December 31, 2018 to December 31, 2019? Answer in USD millions.',
      PAGES,
    );
    expect(r).toMatchObject({
      status: 'answered',
      answer: '$20 million',
      unit: 'USD',
      value: '20000000',
      delivered: {
        kind: 'currency_amount',
        scale: 'millions',
        periods: ['FY2018', 'FY2019'],
        periodCount: 2,
        operation: 'change',
      },
    });
    if (r.status !== 'answered') throw new Error('not answered');
    expect(r.inputs.map((i) => i.printed)).toEqual(['$ 170', '$ 190']);
    expect(r.citations).toHaveLength(2);
  });

  it('answers a percent change over the start, rounded as asked', () => {
    expect(
      answerMovement(
        'By what percentage did cost of revenues rise from 2018 to 2019? Round to one decimal place.',
        PAGES,
      ),
    ).toMatchObject({
      status: 'answered',
      answer: '9.5%',
      delivered: { kind: 'percent', operation: 'percent_change', rounding: 1 },
    });
  });

  it('gives the size of a fall unless a sign is asked for', () => {
    const size = answerMovement(
      'How much did long-term debt decrease from 2018 to 2019, in USD millions?',
      PAGES,
    );
    expect(size).toMatchObject({ status: 'answered', answer: '$20 million' });
    const signed = answerMovement(
      'By what percentage did long-term debt decline from 2018 to 2019? Give a signed answer to one decimal place.',
      PAGES,
    );
    expect(signed).toMatchObject({ status: 'answered', answer: '-2.8%' });
  });

  it('sends to a person what it must not answer', () => {
    // The verb says up, the figures went down.
    expect(
      answerMovement('How much did long-term debt increase from 2018 to 2019?', PAGES),
    ).toMatchObject({ status: 'needs_review', reason: expect.stringMatching(/other way/) });
    // A percent change from a negative base.
    expect(
      answerMovement('By what percentage did operating income change from 2018 to 2019?', PAGES),
    ).toMatchObject({ status: 'needs_review', reason: expect.stringMatching(/negative base/) });
    // A margin's change: points or relative.
    expect(
      answerMovement('By what percentage did gross margin change from 2018 to 2019?', PAGES),
    ).toMatchObject({ status: 'needs_review' });
    // An amount change of a per-share figure is not a currency amount of the table's scale.
    expect(
      answerMovement('How much did diluted earnings per share change from 2018 to 2019?', PAGES),
    ).toMatchObject({ status: 'needs_review' });
    // A figure the filing does not print.
    expect(
      answerMovement('How much did customer deposits change from 2018 to 2019?', PAGES),
    ).toMatchObject({ status: 'needs_review', reason: expect.stringMatching(/not a printed/) });
  });
});
