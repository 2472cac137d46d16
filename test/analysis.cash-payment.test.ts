import { isCashPayment, isOutflow } from '../activities/analysis/cash-payment';

// An invented filer's statement of cash flows, laid out as pdf text extraction prints one.
const STATEMENT = [
  'QUILLFEATHER TOOLS INC.',
  'CONSOLIDATED STATEMENTS OF CASH FLOWS',
  '(in millions)   2031   2030',
  'Cash flows from operating activities',
  'Net earnings   $ 1,200   $ 1,050',
  'Changes in operating assets and liabilities:',
  'Income taxes   (45)   30',
  'Cash flows from investing activities',
  'Purchases of property and equipment   (310)   (288)',
  'Proceeds from sales of investments   120   95',
  'Cash flows from financing activities',
  'Dividends to shareholders   (402)   (377)',
  'Proceeds from issuance of long-term debt   500   —',
  'Supplemental disclosure of cash flow information:',
  'Cash paid during 2031 for:',
  'Interest   $ 149   $ 124',
  'Income taxes, net   $ 1,527   $ 1,052',
  'Supplemental disclosure of non-cash investing and financing activities:',
  'Capital expenditures included in liabilities   $ 55   $ 41',
].join('\n');

describe('a row the filing prints as a cash payment', () => {
  it('is an outflow of the investing or financing part, or a row under a "cash paid" caption', () => {
    const cases: [string, string, boolean][] = [
      ['Dividends to shareholders   (402)   (377)', '(402)', true],
      ['Purchases of property and equipment   (310)   (288)', '(310)', true],
      ['Interest   $ 149   $ 124', '$ 149', true],
      ['Income taxes, net   $ 1,527   $ 1,052', '$ 1,527', true],
      // Receipts are no payments; the operating part adjusts, it does not pay.
      ['Proceeds from sales of investments   120   95', '120', false],
      ['Proceeds from issuance of long-term debt   500   —', '500', false],
      ['Income taxes   (45)   30', '(45)', false],
      ['Net earnings   $ 1,200   $ 1,050', '$ 1,200', false],
      // A non-cash caption is never a payment, whatever part it names.
      ['Capital expenditures included in liabilities   $ 55   $ 41', '$ 55', false],
      // A line not on the page is not known to be anything.
      ['Repurchases of common stock   (900)', '(900)', false],
    ];
    for (const [quote, printed, expected] of cases)
      expect([quote, isCashPayment(STATEMENT, quote, printed)]).toEqual([quote, expected]);
  });

  it('reads an outflow from parentheses or a minus sign', () => {
    expect(['(402)', '$ (1,210.5)', '-17', '−3'].map(isOutflow)).toEqual([true, true, true, true]);
    expect(['402', '$ 1,210', '—', ''].map(isOutflow)).toEqual([false, false, false, false]);
  });
});
