// Numeric yes/no questions answered from the cited numbers the comparison needs: one figure
// between two periods, two figures in one period, a figure against a threshold. The pages are
// invented (extraction.fixtures.ts and the interim and quarterly pages below).
import { answerYesNo } from '../activities/analysis/extraction/definition/yes-no';
import { answerQuestion } from '../activities/analysis/extraction';
import { BALANCE_PAGE, CASH_FLOW_PAGE, INCOME_PAGE, pagesOf } from './extraction.fixtures';

const PAGES = pagesOf(INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE);

describe('numeric yes/no answered from the cited numbers', () => {
  it('states the comparison it rests on', () => {
    const up = answerYesNo(
      "Did Example's operating margin (operating income / total net revenues) increase from 2018 to 2019?",
      PAGES,
    );
    // 400 / 2,000 = 20.00% in 2019 against −20 / 1,800 = −1.11% in 2018.
    expect(up).toMatchObject({ status: 'answered', verdict: true });
    if (up.status === 'answered')
      expect(up.answer).toBe(
        'Yes: 20.00% (operating income / total net revenues, FY2019) is higher than -1.11% (operating income / total net revenues, FY2018)',
      );
    expect(
      answerYesNo(
        'Was the ratio of total current assets to total current liabilities above 2.5 at December 31, 2019?',
        PAGES,
      ),
    ).toMatchObject({
      status: 'answered',
      verdict: false,
      answer: expect.stringMatching(/^No: 1\.990/),
    });
    expect(
      answerYesNo('Did dividends paid exceed repurchases of common stock in 2019?', PAGES),
    ).toMatchObject({ status: 'answered', verdict: false });
    // The period may follow the first figure; the comparison is the same.
    const between = answerYesNo(
      "Did Example's repurchases of common stock in 2019 exceed its dividends paid?",
      PAGES,
    );
    expect(between).toMatchObject({ status: 'answered' });
    const after = answerYesNo(
      "Did Example's repurchases of common stock exceed its dividends paid in 2019?",
      PAGES,
    );
    expect(between).toEqual(after);
    // "Pay more in A than it spent on B": dividends 60 vs repurchases 100 in 2019.
    expect(
      answerYesNo(
        'Did Example Corp pay more in dividends paid than it spent on repurchases of common stock in 2019?',
        PAGES,
      ),
    ).toMatchObject({ status: 'answered', verdict: false });
    expect(
      answerYesNo(
        'Did Example Corp spend less on dividends paid than on repurchases of common stock in 2019?',
        PAGES,
      ),
    ).toMatchObject({ status: 'answered', verdict: true });
  });

  it('compares one figure between two periods however the question orders them', () => {
    // An invented interim statement: quarters and six months of a calendar-year filer.
    const interim = [
      'EXAMPLE CORP. AND SUBSIDIARIES',
      'CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS',
      '(In millions) (Unaudited)',
      'Three Months Ended   Six Months Ended',
      'June 30, 2020   June 30, 2019   June 30, 2020   June 30, 2019',
      'Total net revenues   $ 520   $ 490   $ 1,010   $ 970',
      'Cost of revenues   310   295   600   590',
      'Gross profit   210   195   410   380',
      'Operating income   64   70   125   130',
      'Net income   $ 48   $ 51   $ 94   $ 99',
    ].join('\n');
    const pages = pagesOf(INCOME_PAGE, interim);
    const cases: [string, boolean, string][] = [
      [
        "Was Example's operating income lower in the three months ended June 30, 2020 than in the three months ended June 30, 2019?",
        true,
        'Yes: $64 million (operating income, three months ended 2020-06-30) is lower than $70 million (operating income, three months ended 2019-06-30)',
      ],
      [
        "Did Example's net income for the six months ended June 30, 2020 increase compared with the six months ended June 30, 2019?",
        false,
        'No: $94 million (net income, six months ended 2020-06-30) is not higher than $99 million (net income, six months ended 2019-06-30)',
      ],
      [
        "Did Example's cost of revenues in the three months ended June 30, 2020 exceed its cost of revenues in the three months ended June 30, 2019?",
        true,
        'Yes: $310 million',
      ],
      [
        "Was Example's gross margin (gross profit / total net revenues) higher for the six months ended June 30, 2020 than for the six months ended June 30, 2019?",
        true,
        'Yes: 40.59% (gross profit / total net revenues, six months ended 2020-06-30) is higher than 39.18%',
      ],
    ];
    for (const [q, verdict, answer] of cases) {
      const r = answerYesNo(q, pages);
      expect([q, r]).toMatchObject([q, { status: 'answered', verdict }]);
      if (r.status === 'answered') {
        expect(r.answer.startsWith(answer)).toBe(true);
        expect(r.form.operation).toBe('change');
      }
    }
    // "Was there any decline in X between P1 and P2": the later period is compared, whichever
    // the question names first.
    const decline = (a: string, b: string) =>
      answerYesNo(
        `Was there any decline in operating income between the three months ended ${a} and the three months ended ${b}?`,
        pages,
      );
    const forward = decline('June 30, 2019', 'June 30, 2020');
    expect(forward).toMatchObject({
      status: 'answered',
      verdict: true,
      answer: expect.stringMatching(
        /^Yes: \$64 million \(operating income, three months ended 2020-06-30\) is lower than \$70 million/,
      ),
    });
    expect(decline('June 30, 2020', 'June 30, 2019')).toEqual(forward);
    expect(
      answerYesNo(
        'Was there any change in gross profit between the six months ended June 30, 2020 and the six months ended June 30, 2019?',
        pages,
      ),
    ).toMatchObject({
      status: 'answered',
      verdict: true,
      answer: expect.stringContaining('different from'),
    });
    // The same period twice compares nothing; "improved" of a figure that is not a margin is
    // a judgment on its direction.
    expect(
      answerYesNo('Was operating income higher in 2019 than in fiscal 2019?', PAGES),
    ).toMatchObject({ status: 'needs_review' });
    expect(
      answerYesNo('Did operating income in 2019 improve compared with 2018?', PAGES),
    ).toMatchObject({ status: 'needs_review' });
  });

  it('reads an operand the catalog names ("sales") by the catalog’s rows, and a quarter of a same-year formula', () => {
    // An invented earnings release's quarter: "SECOND QUARTER" over the two years' columns.
    const quarter = [
      'EXAMPLE CORP. AND SUBSIDIARIES',
      'Condensed Consolidated Statement of Earnings',
      '(Unaudited; in Millions)   SECOND QUARTER',
      '2020   2019',
      'Sales to customers   $ 520   $ 490',
      'Cost of products sold   310   295',
      'Gross profit   210   195',
      'Income before income taxes   80   75',
      'Income tax expense   20   15',
      'Net income   $ 60   $ 60',
    ].join('\n');
    const pages = pagesOf(INCOME_PAGE, quarter);
    // "sales" is no printed row, but the catalog's name for revenue: "Sales to customers".
    const r = answerYesNo(
      "Did Example's net income as a percent of sales increase in Q2 of 2020 compared to Q2 of 2019?",
      pages,
    );
    expect(r).toMatchObject({ status: 'answered', verdict: false });
    if (r.status === 'answered') {
      expect(r.answer).toMatch(
        /^No: 11\.54% \(net income \/ sales, Q2 FY2020\) is not higher than 12\.24%/,
      );
      expect(r.inputs.map((i) => i.matchedLabel)).toContain('Sales to customers');
    }
    // A formula whose inputs are all of the year computed is read for the quarter asked.
    expect(
      answerQuestion({ question: "What was Example's effective tax rate in Q2 2020?", pages }),
    ).toMatchObject({
      status: 'answered',
      answer: '25%',
      period: 'Q2 FY2020',
      // The form check compares the period the figures were read for: the quarter.
      readPeriod: { fiscalYear: 2020, quarter: 2 },
    });
  });

  it('does not guess a figure the question names without defining', () => {
    expect(answerYesNo('Did the current ratio increase from 2018 to 2019?', PAGES)).toMatchObject({
      status: 'needs_review',
    });
    expect(answerYesNo('Did revenue growth improve from 2018 to 2019?', PAGES)).toMatchObject({
      status: 'needs_review',
    });
  });
});
