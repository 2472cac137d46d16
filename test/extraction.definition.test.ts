import { answerDefined } from '../activities/analysis/extraction/definition/answer-defined';
import {
  itemsOf,
  parseExpression,
  showExpression,
  type Expr,
  type ItemNode,
} from '../activities/analysis/extraction/definition/grammar';
import { resolveLineItem } from '../activities/analysis/extraction/definition/line-item';
import {
  readDefinition,
  readLineItemQuestion,
} from '../activities/analysis/extraction/definition/question-definition';
import { shareCountOf } from '../activities/analysis/extraction/definition/share-count';
import { indexDocument } from '../activities/analysis/extraction/extract-metric';
import { BALANCE_PAGE, CASH_FLOW_PAGE, INCOME_PAGE, pagesOf } from './extraction.fixtures';

const PAGES = pagesOf(INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE);

function parsed(text: string): Expr {
  const r = parseExpression(text);
  if (!r.ok) throw new Error(`not parsed: ${r.unparsed}`);
  return r.expr;
}

describe('definition grammar', () => {
  it('keeps only the name of a line item: statement, owner, period and unit words are read apart', () => {
    const item = (text: string) => {
      const e = parsed(text);
      return e.kind === 'item' ? [e.name, e.year ?? null, e.statement ?? null] : null;
    };
    expect(item("total online revenue in best buy's fiscal q2 2024, in usd billions")).toEqual([
      'total online revenue',
      2024,
      null,
    ]);
    expect(
      item('gross margin (in dollars) for 2019 on its consolidated statement of income'),
    ).toEqual(['gross margin', 2019, 'income']);
    expect(item('net sales in the consolidated statements of operations')).toEqual([
      'net sales',
      null,
      'income',
    ]);
    expect(item('capital expenditures per the consolidated statement of cash flows')).toEqual([
      'capital expenditures',
      null,
      'cash_flow',
    ]);
  });

  it('leaves ", as a percentage …" out of the last operand', () => {
    const e = parsed(
      'cost of sales divided by net sales, as a percentage rounded to one decimal place',
    );
    expect(itemsOf(e).map((i) => i.name)).toEqual(['cost of sales', 'net sales']);
  });

  it('reads the operators in words and symbols', () => {
    expect(
      showExpression(
        parsed('net cash provided by operating activities divided by total current liabilities'),
      ),
    ).toBe('net cash provided by operating activities / total current liabilities');
    expect(showExpression(parsed('revenues less cost of sales less total expenses'))).toBe(
      '(revenues - cost of sales) - total expenses',
    );
    expect(showExpression(parsed('ratio of accounts payable to inventories'))).toBe(
      'accounts payable / inventories',
    );
    const pct = parsed('sg&a as a % of net sales');
    expect(pct).toMatchObject({ kind: 'bin', op: '/', percentOf: true });
    expect(showExpression(parsed('365 × inventories / cost of sales'))).toBe(
      '(365 × inventories) / cost of sales',
    );
    expect(showExpression(parsed('(cash + short-term investments) / current liabilities'))).toBe(
      '(cash + short-term investments) / current liabilities',
    );
  });

  it('leaves out of an operand’s name what says where it is printed and how to answer', () => {
    // Invented filer; each phrase is what remains of a question once its lead-in is read.
    const names: [string, string, Partial<ItemNode>][] = [
      ['revenues: what was it, in percent to one decimal place', 'revenues', {}],
      ['total expenses, expressed as a decimal rounded to two places', 'total expenses', {}],
      ['cost of sales, using december 31, 2031 balances', 'cost of sales', {}],
      [
        'balance of gross unrecognized tax benefits at december 31, 2031, from the reconciliation in the income tax note',
        'gross unrecognized tax benefits',
        { year: 2031 },
      ],
      [
        "balance of contract assets on quillfeather tools' balance sheet at december 31, 2031",
        'contract assets',
        { year: 2031, statement: 'balance' },
      ],
      [
        'depreciation as shown in the cash flow statement',
        'depreciation',
        { statement: 'cash_flow' },
      ],
      ['net card fees in fy2031, in millions of dollars', 'net card fees', { year: 2031 }],
      ['membership fees in fiscal 2031 (52 weeks ended august 31, 2031)', 'membership fees', {}],
      ['interest income in 2031 according to note 18', 'interest income', { year: 2031 }],
      [
        'restructuring charges in its fy2031 statement of earnings',
        'restructuring charges',
        { year: 2031, statement: 'income' },
      ],
      [
        'interest paid according to the supplemental disclosure of cash flow information',
        'interest paid',
        {},
      ],
      // A date in parentheses restating the period the words name.
      ['goodwill at fiscal year-end 2031 (january 2, 2032)', 'goodwill', { year: 2031 }],
      [
        'cash dividend payments (cash flow statement, usd millions)',
        'cash dividend payments',
        { statement: 'cash_flow' },
      ],
      [
        'the basic shares used in calculation (printed in thousands)',
        'basic shares used in calculation',
        {},
      ],
    ];
    for (const [text, name, more] of names)
      expect(parsed(text)).toMatchObject({ kind: 'item', name, ...more });
  });

  it('reads "divided by" loosest, as the answer-form contract splits a definition', () => {
    expect(parsed('operating income minus taxes divided by revenue')).toMatchObject({
      kind: 'bin',
      op: '/',
      left: { kind: 'bin', op: '-' },
    });
  });

  it('gives each operand its own year and statement, and averages over named years', () => {
    expect(parsed('fy2021 cost of goods sold')).toMatchObject({
      kind: 'item',
      name: 'cost of goods sold',
      year: 2021,
    });
    expect(parsed('accounts payable at august 29, 2021')).toMatchObject({
      name: 'accounts payable',
      year: 2021,
    });
    expect(parsed('depreciation and amortization (cash flow statement)')).toMatchObject({
      name: 'depreciation and amortization',
      statement: 'cash_flow',
    });
    const avg = parsed('the average of fy2020 and fy2021 year-end merchandise inventories');
    expect(avg).toMatchObject({
      kind: 'avg',
      args: [
        { name: 'merchandise inventories', year: 2020 },
        { name: 'merchandise inventories', year: 2021 },
      ],
    });
  });

  it('refuses what it cannot read, naming the part', () => {
    const r = parseExpression('operating income excluding restructuring charges / revenue');
    expect(r).toEqual({ ok: false, unparsed: 'operating income excluding restructuring charges' });
    const d = readDefinition(
      'Define adjusted margin as operating income adjusted for the pension adjustment divided by revenue. What was it in 2019?',
    );
    expect(d.status).toBe('unparsed');
    if (d.status === 'unparsed')
      expect(d.unparsed).toBe('operating income adjusted for the pension adjustment');
  });

  it('substitutes parts the question names after "where"', () => {
    const d = readDefinition(
      "What was Example's 2019 EBITDA less capex, where EBITDA is operating income plus depreciation and amortization and capex is purchases of property, plant and equipment? Answer in USD millions.",
    );
    expect(d.status).toBe('ok');
    if (d.status === 'ok')
      expect(showExpression(d.definition.expr)).toBe(
        '(operating income + depreciation and amortization) - purchases of property, plant and equipment',
      );
  });
});

describe('line items resolved from the filing’s row labels', () => {
  const doc = indexDocument(PAGES);

  it('matches a row by its own words, up to its first comma', () => {
    expect(resolveLineItem(doc, 'goodwill')).toMatchObject({
      labels: ['Goodwill'],
      definition: { statement: 'balance', instant: true },
    });
    expect(resolveLineItem(doc, 'accounts receivable')?.labels).toEqual([
      'Accounts receivable, net of allowances of $12 and $10, respectively',
    ]);
    expect(resolveLineItem(doc, 'research and development expense')).toBeNull();
  });

  it('reads the "net" row when the phrase says net and a total of the same words is printed too', () => {
    const doc = indexDocument(
      pagesOf(
        [
          'CONSOLIDATED STATEMENTS OF INCOME',
          '(Millions)',
          'Years Ended December 31,   2019   2018',
          'Total interest income   1,200   1,000',
          'Interest expense   300   250',
          'Net interest income   900   750',
        ].join('\n'),
      ),
    );
    expect(resolveLineItem(doc, 'net interest income')?.labels).toEqual(['Net interest income']);
  });

  it('reads a row without the one-word sign alternative it prints, never by its head before a dash', () => {
    const doc = indexDocument(
      pagesOf(
        [
          'CONSOLIDATED STATEMENTS OF CASH FLOWS',
          '(In millions)   2023   2022',
          'Net income   5,070   6,046',
          'Cash provided (used) by operations   5,841   5,188',
          'Repurchase of common stock   (5,480)   (4,014)',
          'Dividends — common and preferred   (2,012)   (1,837)',
          'Cash provided (used) by financing activities   (7,447)   (4,836)',
          'Net increase (decrease) in cash and equivalents   (1,042)   (1,172)',
          'Dividends declared and not paid   524   480',
        ].join('\n'),
      ),
    );
    expect(resolveLineItem(doc, 'cash provided by operations')?.labels).toEqual([
      'Cash provided (used) by operations',
    ]);
    // A dash names a part ("Cost of sales – products"), not the item: no match on the head.
    expect(resolveLineItem(doc, 'dividends')).toBeNull();
    expect(resolveLineItem(doc, 'net increase in cash and equivalents')?.labels).toEqual([
      'Net increase (decrease) in cash and equivalents',
    ]);
    // Both signs named, as printed, still match; a word the label does not print does not.
    expect(resolveLineItem(doc, 'cash provided used by operations')?.labels).toEqual([
      'Cash provided (used) by operations',
    ]);
    expect(resolveLineItem(doc, 'cash provided by investing activities')).toBeNull();
    expect(resolveLineItem(doc, 'dividends paid')).toBeNull();
  });

  it('keeps the statement the question names', () => {
    expect(resolveLineItem(doc, 'net income', 'cash_flow')?.definition.statement).toBe('cash_flow');
  });
});

describe('answers computed as the question defines them', () => {
  it('evaluates with exact decimals and cites every operand', () => {
    const r = answerDefined(
      'Define the operating cash flow ratio as net cash provided by operating activities divided by total current liabilities. What was it for 2019? Round to two decimal places.',
      PAGES,
    );
    expect(r).toMatchObject({ status: 'answered', answer: '1.01', unit: 'ratio' });
    if (r.status !== 'answered') return;
    expect(r.value.startsWith('1.0099009900990099')).toBe(true);
    expect(r.inputs.map((i) => [i.matchedLabel, i.printed, i.citation.page])).toEqual([
      ['Net cash provided by operating activities', '510', 2],
      ['Total current liabilities', '505', 1],
    ]);
    expect(r.deliveredFormula).toMatchObject({
      operator: '/',
      left: [['net cash provided by operating activities']],
      right: [['total current liabilities']],
    });
  });

  it('computes amounts, averages, days and percentages of named lines', () => {
    const ebitda = answerDefined(
      "What was Example's 2019 EBITDA less capex, where EBITDA is operating income plus depreciation and amortization and capex is purchases of property, plant and equipment? Answer in USD millions.",
      PAGES,
    );
    // 400 + 90 − |(190)|: an outflow printed in parentheses in every column is its magnitude.
    expect(ebitda).toMatchObject({ status: 'answered', answer: '$300 million' });
    const avg = answerDefined(
      "What was the average of total shareholders' equity at the 2018 and 2019 year-ends? Answer in USD millions with one decimal place.",
      PAGES,
    );
    expect(avg).toMatchObject({ status: 'answered', answer: '$1,305.0 million' });
    const days = answerDefined(
      'Days inventory is calculated as 365 × inventories at December 31, 2019 / 2019 cost of revenues. Round to one decimal place.',
      PAGES,
    );
    expect(days).toMatchObject({ status: 'answered', answer: '87.3 days', unit: 'days' });
    const pct = answerDefined(
      'What was interest expense as a % of operating income in 2019? Answer in percent to one decimal place.',
      PAGES,
    );
    expect(pct).toMatchObject({ status: 'answered', answer: '8.8%', value: '8.75' });
  });

  it('asks a figure the question names and defines as its level, bare arithmetic as stated', () => {
    const named = answerDefined(
      "What was Example's 2019 working capital, defined as total current assets minus total current liabilities? Answer in USD millions.",
      PAGES,
    );
    expect(named).toMatchObject({ status: 'answered', answer: '$500 million' });
    if (named.status === 'answered') {
      expect(named.asked.operation).toBe('level');
      expect(named.delivered.operation).toBe('level');
      // The definition itself is what the gate checks against the delivered formula.
      expect(named.deliveredFormula).toMatchObject({ operator: '-' });
    }
    const bare = answerDefined(
      "What were Example's 2019 operating income plus depreciation and amortization? Answer in USD millions.",
      PAGES,
    );
    expect(bare).toMatchObject({ status: 'answered', answer: '$490 million' });
    if (bare.status === 'answered') expect(bare.asked.operation).toBe('sum');
    // A name that states arithmetic itself ("EBITDA less capex, defined as …") asks for it.
    const stated = answerDefined(
      "What was Example's 2019 operating income less capex, defined as operating income minus purchases of property, plant and equipment? Answer in USD millions.",
      PAGES,
    );
    expect(stated).toMatchObject({ status: 'answered', answer: '$210 million' });
    if (stated.status === 'answered') expect(stated.asked.operation).toBe('difference');
  });

  it('sends to review what it cannot answer, saying why', () => {
    expect(
      answerDefined(
        'Define the R&D ratio as research and development expense divided by total net revenues. What was it in 2019?',
        PAGES,
      ),
    ).toMatchObject({
      status: 'needs_review',
      reason: expect.stringContaining('"research and development expense"'),
    });
    expect(
      answerDefined(
        'What was net cash provided by operating activities divided by total current liabilities in 2019, in USD millions?',
        PAGES,
      ),
    ).toMatchObject({ status: 'needs_review', reason: expect.stringContaining('amount') });
    expect(answerDefined('What was goodwill at December 31, 2019?', PAGES)).toEqual({
      status: 'none',
    });
  });

  it('takes the period the defined name carries ("define X\'s FY2018 cash ratio as …")', () => {
    expect(
      answerDefined(
        "Define Example's FY2018 cash ratio as cash and cash equivalents divided by total current liabilities. What was it? Round to two decimal places.",
        PAGES,
      ),
    ).toMatchObject({ status: 'answered', answer: '0.55', period: 'FY2018' });
  });

  it('reads one printed line item the catalog does not name, when asked to', () => {
    expect(
      answerDefined('What was goodwill at December 31, 2019? Answer in USD millions.', PAGES, true),
    ).toMatchObject({ status: 'answered', answer: '$1,200 million', unit: 'USD' });
  });

  it('reads the line item a question names around a verb of the books', () => {
    // Invented filer: the fixture balance sheet prints goodwill of $1,200 million for 2019.
    for (const q of [
      'How much goodwill did Example Corp carry on its balance sheet at December 31, 2019? Answer in USD millions.',
      'What goodwill did Example Corp report at December 31, 2019? Answer in USD millions.',
      'According to the balance sheet, what was goodwill at December 31, 2019? Answer in USD millions.',
    ])
      expect(answerDefined(q, PAGES, true)).toMatchObject({
        status: 'answered',
        answer: '$1,200 million',
      });
    expect(
      readLineItemQuestion(
        'Using the cash flow statement, how much did Example Corp pay in tax withholdings on stock-based awards in FY2031?',
      ),
    ).toMatchObject({
      status: 'ok',
      definition: { expr: { name: 'tax withholdings on stock-based awards', year: 2031 } },
    });
    expect(
      readLineItemQuestion(
        'What did Example Corp report as other (income) expense, net for fiscal 2031 in its income statement?',
      ),
    ).toMatchObject({
      status: 'ok',
      definition: {
        expr: { name: 'other (income) expense, net', year: 2031, statement: 'income' },
      },
    });
    // "How much net cash did X pay for Y" names the row "Net cash paid for Y".
    expect(
      readLineItemQuestion('How much net cash did Example Corp pay for acquisitions in 2031?'),
    ).toMatchObject({
      status: 'ok',
      definition: { expr: { name: 'net cash paid for acquisitions', year: 2031 } },
    });
    // A question that asks something else of the figure is not a line item.
    expect(
      readLineItemQuestion('How much did Example Corp earn, and was it more than in 2030?'),
    ).toMatchObject({ status: 'none' });
  });
});

describe('an amount per share, over a share count the filing prints', () => {
  it('names the share count an operand means, and refuses one that could be either', () => {
    expect(shareCountOf('diluted weighted-average common shares outstanding')).toBe(
      'shares_diluted',
    );
    expect(shareCountOf('basic average shares outstanding')).toBe('shares_basic');
    expect(shareCountOf('the basic shares used in calculation')).toBe('shares_basic');
    expect(shareCountOf('common shares outstanding')).toBe('shares_outstanding');
    expect(shareCountOf('weighted average shares outstanding')).toMatchObject({
      review: expect.stringContaining('basic or diluted'),
    });
    // Amounts paid for shares, and per-share figures, are not counts.
    expect(shareCountOf('repurchases of common shares outstanding')).toBeNull();
    expect(shareCountOf('dividends per common share outstanding')).toBeNull();
    expect(shareCountOf('dividends paid')).toBeNull();
  });

  it('divides an amount by the count and checks the count against the printed EPS', () => {
    // 60 / 200.0 basic, 60 / 202.8 diluted (millions); 292 / 200.0 = 1.46, the printed EPS.
    const basic = answerDefined(
      'Define Example Corp’s 2019 dividends per share as dividends paid divided by basic weighted-average shares outstanding. What was it, in USD to two decimals?',
      PAGES,
    );
    expect(basic).toMatchObject({
      status: 'answered',
      unit: 'USD/share',
      answer: '$0.30',
      delivered: { kind: 'per_share', currency: 'USD', operation: 'level' },
    });
    if (basic.status !== 'answered') throw new Error('not answered');
    expect(basic.inputs.map((i) => [i.metric, i.unit, i.value])).toEqual([
      ['line_item:dividends paid', 'USD', '60000000'],
      ['shares_basic', 'shares', '200000000'],
    ]);
    expect(
      answerDefined(
        'Define 2019 dividends per share as dividends paid divided by diluted weighted-average shares outstanding. What was it, in USD to three decimals?',
        PAGES,
      ),
    ).toMatchObject({ status: 'answered', answer: '$0.296' });
  });

  it('sends a count in another scale than the one its table declares to a person', () => {
    // Shares printed in thousands under "(In millions, except per share data)": read as
    // 200,000 million shares, net income over them misses the printed $1.46 by far.
    const wrongScale = INCOME_PAGE.replace(
      'Basic   200.0   199.5   200.1',
      'Basic   200,000   199,500   200,100',
    );
    const r = answerDefined(
      'Define 2019 dividends per share as dividends paid divided by basic weighted-average shares outstanding. What was it, in USD to two decimals?',
      pagesOf(wrongScale, BALANCE_PAGE, CASH_FLOW_PAGE),
    );
    expect(r).toMatchObject({
      status: 'needs_review',
      reason: expect.stringContaining('disagrees with the printed EPS'),
    });
    // Without a printed EPS the count cannot be checked.
    const noEps = INCOME_PAGE.replace(
      /Earnings per common share\nBasic[^\n]*\nDiluted[^\n]*\n/,
      '',
    );
    expect(
      answerDefined(
        'Define 2019 dividends per share as dividends paid divided by basic weighted-average shares outstanding. What was it, in USD to two decimals?',
        pagesOf(noEps, BALANCE_PAGE, CASH_FLOW_PAGE),
      ),
    ).toMatchObject({ status: 'needs_review', reason: expect.stringContaining('no printed EPS') });
  });
});
