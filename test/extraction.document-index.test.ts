import {
  extractMetricFromIndex,
  indexDocument,
} from '../activities/analysis/extraction/extract-metric';
import { INCOME_PAGE, pagesOf } from './extraction.fixtures';

/**
 * The index of a document is reused across questions, found again by the content of its pages.
 * Two documents that differ only in one figure (a restatement, an amendment) are two documents:
 * each is answered from its own pages, whatever characters the difference falls on.
 */
describe('the document index cache', () => {
  it('never answers one document from the index of another of the same length', () => {
    const original = pagesOf(INCOME_PAGE);
    const at = INCOME_PAGE.indexOf('Net income   $ 292') + 'Net income   $ 2'.length;
    const amended = pagesOf(`${INCOME_PAGE.slice(0, at)}7${INCOME_PAGE.slice(at + 1)}`);
    expect(amended[0]!.text.length).toBe(original[0]!.text.length);
    const read = (pages: typeof original) =>
      extractMetricFromIndex(indexDocument([...pages]), {
        metric: 'net_income',
        period: { fiscalYear: 2019 },
      });
    expect(read(original)).toMatchObject({ status: 'found', value: { amount: '292' } });
    expect(read(amended)).toMatchObject({ status: 'found', value: { amount: '272' } });
    // Found again by content: a fresh array of the same pages reads the same index.
    expect(indexDocument([...original])).toBe(indexDocument([...original]));
  });
});
