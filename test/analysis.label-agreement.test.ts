import { type AnswerForm, type FormEvidence } from '../workflows/analysis/answer-form';
import {
  checkLabelAgreement,
  stem,
  type LabelEvidence,
} from '../workflows/analysis/label-agreement';
import { runValidationGate } from '../workflows/analysis/validation-gate';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { AnalysisRequestSchema } from '../workflows/analysis/request';
import type { NumericClaim } from '../workflows/analysis/evidence';
import type { StepResult } from '../workflows/analysis/step-result';
import { coverWords, rowLabels } from '../activities/analysis/label-evidence';

// Invented filer ("Quillfeather Tools Inc.") and invented rows: no dataset row is used here.
const FILER = ['quillfeather', 'tools', 'inc', 'annual', 'report', 'form', '10', 'k'];
const REVENUE_PHRASES = ['Revenue', 'total revenue', 'revenues', 'revenue', 'net sales', 'sales'];

function ev(question: string, labels: string[], over: Partial<LabelEvidence> = {}): LabelEvidence {
  return {
    question,
    entry: 'Revenue',
    formula: false,
    catalogPhrases: REVENUE_PHRASES,
    read: labels.map((label) => ({ metric: 'revenue', label, heading: null, page: 4 })),
    filerWords: FILER,
    pageLabels: [],
    ...over,
  };
}

describe('the label agreement check', () => {
  it('agrees when the question names only the catalog head (alias labels are the catalog’s)', () => {
    const c = checkLabelAgreement(
      ev("What were Quillfeather Tools' FY2031 revenues in USD millions?", ['Net sales']),
    );
    expect(c).toMatchObject({ ok: true, status: 'agree', head: 'revenues', qualifiers: [] });
  });

  it('ignores neutral words and the filer’s possessive name', () => {
    const c = checkLabelAgreement(
      ev("What was Quillfeather's total net revenue reported for fiscal year 2031?", [
        'Total revenues',
      ]),
    );
    expect(c.status).toBe('agree');
    expect(c.qualifiers).toEqual([]);
  });

  const table: [string, string, string[], Partial<LabelEvidence>, string][] = [
    [
      'a left qualifier missing from the row',
      'What was the FY2031 subscription revenue of Quillfeather Tools?',
      ['Total revenues, net'],
      {},
      'label_mismatch: asked "subscription revenue", read "Total revenues, net": "subscription" not in the row label',
    ],
    [
      'a conjunct making another line item',
      'How much did Quillfeather spend on sales and distribution in FY2031?',
      ['Net sales'],
      {},
      'label_mismatch: asked "spend on sales and distribution", read "Net sales": "distribution" not in the row label',
    ],
    [
      'a prepositional complement naming a segment, with the row that carries it',
      'What was the revenue from the Marine segment in FY2031?',
      ['Total revenue'],
      {
        pageLabels: [
          { page: 4, label: 'Industrial segment revenue' },
          { page: 4, label: 'Marine segment revenue' },
        ],
      },
      'label_mismatch: asked "revenue from the marine segment", read "Total revenue": "marine", "segment" not in the row label; "Marine segment revenue" on p.4 carries it',
    ],
    [
      'a program named by a possessive that is not the filer',
      "What was the Skylark program's revenue in FY2031?",
      ['Net sales'],
      {},
      'label_mismatch: asked "skylark program revenue", read "Net sales": "skylark", "program" not in the row label',
    ],
    [
      'cash paid joined by "for" to the head',
      'What amount of cash paid for income taxes did Quillfeather report in FY2031?',
      ['Provision for income taxes'],
      {
        entry: 'Income tax expense',
        catalogPhrases: ['income taxes', 'income tax expense', 'provision for income taxes'],
      },
      'label_mismatch: asked "amount of cash paid for income taxes", read "Provision for income taxes": "cash", "paid" not in the row label',
    ],
    [
      'a participle that says which figure it is',
      'By what percent did cash dividends declared per common share grow in FY2031?',
      ['Dividends paid'],
      {
        entry: 'Dividends paid',
        catalogPhrases: ['dividends paid', 'dividends', 'cash dividends'],
      },
      'label_mismatch: asked "cash dividends declared", read "Dividends paid": "declared" not in the row label',
    ],
    [
      'a pay verb asking for the cash paid, read from the expense row',
      'How much did Quillfeather pay in income taxes in FY2031 according to the supplemental cash flow information?',
      ['Income tax expense'],
      {
        entry: 'Income tax expense',
        catalogPhrases: ['income taxes', 'income tax expense', 'provision for income taxes'],
      },
      'label_mismatch: asked "pay in income taxes", read "Income tax expense": "pay" not in the row label',
    ],
    [
      'a specific charge asked, the head only naming where it was recorded',
      'What severance and other charges did Quillfeather record in cost of sales in FY2031?',
      ['Total cost of sales'],
      { entry: 'Cost of sales', catalogPhrases: ['cost of sales', 'cost of revenue'] },
      'label_mismatch: asked "severance and other charges did quillfeather record in cost of sales", read "Total cost of sales": "severance", "other" not in the row label',
    ],
    [
      'the subject of the clause being a program, not the filer',
      'How much revenue in dollars did the Skylark program generate for Quillfeather Tools in FY2031?',
      ['Total net sales'],
      {},
      'label_mismatch: asked "revenue in dollars did the skylark program", read "Total net sales": "skylark", "program" not in the row label',
    ],
  ];
  it.each(table)('refuses %s with its exact reason', (_name, question, labels, over, reason) => {
    const c = checkLabelAgreement(ev(question, labels, over));
    expect(c.ok).toBe(false);
    expect(c.status).toBe('mismatch');
    expect(c.reasons).toEqual([reason]);
  });

  it('accepts a qualifier the row carries by stem or by the synonym table', () => {
    const paid = checkLabelAgreement(
      ev('What were the FY2031 cash payments for income taxes?', ['Cash paid for income taxes'], {
        entry: 'Income tax expense',
        catalogPhrases: ['income taxes', 'income tax expense'],
      }),
    );
    expect(paid).toMatchObject({ status: 'agree', qualifiers: ['cash', 'payment'] });
    const owners = checkLabelAgreement(
      ev(
        'What was the FY2031 net income available to common shareholders?',
        ['Net income attributable to common stockholders'],
        { entry: 'Net income', catalogPhrases: ['net income'] },
      ),
    );
    expect(owners).toMatchObject({
      status: 'agree',
      qualifiers: ['available', 'common', 'shareholder'],
    });
  });

  it('accepts the clause when the filer is its subject and the row carries a pay verb', () => {
    const tax = { entry: 'Income tax expense', catalogPhrases: ['income taxes'] };
    const cases: [string, string, Partial<LabelEvidence>][] = [
      ['How much did Quillfeather pay in income taxes in FY2031?', 'Income taxes paid', tax],
      ['How much revenue did Quillfeather generate in FY2031?', 'Net sales', {}],
      ['How much revenue did QFT generate in FY2031?', 'Net sales', {}],
      ['How much revenue did the company generate in FY2031?', 'Total revenues', {}],
      ['How much did Quillfeather’s net sales increase in FY2031?', 'Net sales', {}],
      ['What amount of revenue did Quillfeather report for FY2031?', 'Revenues', {}],
      [
        'How much did Quillfeather pay to repurchase common stock in FY2031?',
        'Repurchases of common stock',
        { entry: 'Share repurchases', catalogPhrases: ['repurchase common stock'] },
      ],
    ];
    for (const [q, label, over] of cases)
      expect(checkLabelAgreement(ev(q, [label], over)).status).toBe('agree');
    const turnoverEv = ev(
      'Roughly how many times has Quillfeather sold its inventory in FY2031?',
      [],
      {
        entry: 'Inventory turnover',
        formula: true,
        catalogPhrases: ['inventory turnover', 'inventory', 'cost of goods sold'],
        read: [
          { metric: 'cogs', label: 'Cost of products sold', heading: null, page: 5 },
          { metric: 'inventory', label: 'Inventories', heading: null, page: 6 },
        ],
      },
    );
    expect(checkLabelAgreement(turnoverEv).status).toBe('agree');
    for (const q of [
      'Roughly how many times did Quillfeather turn over its inventory in FY2031?',
      'Give the inventory turnover ratio for FY2031: how many times did it sell its inventory?',
    ])
      expect(checkLabelAgreement({ ...turnoverEv, question: q }).status).toBe('agree');
    expect(
      checkLabelAgreement(ev('How much revenue did it generate in FY2031?', ['Net sales'])).status,
    ).toBe('agree');
  });

  it('reads the heading as support: a segment table’s title carries its segment', () => {
    const c = checkLabelAgreement(
      ev('What was the Marine segment revenue in FY2031?', [], {
        read: [{ metric: 'revenue', label: 'Revenue', heading: 'Marine segment results', page: 9 }],
      }),
    );
    expect(c.status).toBe('agree');
  });

  it('does not treat the source or the period as a qualifier', () => {
    for (const q of [
      'What was the revenue in the income statement for FY2031?',
      'What were total revenues for the year ended December 31, 2031?',
      'What is the three-year average revenue over FY2029-FY2031?',
      'What was revenue at the close of FY2031?',
    ])
      expect(checkLabelAgreement(ev(q, ['Revenues'])).status).toBe('agree');
    // A quarter or half-year tag is a period too (new runs; recorded runs replay without it).
    for (const q of ['What was revenue in Q2 2031?', 'What was revenue in H1 2031?']) {
      expect(checkLabelAgreement(ev(q, ['Revenues']), { periodTags: true }).status).toBe('agree');
      expect(checkLabelAgreement(ev(q, ['Revenues'])).status).toBe('mismatch');
    }
  });

  it('reads "higher or lower" as the direction of a change, not a qualifier (new runs only)', () => {
    const q =
      'How much higher or lower was Quillfeather revenue for FY2031 than for FY2030? Give the difference in USD millions (negative if lower).';
    expect(checkLabelAgreement(ev(q, ['Revenues']), { comparatives: true })).toMatchObject({
      ok: true,
      status: 'agree',
    });
    // Runs recorded before the patch replay with the earlier reading.
    expect(checkLabelAgreement(ev(q, ['Revenues'])).unsupported).toEqual(['higher', 'lower']);
    // A qualifier beside the comparative is still one.
    expect(
      checkLabelAgreement(
        ev(
          'How much higher or lower was Quillfeather services revenue for FY2031 than for FY2030?',
          ['Revenues'],
        ),
        { comparatives: true },
      ).unsupported,
    ).toEqual(['service']);
  });

  it('reads "as a share of" as a ratio to its base, like "as a percentage of" (new runs only)', () => {
    const q =
      "What was Quillfeather's SG&A as a share of net sales in FY2031, defined as selling, general and administrative expense divided by net sales?";
    const sga = (question: string) =>
      ev(question, ['Selling, general and administrative', 'Net sales'], {
        entry: 'selling, general and administrative expense / net sales',
        formula: true,
        catalogPhrases: ['selling, general and administrative expense', 'net sales'],
      });
    expect(checkLabelAgreement(sga(q), { shareOf: true })).toMatchObject({ status: 'agree' });
    // Runs recorded before the patch replay with the earlier reading.
    expect(checkLabelAgreement(sga(q)).unsupported).toEqual(['share']);
    // "What share of sales came from the U.S." names a part: still a qualifier the rows lack.
    expect(
      checkLabelAgreement(
        ev('What share of Quillfeather FY2031 net sales came from the U.S.?', ['Net sales']),
        { shareOf: true },
      ).status,
    ).toBe('mismatch');
  });

  it('does not let the question’s own definition or units stand in for the head', () => {
    const c = checkLabelAgreement(
      ev(
        'Gross margin = gross profit / revenue. What was the FY2031 gross margin (in percent)?',
        ['Gross profit', 'Revenue'],
        {
          entry: 'Gross margin',
          formula: true,
          catalogPhrases: ['Gross margin', 'gross profit', 'revenue'],
        },
      ),
    );
    expect(c).toMatchObject({ status: 'agree', head: 'gross margin', qualifiers: [] });
  });

  it('does not run when no catalog phrase is in the question (it never delivers by itself)', () => {
    expect(checkLabelAgreement(ev('How big was the top-line haul?', ['Revenue'])).status).toBe(
      'not_checked',
    );
    expect(checkLabelAgreement(ev('What was FY2031 revenue?', [])).status).toBe('not_checked');
  });

  it('stems the plurals labels and questions use', () => {
    expect(['taxes', 'payments', 'products', 'subsidiaries', 'business'].map(stem)).toEqual([
      'tax',
      'payment',
      'product',
      'subsidiary',
      'business',
    ]);
  });
});

describe('the evidence extraction gathers', () => {
  it('row labels: the words before the first figure of each printed row', () => {
    expect(
      rowLabels(
        'Consolidated results\nProduct revenue   $ 1,200   $ 1,100\nService revenue  300  280\nTotal revenue  1,500  1,380',
      ),
    ).toEqual(['Product revenue', 'Service revenue', 'Total revenue']);
  });
  it('cover words: the filer’s name is among them', () => {
    expect(coverWords([{ page: 0, text: 'QUILLFEATHER TOOLS, INC.\nAnnual Report' }])).toEqual([
      'quillfeather',
      'tools',
      'inc',
      'annual',
      'report',
    ]);
  });
});

const asked: AnswerForm = {
  kind: 'currency_amount',
  scale: 'millions',
  currency: 'USD',
  rounding: null,
  periods: ['FY2031'],
  periodCount: 1,
  operation: 'level',
  definition: null,
};
const request = AnalysisRequestSchema.parse({
  requestId: 'r-1',
  orgId: 'acme',
  docIds: ['doc-1'],
  queryType: 'extract_metric',
  queryText: 'What was the FY2031 subscription revenue (in USD millions)?',
});
const claim: NumericClaim = {
  id: 'c-1',
  label: 'Revenue',
  metric: 'revenue',
  kind: 'money',
  value: '5400000000',
  unit: 'USD',
  period: 'FY2031',
  printed: '5,400',
  citations: [
    { docId: 'doc-1', page: 4, charStart: 0, charEnd: 24, quote: 'Total revenues   $ 5,400' },
  ],
  derived: false,
  formula: null,
  inputs: [],
  source: 'code',
};
const step: StepResult = {
  stepId: 'step-2',
  tool: 'extract_metric',
  purpose: 'extract',
  status: 'ok',
  confidence: 0.97,
  summary: '',
  claims: [],
  citations: [],
  errorTag: null,
  error: null,
  output: null,
  cached: false,
};
function gate(evidence: FormEvidence, clauseRules?: boolean) {
  return runValidationGate({
    request,
    steps: [step],
    claims: [claim],
    citationChecks: [{ claimId: 'c-1', ok: true, reason: null }],
    answerRequired: true,
    answerPresent: true,
    form: { evidence, ...(clauseRules === undefined ? {} : { clauseRules }) },
  });
}

describe('the validation gate routes on label agreement', () => {
  const base: FormEvidence = {
    asked,
    secondReading: asked,
    delivered: asked,
    deliveredFormula: null,
  };

  it('sends a row without the asked qualifier to review, with the reason recorded', () => {
    const v = gate({
      ...base,
      labels: ev(request.queryText, ['Total revenues'], {
        pageLabels: [{ page: 4, label: 'Subscription revenue' }],
      }),
    });
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.reasons).toEqual([
      'label_mismatch: asked "subscription revenue", read "Total revenues": "subscription" not in the row label; "Subscription revenue" on p.4 carries it',
    ]);
    expect(v.checks.labelAgreement).toMatchObject({
      ok: false,
      status: 'mismatch',
      unsupported: ['subscription'],
    });
  });

  it('delivers when the row carries the qualifier', () => {
    const v = gate({ ...base, labels: ev(request.queryText, ['Subscription revenue']) });
    expect(v.route).toBe('DELIVER');
    expect(v.checks.labelAgreement?.status).toBe('agree');
  });

  it('reads the clause in new runs, not when replaying runs recorded before it', () => {
    const labels = ev(
      'How much revenue did the Skylark program generate for Quillfeather in FY2031?',
      ['Total revenues'],
    );
    expect(gate({ ...base, labels }).route).toBe('HUMAN_REVIEW');
    expect(gate({ ...base, labels }, true).route).toBe('HUMAN_REVIEW');
    expect(gate({ ...base, labels }, false).route).toBe('DELIVER');
  });

  it('records no label check for evidence recorded before it existed (a model’s reading)', () => {
    const v = gate(base);
    expect(v.route).toBe('DELIVER');
    expect(v.checks.labelAgreement).toBeUndefined();
  });
});

describe('the cue reader reads a total over several named years as their sum', () => {
  it.each([
    'How much did the company pay in dividends in total over FY2029-FY2031?',
    'What was the total licensing income the company recorded over its fiscal years 2029, 2030 and 2031?',
    'What was total revenue summed over fiscal years 2029, 2030 and 2031?',
  ])('%s', (question) => {
    expect(readAskedFormByCues(question)).toMatchObject({
      operation: 'sum',
      periods: ['FY2029', 'FY2030', 'FY2031'],
      periodCount: 3,
    });
  });
  it('but a total in one year stays a level', () => {
    expect(
      readAskedFormByCues('What was the total revenue over FY2031 in USD millions?').operation,
    ).toBe('level');
  });
});

describe('the cue reader reads a margin asked "in dollars" as an amount', () => {
  it('reads currency for "gross margin (in dollars)" and percent when a percent is asked', () => {
    expect(
      readAskedFormByCues('What was the FY2031 gross margin (in dollars)? Answer in USD millions.')
        .kind,
    ).toBe('currency_amount');
    expect(readAskedFormByCues('What was the FY2031 gross margin in percent?').kind).toBe(
      'percent',
    );
  });
});

describe('the label check on a formula', () => {
  const taxRate = (question: string) =>
    checkLabelAgreement(
      ev(question, [], {
        entry: 'Effective tax rate',
        formula: true,
        catalogPhrases: ['Effective tax rate', 'income tax expense', 'income before income taxes'],
        read: [
          { metric: 'income_tax', label: 'Provision for income taxes', heading: null, page: 7 },
          { metric: 'pretax_income', label: 'Income before income taxes', heading: null, page: 7 },
        ],
      }),
    );
  it('accepts words naming one of its inputs ("A over B")', () => {
    expect(
      taxRate('What was the FY2031 income tax expense over income before income taxes?').status,
    ).toBe('agree');
  });
  it('refuses a qualifier no input carries', () => {
    expect(taxRate('What was the FY2031 foreign effective tax rate?').reasons).toEqual([
      'label_mismatch: asked "foreign effective tax rate", read "Provision for income taxes": "foreign" not in the row label',
      'label_mismatch: asked "foreign effective tax rate", read "Income before income taxes": "foreign" not in the row label',
    ]);
  });
  it('does not read a month or the filer named on a later cover page as a qualifier', () => {
    const words = coverWords([
      { page: 0, text: 'FORM 10-K' },
      { page: 1, text: 'QUILLFEATHER TOOLS, INC.' },
    ]);
    const c = checkLabelAgreement(
      ev('What were Quillfeather revenues at May 31, 2031?', ['Revenues'], { filerWords: words }),
    );
    expect(c.status).toBe('agree');
  });
});

describe('the label check on a computed definition (new runs only)', () => {
  const defined = (question: string, rows: string[]) =>
    ev(question, rows, {
      entry: '',
      formula: true,
      catalogPhrases: rows.map((r) => r.toLowerCase()),
      read: rows.map((label, i) => ({ metric: `operand_${i}`, label, heading: null, page: 7 })),
    });
  const opts = { definitionWords: true };

  it.each([
    [
      "What were Quillfeather's FY2031 freight plus provision for income taxes? Answer in USD millions.",
      ['Freight', 'Provision for income taxes'],
    ],
    [
      "What were Quillfeather's FY2031 net sales less cost of sales less warranty expense?",
      ['Net sales', 'Cost of sales', 'Warranty expense'],
    ],
    [
      'Calculate the FY2031 payout as dividends paid divided by net earnings.',
      ['Dividends paid', 'Net earnings'],
    ],
    [
      "Did Quillfeather's purchases of treasury stock exceed its cash provided by operations in FY2031?",
      ['Purchases of treasury stock', 'Cash provided by operations'],
    ],
    [
      "What share of Quillfeather's FY2031 total expenses was freight? Calculate it as freight divided by total expenses.",
      ['Freight', 'Total expenses'],
    ],
  ])('reads the arithmetic as joining operands: %s', (question, rows) => {
    expect(checkLabelAgreement(defined(question, rows), opts)).toMatchObject({
      status: 'agree',
      unsupported: [],
    });
    // Runs recorded before the patch replay with the earlier reading: the word was a qualifier.
    expect(checkLabelAgreement(defined(question, rows)).status).toBe('mismatch');
  });

  it('still holds a qualifier no operand carries, and a single row keeps the words', () => {
    expect(
      checkLabelAgreement(
        defined("What were Quillfeather's FY2031 freight plus export provision for income taxes?", [
          'Freight',
          'Provision for income taxes',
        ]),
        opts,
      ).unsupported,
    ).toEqual(['export']);
    // "Share of sales came from the U.S." names a part, as before.
    expect(
      checkLabelAgreement(
        defined('What share of Quillfeather FY2031 net sales came from the U.S.?', [
          'Net sales',
          'Total net sales',
        ]),
        opts,
      ).status,
    ).toBe('mismatch');
    // One row read is a line item, not a definition: "less" stays a word it must carry.
    expect(
      checkLabelAgreement(
        ev("What were Quillfeather's FY2031 freight less net sales?", ['Net sales']),
        opts,
      ).unsupported,
    ).toEqual(['freight', 'less']);
  });

  it('the cue reader reads "A plus B" as their sum', () => {
    expect(
      readAskedFormByCues(
        "What was Quillfeather's FY2031 interest expense plus provision for income taxes?",
      ).operation,
    ).toBe('sum');
  });
});

describe('the cue reader reads "averaged across" and "with one decimal"', () => {
  it('reads an average over the listed years and the asked precision', () => {
    expect(
      readAskedFormByCues(
        'Compute the operating margin averaged across FY2029, FY2030 and FY2031, expressed as a percentage with one decimal.',
      ),
    ).toMatchObject({
      operation: 'average',
      periods: ['FY2029', 'FY2030', 'FY2031'],
      periodCount: 3,
      rounding: 1,
    });
  });
  it('does not read "as a decimal" as a precision', () => {
    expect(readAskedFormByCues('What was the FY2031 current ratio as a decimal?').rounding).toBe(
      null,
    );
  });
});
