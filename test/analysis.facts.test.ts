import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseInlineXbrl } from '../activities/documents/inline-xbrl';
import { answerFromFacts } from '../activities/analysis/facts/answer-from-facts';
import { readFactQuestion, readPeriodRefs } from '../activities/analysis/facts/fact-question';
import { fiscalCalendar } from '../activities/analysis/facts/fiscal-calendar';
import { extensionMatches, rowNamesMetric } from '../activities/analysis/facts/concept-map';
import { storedFact } from './support/inline-facts';

/** A filing of the test fixtures as the fact path reads it (stored facts, company totals). */
function filing(html: string) {
  const r = parseInlineXbrl(html);
  if (r.status !== 'facts') throw new Error(`fixture has no facts: ${r.status}`);
  return {
    pages: r.pages.map((text, page) => ({ page, text })),
    facts: r.facts.filter((f) => f.dimensions.length === 0).map(storedFact),
    dei: r.dei,
  };
}

const FIXTURE = readFileSync(join(__dirname, 'fixtures/ixbrl/fiscal-q2-10q.html'), 'utf8');
const doc = filing(FIXTURE);
const ask = (question: string, d = doc) =>
  answerFromFacts({ docId: 'fx-10q', question, pages: d.pages, facts: d.facts, dei: d.dei });
const answered = (question: string) => {
  const r = ask(question);
  if (r.status !== 'answered') throw new Error(`not answered: ${JSON.stringify(r).slice(0, 400)}`);
  return r.output;
};

describe('fact question: periods as the question states them', () => {
  it('reads a length and end date, a fiscal quarter, a fiscal year and a bare date', () => {
    expect(readPeriodRefs('for the six months ended march 31, 2025')).toEqual([
      { text: 'six months ended march 31, 2025', months: 6, endDate: '2025-03-31' },
    ]);
    expect(readPeriodRefs('in the second quarter of fiscal 2025')).toEqual([
      { text: 'second quarter of fiscal 2025', quarter: 2, fiscalYear: 2025 },
    ]);
    expect(readPeriodRefs('at the end of fiscal 2024 (september 30, 2024)')).toEqual([
      { text: 'fiscal 2024', fiscalYear: 2024 },
      { text: 'september 30, 2024', endDate: '2024-09-30' },
    ]);
  });

  it('does not read the filing named as the source as a period', () => {
    expect(
      readPeriodRefs(
        'per its 10-q for the quarter ended march 31, 2025, what was revenue in q2 2024? based on its 2024 annual report (10-k)',
      ),
    ).toEqual([{ text: 'q2 2024', quarter: 2, fiscalYear: 2024 }]);
  });

  it('marks a segment figure as a part of the company and leaves an adjusted figure to a person', () => {
    expect(
      readFactQuestion("What was Fixture Works' cloud segment revenue in Q2 2025?"),
    ).toMatchObject({ status: 'read', question: { partWords: 'segment' } });
    // The fixture tags no segment: the part's words alone answer nothing.
    expect(ask("What was Fixture Works' cloud segment revenue in Q2 2025?")).toMatchObject({
      status: 'declined',
      reason: expect.stringContaining('no product, segment or region this filing tags is named'),
    });
    expect(readFactQuestion('What was adjusted operating income in Q2 2025?')).toEqual({
      status: 'unsupported',
      reason: '"adjusted": not a reported figure',
    });
  });

  it('reads the operation, the formula and the asked rounding', () => {
    const r = readFactQuestion(
      'Calculate the growth rate of net income from Q2 FY2024 to Q2 FY2025, as a percentage rounded to one decimal.',
    );
    expect(r).toMatchObject({
      status: 'read',
      question: { kind: 'metric', metric: 'net_income', operation: 'growth', rounding: 1 },
    });
    const m = readFactQuestion(
      'What was the gross margin for the three months ended March 31, 2025? Gross margin = gross profit / total revenue.',
    );
    expect(m).toMatchObject({
      status: 'read',
      question: { kind: 'formula', formula: 'gross_margin', operation: 'level' },
    });
  });
});

describe('fiscal calendar from dei', () => {
  it('places a fiscal year ending in September: Q2 FY2025 is January-March 2025', () => {
    const cal = fiscalCalendar(
      { fiscalYearFocus: '2025', fiscalPeriodFocus: 'Q2', periodEndDate: '2025-03-31' },
      [{ start: '2024-10-01', end: '2025-03-31' }],
    )!;
    expect(cal.yearEnd(2024)).toBe('2024-09-30');
    expect(cal.classify({ start: '2025-01-01', end: '2025-03-31' })).toMatchObject({
      fiscalYear: 2025,
      months: 3,
      quarter: 2,
    });
    expect(cal.classify({ start: '2023-10-01', end: '2024-03-31' })).toMatchObject({
      fiscalYear: 2024,
      months: 6,
      quarter: null,
    });
    expect(cal.classify({ start: null, end: '2024-09-30' })).toMatchObject({
      fiscalYear: 2024,
      instant: true,
      quarter: 4,
    });
  });

  it('has no calendar without a period end date', () => {
    expect(fiscalCalendar({ fiscalYearFocus: '2025', fiscalPeriodFocus: 'Q2' }, [])).toBeNull();
  });
});

describe('concepts by accounting meaning', () => {
  it('matches an extension concept by its name, and a printed row by the catalog labels', () => {
    expect(extensionMatches('capex', 'fx:PurchasesOfPropertyAndEquipment')).toBe(true);
    expect(extensionMatches('capex', 'us-gaap:PaymentsToAcquirePropertyPlantAndEquipment')).toBe(
      false,
    );
    expect(extensionMatches('capex', 'fx:ProceedsFromSaleOfPropertyAndEquipment')).toBe(false);
    expect(
      rowNamesMetric(
        'capex',
        'Purchases of property and equipment excluding finance leases, net of sales',
      ),
    ).toBe(true);
    expect(rowNamesMetric('revenue', 'Total cost of revenues')).toBe(false);
  });
});

describe('answers from facts, each operand agreeing with the printed table', () => {
  it('answers a quarter level from the three-month column, cited by its fact', () => {
    const out = answered(
      'What were Fixture Works’ total revenues in the second quarter of fiscal 2025, in USD millions?',
    );
    expect(out.answer).toBe('$2,500 million');
    expect(out.value).toBe('2500000000');
    const c = out.citations[0]!;
    expect(c.fact).toMatchObject({
      concept: 'us-gaap:Revenues',
      period: '2025-01-01..2025-03-31',
      displayed: '2,500',
    });
    expect(doc.pages[c.page]!.text.slice(c.charStart, c.charEnd)).toBe(c.quote);
    expect(out.readings).toMatchObject({ used: 'facts', agreed: true });
  });

  it('answers the year-to-date, the prior-year quarter and the fiscal year-end balance', () => {
    expect(answered('Revenue for the six months ended March 31, 2025 (USD millions)?').answer).toBe(
      '$4,800 million',
    );
    expect(
      answered('What was net income for the three months ended March 31, 2024, in millions?')
        .answer,
    ).toBe('$190 million');
    expect(
      answered('Total assets at the end of fiscal 2024 (September 30, 2024), in USD millions?')
        .answer,
    ).toBe('$8,600 million');
  });

  it('computes a change, a growth rate, a margin and a ratio with every operand cited', () => {
    const change = answered(
      'How much did total liabilities change from September 30, 2024 to March 31, 2025, in USD millions?',
    );
    expect(change.answer).toBe('$100 million');
    expect(
      change.claims.filter((c) => !c.derived).map((c) => c.citations[0]!.fact?.period),
    ).toEqual(['2024-09-30', '2025-03-31']);
    expect(
      answered(
        'Calculate the growth rate of net income from Q2 FY2024 to Q2 FY2025, as a percentage rounded to one decimal.',
      ).answer,
    ).toBe('57.9%');
    expect(
      answered(
        'What was the gross margin for the three months ended March 31, 2025? Gross margin = gross profit / total revenue. One decimal.',
      ).answer,
    ).toBe('40.0%');
    expect(
      answered(
        'Current ratio at March 31, 2025 (current assets / current liabilities), to two decimals?',
      ).answer,
    ).toBe('1.50');
  });

  it('computes free cash flow with an extension capex concept, its outflow printed in parentheses', () => {
    const out = answered(
      'Free cash flow for the six months ended March 31, 2025 (operating cash flow minus capex), in USD millions?',
    );
    expect(out.answer).toBe('$750 million');
    const capex = out.claims.find((c) => c.metric === 'capex')!;
    expect(capex.printed).toBe('(350)');
    expect(capex.citations[0]!.fact?.concept).toBe('fx:PurchasesOfPropertyAndEquipment');
  });

  it('sends a fact tagged negative but printed positive to review (a sign mistake)', () => {
    const signed = FIXTURE.replace(
      /(name="us-gaap:NetIncomeLoss" contextRef="Q2_25" unitRef="usd" decimals="-6" scale="6")/,
      '$1 sign="-"',
    );
    const r = ask(
      'What was net income for the three months ended March 31, 2025, in millions?',
      filing(signed),
    );
    expect(r.status).toBe('disagreed');
    if (r.status === 'disagreed')
      expect(r.output.readings?.operands[0]?.reasons).toContain(
        'the fact is negative but "$ 300" is printed positive',
      );
  });

  it('sends a fact whose scale disagrees with the printed table to review, with both readings', () => {
    const tampered = FIXTURE.replace(
      /(name="us-gaap:Revenues" contextRef="Q2_25" unitRef="usd" decimals="-6") scale="6"/,
      '$1 scale="3"',
    );
    const r = ask(
      'What were total revenues in the second quarter of fiscal 2025, in USD millions?',
      filing(tampered),
    );
    expect(r.status).toBe('disagreed');
    if (r.status !== 'disagreed') return;
    expect(r.output.errorTag).toBe('fact_text_disagree');
    expect(r.output.readings?.operands[0]).toMatchObject({
      agreed: false,
      fact: { value: '2500000' },
      printed: { cell: '2,500', value: '2500000000' },
    });
    expect(r.output.citations[0]!.fact?.concept).toBe('us-gaap:Revenues');
  });

  it('sends a fact tagged on a row that names another line item to review', () => {
    const mistagged = FIXTURE.replace('<td>Gross profit</td>', '<td>Selling and marketing</td>');
    const r = ask(
      'What was gross profit for the six months ended March 31, 2025, in millions?',
      filing(mistagged),
    );
    expect(r.status).toBe('disagreed');
    if (r.status === 'disagreed') expect(r.output.summary).toContain('does not name Gross profit');
  });

  it('declines a period the filing does not contain, leaving the question to the text path', () => {
    expect(
      ask('What were total revenues in the third quarter of fiscal 2025, in USD millions?'),
    ).toEqual({
      status: 'declined',
      reason: '"third quarter of fiscal 2025": no period of this filing fits it',
    });
  });
});
