import {
  extractMetricFromIndex,
  indexDocument,
} from '../activities/analysis/extraction/extract-metric';
import { pagesOf } from './extraction.fixtures';

/**
 * An earnings release prints each period as an amount and its percent of sales, under a header
 * that names only the years. Which cells are the amounts is a layout guess, held below the
 * delivery floor, unless the row's own arithmetic confirms it: every percentage is the amount
 * over the table's 100.0 row, within one unit of the printed precision (issue 20, independent
 * checks).
 */
const release = (costPercent2022: string) =>
  [
    'Example Pharma Inc. and Subsidiaries',
    'Condensed Consolidated Statement of Earnings',
    '(Unaudited; in Millions Except Per Share Figures)   FOURTH QUARTER',
    '2022   2021   Percent',
    'Percent   Percent   Increase',
    'Amount   to Sales   Amount   to Sales   (Decrease)',
    'Sales to customers   $ 23,706   100.0   $ 24,804   100.0   (4.4)',
    `Cost of products sold   7,765   ${costPercent2022}   7,955   32.1   (2.4)`,
    'Gross Profit   15,941   67.2   16,849   67.9   (5.4)',
    'Interest (income) expense, net   (77)   (0.3)   47   0.2',
    'Net earnings   $ 3,520   14.8   $ 4,736   19.1   (25.7)',
  ].join('\n');

const read = (text: string, metric: string) =>
  extractMetricFromIndex(indexDocument(pagesOf(text)), {
    metric,
    period: { fiscalYear: 2022, quarter: 4 },
  });

describe('the amount and percent-of-sales layout', () => {
  it('is certain when every percentage is the amount over the 100.0 row', () => {
    const r = read(release('32.8'), 'cost_of_revenue');
    expect(r).toMatchObject({ status: 'found', value: { amount: '7765' } });
    if (r.status === 'found') expect(r.confidence).toBeGreaterThanOrEqual(0.95);
    // A filer that cuts instead of rounding (32.7 for 32.755) is within one printed unit.
    const cut = read(release('32.7'), 'cost_of_revenue');
    if (cut.status === 'found') expect(cut.confidence).toBeGreaterThanOrEqual(0.95);
    const n = read(release('32.8'), 'net_income');
    if (n.status === 'found') expect(n.confidence).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps its doubt when a percentage does not agree', () => {
    // 7,765 / 23,706 is 32.76%: a printed 33.8 does not confirm which cells are amounts.
    const r = read(release('33.8'), 'cost_of_revenue');
    expect(r.status).toBe('found');
    if (r.status === 'found') expect(r.confidence).toBeLessThan(0.85);
  });
});
