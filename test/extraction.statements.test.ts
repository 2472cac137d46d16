import {
  extractMetric,
  type ExtractMetricFound,
} from '../activities/analysis/extraction/extract-metric';
import {
  learnFiscalYearOffset,
  parseHeaderLine,
  resolveColumn,
} from '../activities/analysis/extraction/statement-table';
import {
  BALANCE_PAGE,
  CAPITAL_PAGE,
  CASH_FLOW_PAGE,
  INCOME_PAGE,
  MDNA_PAGE,
  pagesOf,
} from './extraction.fixtures';

const PAGES = pagesOf(MDNA_PAGE, INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE, CAPITAL_PAGE);

function found(
  metric: string,
  fiscalYear: number,
  pages = PAGES,
  extra: Partial<Parameters<typeof extractMetric>[0]> = {},
): ExtractMetricFound {
  const r = extractMetric({ pages, metric, period: { fiscalYear }, ...extra });
  if (r.status !== 'found') throw new Error(`${metric} FY${fiscalYear}: ${r.reason}`);
  const page = pages.find((p) => p.page === r.citation.page)!;
  // The citation must be the exact span and contain the printed number.
  expect(page.text.slice(r.citation.charStart, r.citation.charEnd)).toBe(r.citation.quote);
  expect(r.citation.quote).toContain(r.value.printed);
  return r;
}

describe('income statement', () => {
  it('reads revenue from the primary statement, not MD&A', () => {
    const r = found('revenue', 2018);
    expect(r.value).toEqual({ amount: '1800', unit: 'USD', scale: 'millions', printed: '1,800' });
    expect(r.citation.page).toBe(1);
    expect(r.matchedLabel).toBe('Total net revenues');
    expect(r.periodHeader).toBe('2018');
    expect(r.confidence).toBeGreaterThanOrEqual(0.85);
  });
  it('keeps signs and converts to a requested scale', () => {
    expect(found('operating_income', 2018).value.amount).toBe('-20');
    expect(found('net_income', 2018).value).toMatchObject({ amount: '-38', printed: '$ (38)' });
    expect(found('revenue', 2019, PAGES, { targetScale: 'units' }).value).toMatchObject({
      amount: '2000000000',
      scale: 'units',
    });
    expect(found('revenue', 2019, PAGES, { targetScale: 'billions' }).value.amount).toBe('2');
  });
  it('reads per-share values in units and grouped labels', () => {
    expect(found('eps_diluted', 2017).value).toMatchObject({
      amount: '1.1',
      unit: 'USD/share',
      scale: 'units',
    });
    expect(found('eps_basic', 2018).value.amount).toBe('-0.19');
    expect(found('shares_diluted', 2019).value).toMatchObject({
      amount: '202.8',
      unit: 'shares',
      scale: 'millions',
    });
  });
  it('treats an all-parentheses expense as magnitude but keeps a lone benefit negative', () => {
    expect(found('interest_expense', 2019).value.amount).toBe('35');
    expect(found('income_tax', 2018).value.amount).toBe('-12');
    expect(found('income_tax', 2019).value.amount).toBe('73');
  });
  it('reports a missing period as not found', () => {
    const r = extractMetric({ pages: PAGES, metric: 'revenue', period: { fiscalYear: 2015 } });
    expect(r.status).toBe('not_found');
  });
});

describe('balance sheet', () => {
  it('reads balances by date column', () => {
    expect(found('total_assets', 2019).value.amount).toBe('2805');
    expect(found('inventory', 2018).value.amount).toBe('225');
    expect(found('accounts_receivable', 2019).value.amount).toBe('420');
    expect(found('ppe_net', 2018).value.amount).toBe('500');
    expect(found('total_liabilities', 2019).value.amount).toBe('1400');
    expect(found('total_equity', 2019).value.amount).toBe('1405');
    expect(found('long_term_debt', 2018).value.amount).toBe('720');
    expect(found('cash', 2019).value.amount).toBe('310');
  });
  it('does not take the cash-flow change in inventories for the balance', () => {
    const r = found('inventory', 2019);
    expect(r.citation.page).toBe(2);
    expect(r.value.amount).toBe('275');
  });
  it('lowers confidence below 0.70 when two statements disagree', () => {
    const restated = BALANCE_PAGE.replace('Total assets   $ 2,805', 'Total assets   $ 2,905');
    const r = extractMetric({
      pages: pagesOf(BALANCE_PAGE, restated),
      metric: 'total_assets',
      period: { fiscalYear: 2019 },
    });
    expect(r.status).toBe('found');
    if (r.status === 'found') {
      expect(r.confidence).toBeLessThan(0.7);
      expect(r.alternatives.some((a) => a.note.startsWith('conflicting'))).toBe(true);
    }
  });
  it('lowers confidence when the scale is unknown', () => {
    const noScale = BALANCE_PAGE.replace('(Amounts in millions, except share data)\n', '');
    const r = extractMetric({
      pages: pagesOf(noScale),
      metric: 'total_assets',
      period: { fiscalYear: 2019 },
    });
    expect(r.status === 'found' && r.confidence < 0.7).toBe(true);
  });
});

describe('cash-flow statement', () => {
  it('reads outflows as magnitudes and wrapped labels', () => {
    expect(found('capex', 2019).value).toMatchObject({ amount: '190', printed: '(190)' });
    expect(found('capex', 2019).matchedLabel.toLowerCase()).toContain('purchases of property');
    expect(found('dividends_paid', 2018).value.amount).toBe('55');
    expect(found('share_repurchases', 2018).value.amount).toBe('0');
    expect(found('operating_cash_flow', 2017).value.amount).toBe('410');
    expect(found('depreciation_amortization', 2019).value.amount).toBe('90');
  });
});

describe('bank capital ratios', () => {
  it('reads ratios as percent and ignores requirement rows', () => {
    expect(found('cet1_ratio', 2022).value).toMatchObject({
      amount: '10.5',
      unit: 'percent',
      printed: '10.5%',
    });
    expect(found('tier1_ratio', 2021).value.amount).toBe('12.1');
    expect(found('total_capital_ratio', 2022).value.amount).toBe('13.6');
    expect(found('leverage_ratio', 2022).value.amount).toBe('9.2');
    expect(found('slr', 2021).value.amount).toBe('6.4');
    expect(
      extractMetric({ pages: PAGES, metric: 'lcr', period: { fiscalYear: 2022 } }).status,
    ).toBe('not_found');
  });
});

describe('period headers', () => {
  it('parses year, fiscal and date headers', () => {
    expect(parseHeaderLine('2019   2018   2017')?.map((c) => c.year)).toEqual([2019, 2018, 2017]);
    expect(parseHeaderLine('Fiscal 2023   Fiscal 2022')?.map((c) => c.fiscalYear)).toEqual([
      2023, 2022,
    ]);
    expect(
      parseHeaderLine('(In millions, except per share data)   2021   2020   2019'),
    ).toHaveLength(3);
    expect(parseHeaderLine('Total net revenues   2,000   1,800')).toBeNull();
    expect(parseHeaderLine('2021 FORM 10-K 57')).toBeNull();
    const d = parseHeaderLine('January 28, 2023   January 29, 2022');
    expect(d?.map((c) => c.date)).toEqual([
      { year: 2023, month: 1, day: 28 },
      { year: 2022, month: 1, day: 29 },
    ]);
  });
  it('maps January year-ends by the document convention, conservatively otherwise', () => {
    const col = parseHeaderLine('January 28, 2023')![0]!;
    expect(resolveColumn(col, 0)).toMatchObject({ fiscalYear: 2023, certainty: 1 });
    expect(resolveColumn(col, 1)).toMatchObject({ fiscalYear: 2022, certainty: 1 });
    expect(resolveColumn(col, null).certainty).toBeLessThan(0.85);
    expect(resolveColumn(col, null, 2022, 2023)).toMatchObject({ fiscalYear: 2022 });
    expect(
      learnFiscalYearOffset(pagesOf('Fiscal 2022 ended January 28, 2023 and included 52 weeks.')),
    ).toBe(1);
    expect(
      learnFiscalYearOffset(pagesOf('the fiscal year ended January 28, 2023 ("fiscal 2023")')),
    ).toBe(0);
  });
  it('uses only annual columns for a fiscal-year request in a quarterly table', () => {
    const page = [
      'CONDENSED CONSOLIDATED STATEMENTS OF EARNINGS',
      '($ in millions)',
      'Three Months Ended   Twelve Months Ended',
      'January 1, 2023   January 2, 2022   January 1, 2023   January 2, 2022',
      'Net sales   $ 500   $ 450   $ 1,900   $ 1,700',
    ].join('\n');
    const r = extractMetric({
      pages: pagesOf(page),
      metric: 'revenue',
      period: { fiscalYear: 2022 },
    });
    expect(r.status === 'found' && r.value.amount).toBe('1900');
  });
  it('reads the dividends a company paid, not those it declared and has yet to pay', () => {
    const page = [
      'CONSOLIDATED STATEMENTS OF CASH FLOWS',
      '(In millions)',
      'Year Ended May 31,   2031   2030',
      'Cash used by financing activities:',
      'Dividends — common and preferred   (2,012)   (1,837)',
      'Cash used by financing activities   (7,447)   (4,836)',
      'Supplemental disclosure of cash flow information:',
      'Dividends declared and not paid   524   480',
    ].join('\n');
    expect(
      extractMetric({
        pages: pagesOf(page),
        metric: 'dividends_paid',
        period: { fiscalYear: 2031 },
      }),
    ).toMatchObject({ status: 'found', value: { amount: '2012' } });
    const preferredOnly = page.replace(
      'Dividends — common and preferred',
      'Dividends on preferred stock',
    );
    expect(
      extractMetric({
        pages: pagesOf(preferredOnly),
        metric: 'dividends_paid',
        period: { fiscalYear: 2031 },
      }).status,
    ).toBe('not_found');
  });
  it('reads bare years under one named quarter as that quarter of each year', () => {
    // An earnings release: the quarter is named above the years, not in the header line.
    const quarterPage = (scope: string) =>
      [
        'CONDENSED CONSOLIDATED STATEMENT OF EARNINGS',
        `(Unaudited; in Millions)   ${scope}`,
        '',
        '2031   2030   Percent',
        'Sales to customers   $ 2,370   $ 2,480   (4.4)',
      ].join('\n');
    const q4 = (period: { fiscalYear: number; quarter?: number }, scope = 'FOURTH QUARTER') =>
      extractMetric({ pages: pagesOf(quarterPage(scope)), metric: 'revenue', period });
    expect(q4({ fiscalYear: 2031, quarter: 4 })).toMatchObject({
      status: 'found',
      value: { amount: '2370' },
    });
    expect(q4({ fiscalYear: 2030, quarter: 4 })).toMatchObject({ value: { amount: '2480' } });
    // Not the year, and not another quarter.
    expect(q4({ fiscalYear: 2031 }).status).toBe('not_found');
    expect(q4({ fiscalYear: 2031, quarter: 3 }).status).toBe('not_found');
    // Two quarters named: which one heads the years is not known.
    expect(q4({ fiscalYear: 2031, quarter: 4 }, 'THIRD QUARTER   FOURTH QUARTER').status).toBe(
      'not_found',
    );
  });
});
