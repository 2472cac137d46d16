import { definitionMismatch } from '../workflows/analysis/answer-form';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { deliveredFormulaOf } from '../activities/analysis/extraction/answer-form';
import { readDefinition } from '../activities/analysis/extraction/definition/question-definition';

// The cue reader's readings of inline-XBRL phrasings (issue 22): the filing named as the
// source, early fiscal year ends, year-to-date periods and definitions in parentheses.
describe('cue reader on filing phrasings', () => {
  it('reads a parenthesised arithmetic clause as the definition, not as a difference asked', () => {
    const f = readAskedFormByCues(
      'Tesla: free cash flow for the year ended December 31, 2024 (operating cash flow minus capex). Answer in millions of dollars.',
    );
    expect(f.operation).toBe('level');
    expect(f.kind).toBe('currency_amount');
    expect(f.periods).toEqual(['FY2024']);
    expect(f.definition).toEqual({ operator: '-', left: 'operating cash flow', right: 'capex' });
    // The definition is still checked against what was computed.
    expect(
      definitionMismatch(
        f.definition!,
        deliveredFormulaOf('operating_cash_flow[FY2024] - capex[FY2024]'),
      ),
    ).toBeNull();
    expect(
      definitionMismatch(f.definition!, deliveredFormulaOf('operating_cash_flow[FY2024]')),
    ).toMatch(/has operator none/);
  });

  it('reads a margin asked in dollars as the amount printed, a margin alone as a quotient', () => {
    const dollars = readAskedFormByCues(
      'What did Corning report as gross margin (in dollars) for 2019 on its consolidated statement of income? Answer in USD millions.',
    );
    expect(dollars).toMatchObject({ kind: 'currency_amount', operation: 'level' });
    const ratio = readAskedFormByCues("What was Corning's gross margin for 2019?");
    expect(ratio).toMatchObject({ kind: 'percent', operation: 'quotient' });
    const percent = readAskedFormByCues(
      'What was the gross margin in dollars as a percent of sales for 2019?',
    );
    expect(percent.operation).toBe('quotient');
  });

  // A definition whose parts are named and defined after "where" / "with": the answer is the
  // arithmetic over the parts, each part read as its own definition.
  it.each([
    [
      'What was Acme’s FY2023 EBITDA minus capex, where EBITDA = operating income + depreciation and amortization and capex = purchases of property and equipment? Answer in USD millions.',
      ['operating income', 'depreciation and amortization'],
      ['purchases of property and equipment'],
    ],
    [
      'Acme’s FY2022 cash conversion cycle is defined as DIO + DSO − DPO, with DIO = 365 × inventories / cost of sales, DSO = 365 × accounts receivable / revenue and DPO = 365 × accounts payable / cost of sales. What is it in days?',
      ['inventories', 'accounts receivable', 'revenue'],
      ['accounts payable'],
    ],
    [
      'What was free cash flow less dividends for FY2023, with free cash flow defined as operating cash flow minus capital expenditures and dividends as dividends paid? Answer in USD millions.',
      ['operating cash flow', 'capital expenditures'],
      ['dividends paid'],
    ],
  ])('reads the answer over parts defined after where/with: %s', (q, left, right) => {
    const d = readAskedFormByCues(q).definition;
    expect(d?.operator).toBe('-');
    for (const name of left) expect(d?.left).toContain(name);
    for (const name of right) expect(d?.right).toContain(name);
    expect(right.some((n) => d?.left.includes(n))).toBe(false);
  });

  it('reads "(current minus prior; negative if it fell)" as a sign convention, not a definition', () => {
    const f = readAskedFormByCues(
      "By how much did Apple's total revenues change from fiscal 2023 to fiscal 2024, in billions of dollars, rounded to two decimals? (current minus prior; negative if it fell)",
    );
    expect(f.definition).toBeNull();
    expect(f.operation).toBe('change');
    const g = readAskedFormByCues(
      "By what percent did Nike's net income change from fiscal 2019 to fiscal 2020? Answer in percent, one decimal (use a minus sign for a decline).",
    );
    expect(g.definition).toBeNull();
    expect(g.operation).toBe('percent_change');
    expect(f.periods).toEqual(['FY2023', 'FY2024']);
  });

  it('reads "A minus B, over C" as (A - B) / C', () => {
    const f = readAskedFormByCues(
      'Procter & Gamble: gross margin for the three months ended March 31, 2025 (total revenue minus cost of products sold, over total revenue). Express as a percentage with one decimal.',
    );
    expect(f.operation).toBe('quotient');
    expect(f.kind).toBe('percent');
    expect(f.definition).toEqual({
      operator: '/',
      left: 'total revenue minus cost of products sold',
      right: 'total revenue',
    });
  });

  it('keeps words such as "less than" and plain parentheses out of definitions', () => {
    expect(
      readAskedFormByCues('What was revenue in fiscal 2024 (in USD millions)?').definition,
    ).toBeNull();
    expect(
      readAskedFormByCues('Was revenue in fiscal 2024 (less than in 2023) in USD millions?')
        .definition,
    ).toBeNull();
  });

  it('does not read the filing named as the source as the period asked', () => {
    const f = readAskedFormByCues(
      "In Procter & Gamble's Q3 2025 Form 10-Q, what is the comparative (prior-period) figure for capex for the nine months ended March 31, 2024, in USD billions?",
    );
    expect(f.periods).toBeNull();
    const g = readAskedFormByCues(
      "In Apple's 2024 annual report (10-K), what was net sales for fiscal 2023 in USD millions?",
    );
    expect(g.periods).toEqual(['FY2023']);
  });

  it('names no fiscal year by a year end in January to March, and keeps the fiscal years said', () => {
    expect(
      readAskedFormByCues(
        "Compute Home Depot's gross margin for the fiscal year ended February 2, 2025 (a 53-week year). Gross margin = gross profit / total revenue.",
      ).periods,
    ).toBeNull();
    expect(
      readAskedFormByCues(
        "How much higher or lower was Home Depot's operating income for fiscal year 2024 (the 53 weeks ended February 2, 2025) than for fiscal year 2023? Give the difference in USD millions.",
      ).periods,
    ).toEqual(['FY2023', 'FY2024']);
    // A year that ends later in the calendar still names its year.
    expect(
      readAskedFormByCues(
        "What was Apple's net income for the fiscal year ended September 28, 2024, in USD millions?",
      ).periods,
    ).toEqual(['FY2024']);
  });

  it('names a year-to-date period by its fiscal year, not by its last quarter', () => {
    const f = readAskedFormByCues(
      "Calculate Procter & Gamble's operating margin year-to-date through Q3 FY2025 (the nine months ended March 31, 2025), defined as operating income divided by total revenue.",
    );
    expect(f.periods).toEqual(['FY2025']);
    expect(
      readAskedFormByCues("What was Procter & Gamble's net sales in Q3 FY2025 in USD millions?")
        .periods,
    ).toEqual(['Q3 FY2025']);
  });
});

// Questions that state their own arithmetic, and comparisons asked yes or no: the cue reader
// reads the operation the question's words compute, as the question parser does.
describe('cue reader on stated arithmetic', () => {
  it('reads a figure the question names and defines as its level, as the parser does', () => {
    expect(
      readAskedFormByCues(
        "Define EBITDA as operating income plus depreciation and amortization. What was Quillfeather's FY2031 EBITDA in USD millions?",
      ).operation,
    ).toBe('level');
    expect(
      readAskedFormByCues(
        "What was Quillfeather's FY2031 free cash flow, calculated as cash provided by operations less capital expenditures? Answer in USD millions.",
      ).operation,
    ).toBe('level');
    for (const q of [
      "Define EBITDA as operating income plus depreciation and amortization. What was Quillfeather's FY2031 EBITDA in USD millions?",
      "What was Quillfeather's working capital (total current assets minus total current liabilities) at the end of FY2031?",
    ]) {
      const r = readDefinition(q);
      expect(r.status === 'ok' && r.definition.named).toBe(true);
    }
    // Arithmetic asked as such is the operation it states, to both readers.
    const bare = "What were Quillfeather's FY2031 royalties plus licence fees?";
    const r = readDefinition(bare);
    expect(r.status === 'ok' && r.definition.named).toBe(false);
    // A definition of a part does not outweigh the quotient the question asks.
    expect(
      readAskedFormByCues(
        "Define total debt as long-term debt plus current portion of long-term debt. What is Quillfeather's total debt to total equity ratio at the end of FY2031?",
      ).operation,
    ).toBe('quotient');
  });

  it('reads "A plus B" as a sum, and "A plus B as a % of C" as a quotient', () => {
    expect(
      readAskedFormByCues("What were Quillfeather's FY2031 royalties plus licence fees?").operation,
    ).toBe('sum');
    expect(
      readAskedFormByCues(
        "What were Quillfeather's FY2031 repurchases plus dividends paid as a % of cash provided by operations?",
      ).operation,
    ).toBe('quotient');
  });

  it('reads a comparison asked yes or no as a change of the figure, not a percent', () => {
    const fell = readAskedFormByCues(
      "Did Quillfeather's gross margin percentage (gross margin / net sales) fall from 2030 to 2031?",
    );
    expect(fell).toMatchObject({ kind: 'yes_no', operation: 'change' });
    expect(
      readAskedFormByCues(
        "Did Quillfeather's operating margin (operating income / revenue) improve from FY2030 to FY2031?",
      ).operation,
    ).toBe('change');
    // One figure compared between two years, by a comparative: a change too.
    for (const q of [
      "Was Quillfeather's operating income lower in Q2 2031 than in Q2 2030?",
      "Did Quillfeather's R&D expense in the three months ended June 30, 2031 exceed its R&D expense in the three months ended June 30, 2030?",
      "Was Quillfeather's gross margin (gross profit / revenue) higher in 2031 than in 2030?",
    ])
      expect([q, readAskedFormByCues(q).operation]).toEqual([q, 'change']);
    // Two figures in one year are compared as they stand.
    expect(
      readAskedFormByCues('Did Quillfeather’s dividends paid exceed its share repurchases in 2031?')
        .operation,
    ).toBe('level');
  });

  it('reads a row printed "net of" something as the row, a question\'s own "net of" as a difference', () => {
    expect(
      readAskedFormByCues(
        'How much cash did Quillfeather spend on acquisitions, net of cash acquired, in FY2031? Answer in USD millions.',
      ).operation,
    ).toBe('level');
    expect(
      readAskedFormByCues(
        'How much did Quillfeather spend on acquisitions of businesses (net of cash acquired) in FY2031?',
      ).operation,
    ).toBe('level');
    expect(
      readAskedFormByCues("What was Quillfeather's FY2031 revenue net of returns?").operation,
    ).toBe('difference');
  });
});

describe('cue reader on a point in time', () => {
  it('names no period for a date off December, whose fiscal period is the filer’s calendar', () => {
    expect(
      readAskedFormByCues(
        "What were Quillfeather's accrued liabilities at July 29, 2031? Answer in USD millions.",
      ).periods,
    ).toBeNull();
    expect(
      readAskedFormByCues("What were Quillfeather's total assets at December 31, 2031?").periods,
    ).toEqual(['FY2031']);
    expect(
      readAskedFormByCues(
        "What was Quillfeather's net income for the fiscal year ended September 28, 2031?",
      ).periods,
    ).toEqual(['FY2031']);
  });
});

describe('"compute X as A minus B"', () => {
  it('names X and defines it, to both readers', () => {
    const q =
      "Compute Quillfeather's 2031 free cash flow as net cash provided by operating activities minus capital expenditures, in USD millions.";
    expect(readAskedFormByCues(q)).toMatchObject({ operation: 'level', periods: ['FY2031'] });
    const r = readDefinition(q);
    expect(r.status === 'ok' && r.definition.named).toBe(true);
    // An instruction after a quotient ("…, in percent") keeps the percent asked.
    expect(
      readAskedFormByCues(
        "What share of Quillfeather's FY2031 revenues was gross profit? Calculate it as gross profit divided by revenues, in percent with one decimal.",
      ),
    ).toMatchObject({ kind: 'percent', operation: 'quotient' });
  });
});

describe('cue reader on "calculate X as a percentage of Y"', () => {
  it('reads the quotient asked, not a definition', () => {
    const f = readAskedFormByCues(
      "Calculate Quillfeather's FY2031 research and development expense as a percentage of revenue.",
    );
    expect(f).toMatchObject({ kind: 'percent', operation: 'quotient', periods: ['FY2031'] });
  });
});

describe('cue reader on a quarter restated by its end date', () => {
  it('leaves the period to the filer’s calendar', () => {
    expect(
      readAskedFormByCues(
        "What was Quillfeather's cash and cash equivalents at the end of fiscal Q3 2031 (June 28, 2031), in millions of US dollars?",
      ).periods,
    ).toBeNull();
  });
});
