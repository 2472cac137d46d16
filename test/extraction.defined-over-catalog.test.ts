import { createExtractMetric } from '../activities/analysis/extract-metric';
import type { PageStore } from '../activities/analysis/page-store';
import { checkAnswerForm } from '../workflows/analysis/answer-form';
import { pagesOf } from './extraction.fixtures';

/**
 * A question that names a catalog metric inside its own arithmetic ("SG&A as a % of net
 * sales", "R&D divided by net sales") asks for that arithmetic, not for the metric: the
 * question's definition is compiled and read from the filing's rows, and the catalog's level
 * is not what is delivered. Synthetic statements, in layouts and wordings of no dev filing.
 */
const INCOME = [
  'NORTHWIND RETAIL, INC.',
  'CONSOLIDATED STATEMENTS OF EARNINGS',
  '(in millions)',
  'Year ended December 31,   2020   2019   2018',
  'Net sales   $ 47,262   $ 43,638   $ 42,879',
  'Cost of sales   36,689   33,590   32,918',
  'Gross profit   10,573   10,048   9,961',
  'Selling, general and administrative expenses   7,928   8,233   8,015',
  'Research, development and engineering expenses   1,154   1,031   993',
  'Operating income   1,491   784   953',
  'Net earnings   $ 1,798   $ 1,541   $ 1,464',
].join('\n');

const store = { pages: async () => pagesOf(INCOME) } as unknown as PageStore;
const extract = createExtractMetric(store, null);
const run = (question: string) =>
  extract({ orgId: 'acme', docId: 'doc-1', question, allowLlm: false });

describe('a definition around a catalog metric is what is answered', () => {
  it.each([
    [
      "What were Northwind's selling, general and administrative expenses as a % of net sales in 2020? Answer in percent to one decimal place.",
      '16.8%', // 7,928 / 47,262
    ],
    [
      "What was Northwind's R&D intensity in 2019, calculated as research, development and engineering expenses divided by net sales? Answer in percent, one decimal place.",
      '2.4%', // 1,031 / 43,638
    ],
  ])('%s', async (question, expected) => {
    const out = await run(question);
    expect(out.status).toBe('structured');
    expect(out.answer).toBe(expected);
    expect(out.form?.delivered?.operation).toBe('quotient');
    expect(checkAnswerForm(out.form ?? null)).toMatchObject({ ok: true });
  });

  it('a plain level of the same metric is still the catalog’s', async () => {
    const out = await run("What were Northwind's net sales in 2020 (in USD millions)?");
    expect(out.status).toBe('structured');
    expect(out.answer).toMatch(/47,262/);
    expect(out.form?.delivered?.operation).toBe('level');
  });
});
