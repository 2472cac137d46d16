import { inAdjustedBlock } from '../activities/analysis/extraction/adjusted-block';
import { indexPage } from '../activities/analysis/extraction/statement-table';
import { answerYesNo } from '../activities/analysis/extraction/definition/yes-no';

// An invented earnings release: the reported statement, then its non-GAAP block with a second
// "Net earnings" row (the layout of a quarterly release's first pages).
const RELEASE = [
  'Example Corp. and Subsidiaries',
  'Condensed Consolidated Statement of Earnings',
  '(Unaudited; in Millions)   SECOND QUARTER',
  '2031   2030',
  'Sales to customers   $ 2,553   $ 2,402',
  'Cost of products sold   821   792',
  'Gross Profit   1,732   1,610',
  'Earnings before provision for taxes on income   676   584',
  'Provision for taxes on income   162   103',
  'Net earnings   $ 514   $ 481',
  '',
  'Adjusted earnings before provision for taxes and net earnings (1)',
  'Earnings before provision for taxes on income   $ 882   $ 817',
  'Net earnings   $ 736   $ 691',
  '(1) See Reconciliation of Non-GAAP Financial Measures.',
].join('\n');

describe('a row in a non-GAAP block of an earnings release', () => {
  const page = indexPage({ page: 9, text: RELEASE });
  const rows = (label: string) => page.lines.filter((l) => l.row.label === label);

  it('is told apart from the reported row of the same label by the caption above it', () => {
    const [reported, adjusted] = rows('Net earnings');
    expect(inAdjustedBlock(page, reported!)).toBe(false);
    expect(inAdjustedBlock(page, adjusted!)).toBe(true);
    const [pretax, adjustedPretax] = rows('Earnings before provision for taxes on income');
    expect([inAdjustedBlock(page, pretax!), inAdjustedBlock(page, adjustedPretax!)]).toEqual([
      false,
      true,
    ]);
  });

  it('is no rival of the reported figure: the reported one is read with full confidence', () => {
    const r = answerYesNo('Were Example Corp’s net earnings higher in Q2 2031 than in Q2 2030?', [
      { page: 9, text: RELEASE },
    ]);
    expect(r).toMatchObject({ status: 'answered', verdict: true });
    if (r.status === 'answered') {
      expect(r.answer).toMatch(/^Yes: \$514 million .* is higher than \$481 million/);
      expect(r.confidence).toBeGreaterThanOrEqual(0.85);
    }
  });
});
