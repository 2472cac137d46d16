// Patterns found by scripts/extraction-consistency.ts (label-free cross-filing and identity
// checks), each reproduced on synthetic statement text.
import { answerQuestion } from '../activities/analysis/extraction';
import { extractMetric } from '../activities/analysis/extraction/extract-metric';
import { splitRow } from '../activities/analysis/extraction/numbers';
import {
  learnFiscalYearEnd,
  parseHeaderLine,
  resolveColumn,
} from '../activities/analysis/extraction/statement-table';
import { pagesOf } from './extraction.fixtures';

// A retailer's 10-Q: the balance sheet sets the quarter end beside the last fiscal year end
// and the same quarter a year earlier.
const INTERIM_BALANCE = [
  'Condensed Consolidated Balance Sheets',
  '$ in millions (unaudited)',
  'July 29, 2023   January 28, 2023   July 30, 2022',
  'Cash and cash equivalents   $ 1,093   $ 1,874   $ 840',
  'Merchandise inventories   5,651   5,140   6,043',
  'Total current assets   8,304   8,802   8,344',
  'Total assets   $ 15,318   $ 15,803   $ 15,419',
].join('\n');
const INTERIM_NOTES = [
  'Basis of Presentation',
  'Read with our Annual Report on Form 10-K for the fiscal year ended January 28, 2023.',
  'Our fiscal year ends on the Saturday nearest the end of January.',
].join('\n');

describe('interim (quarter-end) columns', () => {
  const pages = pagesOf(INTERIM_BALANCE, INTERIM_NOTES);

  it('learns the fiscal year-end month from wording', () => {
    expect(learnFiscalYearEnd(pages)).toBe(1);
    expect(learnFiscalYearEnd(pagesOf('For the years ended December 31, 2022 and 2021'))).toBe(
      null,
    );
    expect(
      learnFiscalYearEnd(
        pagesOf('years ended May 31, 2023 and 2022', 'fiscal years ended May 31, 2021'),
      ),
    ).toBe(5);
  });

  it('does not read a mid-year balance as a fiscal year-end balance', () => {
    // July 30, 2022 falls inside the fiscal year that ends January 2023.
    const r = extractMetric({ pages, metric: 'total_assets', period: { fiscalYear: 2022 } });
    expect(r.status).toBe('not_found');
  });

  it('maps a quarter-end date to the fiscal year that closes next', () => {
    const [col] = parseHeaderLine('July 29, 2023')!;
    expect(resolveColumn(col!, 0, undefined, 2023, 1)).toMatchObject({
      fiscalYear: 2024,
      quarter: 2,
      interim: true,
    });
    // A May year end: November 30, 2022 closes the second quarter of fiscal 2023.
    const [nov] = parseHeaderLine('November 30, 2022')!;
    expect(resolveColumn(nov!, null, undefined, 2022, 5)).toMatchObject({
      fiscalYear: 2023,
      quarter: 2,
    });
    // December and January are adjacent: a 52/53-week year end is not interim.
    const [jan] = parseHeaderLine('January 1, 2023')!;
    expect(resolveColumn(jan!, null, undefined, 2023, 12).interim).toBeUndefined();
    const q = extractMetric({
      pages,
      metric: 'total_assets',
      period: { fiscalYear: 2024, quarter: 2 },
      docPeriod: 2024,
    });
    expect(q.status === 'found' && q.value.amount).toBe('15318');
  });
});

describe('rows with more values than period columns', () => {
  it('reads amount / percent-of-sales pairs followed by a change column', () => {
    const page = [
      'Condensed Consolidated Statement of Earnings',
      '(Unaudited; in Millions Except Per Share Figures)   TWELVE MONTHS',
      '2022   2021   Percent',
      'Sales to customers   $ 94,943   100.0   $ 93,775   100.0   1.3',
      'Cost of products sold   31,089   32.7   29,855   31.8   4.1',
    ].join('\n');
    const r = extractMetric({
      pages: pagesOf(page),
      metric: 'revenue',
      period: { fiscalYear: 2021 },
    });
    expect(r.status === 'found' && r.value.amount).toBe('93775');
  });

  it('reads periods followed by a dollar change and a percent change', () => {
    const page = [
      'Results of operations',
      '(In millions)',
      '2019   2018   $ Change   % Change',
      'Net revenues   6,489   7,500   (1,011)   (13)%',
    ].join('\n');
    const r = extractMetric({
      pages: pagesOf(page),
      metric: 'revenue',
      period: { fiscalYear: 2018 },
    });
    expect(r.status === 'found' && r.value.amount).toBe('7500');
  });

  it('refuses a row whose extra columns are further periods the header does not name', () => {
    // A year over "Q1  Q2  Six months": the first amount is a quarter, not the year.
    const page = [
      'Condensed Consolidated Statement of Earnings',
      '(Unaudited; in Millions Except Per Share Figures)   2023',
      'Q1   Q2   SIX MONTHS',
      'Sales to customers   $ 20,894   100.0%   $ 21,519   100.0%   $ 42,413   100.0%',
      'Net earnings   $ (68)   $ 5,144   $ 5,076',
    ].join('\n');
    for (const metric of ['revenue', 'net_income']) {
      const r = extractMetric({ pages: pagesOf(page), metric, period: { fiscalYear: 2023 } });
      expect(r.status).toBe('not_found');
    }
  });
});

const BALANCE_WRAPPED = [
  'CONSOLIDATED BALANCE SHEETS',
  '(In millions)',
  'December 31,   2020   2019',
  'Trade accounts receivable, net of doubtful accounts - $46 and $41   2,133   1,836',
  'Total current assets   8,004   7,463',
  'Property, plant and equipment, net of accumulated depreciation -',
  '',
  '$ 13,663 and $12,995 (Note 9)   15,742   15,337',
  'Total Assets   $ 30,775   $ 28,898',
].join('\n');

describe('labels that carry amounts', () => {
  it('keeps "- $46 and $41" in the label', () => {
    const r = splitRow(
      'Trade accounts receivable, net of doubtful accounts - $46 and $41   2,133   1,836',
    );
    expect(r.label).toBe('Trade accounts receivable, net of doubtful accounts - $46 and $41');
    expect(r.cells.map((c) => c.parsed.value)).toEqual(['2133', '1836']);
    const ar = extractMetric({
      pages: pagesOf(BALANCE_WRAPPED),
      metric: 'accounts_receivable',
      period: { fiscalYear: 2020 },
    });
    expect(ar.status === 'found' && ar.value.amount).toBe('2133');
    expect(ar.status === 'found' && ar.confidence).toBeGreaterThanOrEqual(0.85);
  });

  it('treats a trailing glued dash as a wrapped label and joins the amount line', () => {
    const r = splitRow('Property, plant and equipment, net of accumulated depreciation -');
    expect(r.cells).toHaveLength(0);
    const ppe = extractMetric({
      pages: pagesOf(BALANCE_WRAPPED),
      metric: 'ppe_net',
      period: { fiscalYear: 2019 },
    });
    expect(ppe.status === 'found' && ppe.value.amount).toBe('15337');
  });
});

describe('tables that contradict the primary statement', () => {
  it('drops a same-named row whose overlapping years disagree with the statement', () => {
    const segment = [
      'A reconciliation of reportable segment assets to consolidated total assets follows (in millions):',
      'December 31,',
      '2020   2019   2018',
      'Total assets of reportable segments   $ 16,865   $ 16,998   $ 16,230',
      'Property, plant and equipment, net (3)   1,548   1,764   1,928',
    ].join('\n');
    const pages = pagesOf(BALANCE_WRAPPED, segment);
    const r = extractMetric({ pages, metric: 'ppe_net', period: { fiscalYear: 2018 } });
    expect(r.status).toBe('not_found');
    // A selected-data table that agrees with the statement where they overlap stays usable.
    const selected = [
      'Five-year summary (in millions)',
      '2020   2019   2018',
      'Total assets   $ 30,775   $ 28,898   $ 27,505',
    ].join('\n');
    const ok = extractMetric({
      pages: pagesOf(BALANCE_WRAPPED, selected),
      metric: 'total_assets',
      period: { fiscalYear: 2018 },
    });
    expect(ok.status === 'found' && ok.value.amount).toBe('27505');
  });

  it('still answers the natural question from the statement', () => {
    const a = answerQuestion({
      question: 'What is the FY2020 total assets (in USD millions)?',
      pages: pagesOf(BALANCE_WRAPPED),
    });
    expect(a.status === 'answered' && a.answer).toBe('$30,775 million');
  });
});
