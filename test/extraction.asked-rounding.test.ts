import { askedRounding } from '../activities/analysis/extraction/asked-rounding';
import { parseQuestion } from '../activities/analysis/extraction';

/**
 * One reader of the precision a question asks, shared by the catalog, the question's own
 * definition and the facts path. Three readers had drifted: "Round to two decimals", "to one
 * decimal" and "to the nearest million" were read by the cue reader but not by the parser, so
 * the gate saw two readings disagree and sent correct answers to review.
 */
describe('askedRounding', () => {
  it.each([
    ['Round to two decimals.', 2],
    ['Answer as a percent to one decimal.', 1],
    ['Answer in USD billions, one decimal.', 1],
    ['Answer in USD millions, rounded to the nearest million.', 0],
    ['Round your answer to 2 decimal places.', 2],
    ['with three decimals', 3],
    ['two digits after the decimal', 2],
    ['rounded to a whole number', 0],
    ['to the nearest whole percent', 0],
    ['to the nearest tenth of a percent', 1],
    ['to the nearest cent', 2],
    ['Expressed as a decimal, rounded to two decimal places', 2],
  ])('%s → %s', (q, dp) => expect(askedRounding(q)).toBe(dp));

  it.each([
    'What was net income in FY2022?',
    'Express the ratio as a decimal.',
    'What is the decimal point convention?',
  ])('asks no precision: %s', (q) => expect(askedRounding(q)).toBeNull());

  it('the parser carries the asked precision even for a question it does not map', () => {
    expect(
      parseQuestion(
        'What is the equity multiplier at the end of FY2017, calculated as total assets divided by total equity? Round to two decimals.',
      ),
    ).toMatchObject({ kind: 'unsupported', rounding: 2 });
    expect(
      parseQuestion('What was gross profit margin for FY2019? Answer as a percent to one decimal.'),
    ).toMatchObject({ kind: 'formula', rounding: 1 });
  });
});
