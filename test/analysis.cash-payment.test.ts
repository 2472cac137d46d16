import { isCashPayment, isOutflow } from '../activities/analysis/cash-payment';
import { checkLabelAgreement, type LabelEvidence } from '../workflows/analysis/label-agreement';

// Invented filer words for the label check ("Quillfeather Tools Inc.").
const FILER = ['quillfeather', 'tools', 'inc', 'annual', 'report', 'form', '10', 'k'];

function ev(question: string, _labels: string[], over: Partial<LabelEvidence>): LabelEvidence {
  return {
    question,
    entry: '',
    formula: false,
    catalogPhrases: [],
    read: [],
    filerWords: FILER,
    pageLabels: [],
    ...over,
  };
}

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

  it('lets the label check accept a pay verb on a row the filing prints as a cash payment, and only there', () => {
    const dividends = { entry: '', catalogPhrases: ['dividends to shareholders'], formula: false };
    const row = (payment: boolean | undefined) => ({
      ...dividends,
      read: [
        {
          metric: 'line_item',
          label: 'Dividends to shareholders',
          heading: 'Consolidated Statements of Cash Flows',
          page: 7,
          ...(payment === undefined ? {} : { payment }),
        },
      ],
    });
    const q = 'How much did Quillfeather pay in dividends to shareholders in FY2031?';
    expect(checkLabelAgreement(ev(q, [], row(true))).status).toBe('agree');
    // A cash payment is cash: "how much cash did X pay" needs no "cash" on the row either.
    const cashQ = 'How much cash did Quillfeather pay in dividends to shareholders in FY2031?';
    expect(checkLabelAgreement(ev(cashQ, [], row(true))).status).toBe('agree');
    expect(checkLabelAgreement(ev(cashQ, [], row(false))).unsupported).toContain('pay');
    // Not a payment where printed (or evidence recorded before the field): the verb still asks.
    for (const payment of [false, undefined]) {
      const c = checkLabelAgreement(ev(q, [], row(payment)));
      expect(c.status).toBe('mismatch');
      expect(c.unsupported).toEqual(['pay']);
    }
    // A payment row carries no other missing word: "foreign" still needs its row.
    const foreign = checkLabelAgreement(
      ev(
        'How much did Quillfeather pay in foreign dividends to shareholders in FY2031?',
        [],
        row(true),
      ),
    );
    expect(foreign.unsupported).toEqual(['foreign']);
  });
});
