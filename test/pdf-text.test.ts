import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractPdfText, PdfTextError, type PdfErrorCode } from '../activities/documents/pdf-text';
import { sharedDataset } from './support/shared-dataset';

// Fixtures are written by test/fixtures/pdf/make-fixtures.ts.
const FIXTURES = path.join(__dirname, 'fixtures', 'pdf');
const fixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(path.join(FIXTURES, name)));

async function expectPdfError(
  promise: Promise<unknown>,
  code: PdfErrorCode,
): Promise<PdfTextError> {
  const err = await promise.then(
    () => {
      throw new Error(`expected PdfTextError ${code}, but extraction succeeded`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PdfTextError);
  expect(err).toBeInstanceOf(Error);
  expect((err as PdfTextError).name).toBe('PdfTextError');
  expect((err as PdfTextError).code).toBe(code);
  return err as PdfTextError;
}

const lines = (text: string): string[] => text.split('\n');

describe('extractPdfText on a statement table', () => {
  let result: Awaited<ReturnType<typeof extractPdfText>>;
  let page0: string[];

  beforeAll(async () => {
    result = await extractPdfText(fixture('statement-table.pdf'));
    page0 = lines(result.pages[0]?.text ?? '');
  });

  it('numbers pages from 0 in document order', () => {
    expect(result.pageCount).toBe(2);
    expect(result.pages.map((p) => p.page)).toEqual([0, 1]);
    expect(result.pages[1]?.text).toContain('NOTES TO FINANCIAL STATEMENTS');
  });

  it('keeps a row with its label and both period columns on one line, 3 spaces between columns', () => {
    expect(page0).toContain('Net revenues   $ 6,489   $ 7,500');
    const row = page0.find((l) => l.startsWith('Net revenues   '));
    expect(row?.split(/\s{2,}/)).toEqual(['Net revenues', '$ 6,489', '$ 7,500']);
    expect(page0).toContain('2023   2022');
  });

  it('keeps rows together despite a point of baseline jitter', () => {
    expect(page0).toContain('Research and development   3,946   1,535');
  });

  it('keeps parenthesised negatives and percent signs attached to their figures', () => {
    expect(page0).toContain('Operating loss   (1,577)   (423)');
    expect(page0).toContain('Operating margin   12.5%   (3.4)%');
    expect(page0).toContain('Gross margin   41.2%   39.8%');
  });

  it('normalises minus signs, en-dash minus, em-dash placeholders stay', () => {
    expect(page0).toContain('Change in bookings   -4.2%   -3.1%');
    expect(page0).toContain('Preferred dividends   —   —');
  });

  it('joins prose with single spaces and normalises ligatures and non-breaking spaces', () => {
    expect(page0).toContain('The financial statements are unaudited; amounts are in millions.');
    expect(page0).toContain('Net revenues grew in 2023 as described in Note 2 and in 2022.');
  });

  it('orders lines top to bottom, without trailing spaces or runs of blank lines', () => {
    const order = [
      'CONSOLIDATED STATEMENTS OF OPERATIONS',
      'Year Ended December 31,',
      '2023   2022',
      'Net revenues   $ 6,489   $ 7,500',
      'Cost of revenues   4,120   4,388',
      'Preferred dividends   —   —',
    ].map((l) => page0.indexOf(l));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    for (const page of result.pages) {
      expect(page.text).not.toMatch(/[ \t]+$/m);
      expect(page.text).not.toMatch(/\n\s*\n\s*\n/);
      expect(page.text).toBe(page.text.trim());
    }
  });
});

describe('extractPdfText page handling', () => {
  it('gives a page without text an empty string when other pages have text', async () => {
    const { pageCount, pages } = await extractPdfText(fixture('mixed-pages.pdf'));
    expect(pageCount).toBe(3);
    expect(pages).toEqual([
      { page: 0, text: 'First page with text' },
      { page: 1, text: '' },
      { page: 2, text: 'Third page with text\n1,234' },
    ]);
  });

  it('resumes at fromPage, still reporting the whole page count', async () => {
    const { pageCount, pages } = await extractPdfText(fixture('mixed-pages.pdf'), { fromPage: 2 });
    expect(pageCount).toBe(3);
    expect(pages.map((p) => p.page)).toEqual([2]);
    expect(pages[0]?.text).toContain('Third page with text');
  });

  it('returns no pages when fromPage is past the end', async () => {
    const result = await extractPdfText(fixture('mixed-pages.pdf'), { fromPage: 3 });
    expect(result).toEqual({ pageCount: 3, pages: [] });
  });

  it('rejects a fromPage that is not a number', async () => {
    await expect(
      extractPdfText(fixture('mixed-pages.pdf'), { fromPage: Number.NaN }),
    ).rejects.toThrow(RangeError);
  });

  it('reports progress after every page, counted from the start of the document', async () => {
    const calls: Array<[number, number]> = [];
    await extractPdfText(fixture('mixed-pages.pdf'), {
      onProgress: (done, total) => calls.push([done, total]),
    });
    expect(calls).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);

    const resumed: Array<[number, number]> = [];
    await extractPdfText(fixture('mixed-pages.pdf'), {
      fromPage: 1,
      onProgress: (done, total) => resumed.push([done, total]),
    });
    expect(resumed).toEqual([
      [2, 3],
      [3, 3],
    ]);
  });

  it('lays out pages rotated by /Rotate and by the text matrix', async () => {
    const { pages } = await extractPdfText(fixture('rotated-table.pdf'));
    for (const page of pages) {
      expect(lines(page.text)).toEqual(['Total assets   $ 228,354', 'Total liabilities   203,643']);
    }
  });

  it('leaves the caller’s bytes untouched and accepts a Buffer view into a larger buffer', async () => {
    const file = readFileSync(path.join(FIXTURES, 'mixed-pages.pdf'));
    const padded = Buffer.concat([
      Buffer.from('garbage-before'),
      file,
      Buffer.from('garbage-after'),
    ]);
    const view = padded.subarray(14, 14 + file.length);
    const before = Buffer.from(view);
    const { pages } = await extractPdfText(view);
    expect(pages[0]?.text).toBe('First page with text');
    expect(view.byteLength).toBe(file.length);
    expect(Buffer.compare(view, before)).toBe(0);
  });

  it('extracts documents concurrently', async () => {
    const [a, b] = await Promise.all([
      extractPdfText(fixture('statement-table.pdf')),
      extractPdfText(fixture('mixed-pages.pdf')),
    ]);
    expect(a.pageCount).toBe(2);
    expect(b.pageCount).toBe(3);
    expect(a.pages[0]?.text).toContain('Net revenues   $ 6,489   $ 7,500');
  });
});

describe('extractPdfText encryption', () => {
  it('opens a file encrypted with an empty user password', async () => {
    const { pages } = await extractPdfText(fixture('encrypted-empty-password.pdf'));
    expect(lines(pages[0]?.text ?? '')).toEqual(['Confidential', 'Net income   7,514']);
  });

  it('fails with PASSWORD_PROTECTED when a real password is needed', async () => {
    await expectPdfError(extractPdfText(fixture('encrypted-password.pdf')), 'PASSWORD_PROTECTED');
  });
});

describe('extractPdfText errors', () => {
  it('fails with EMPTY on 0 bytes', async () => {
    await expectPdfError(extractPdfText(fixture('empty.pdf')), 'EMPTY');
    await expectPdfError(extractPdfText(new Uint8Array(0)), 'EMPTY');
  });

  it('fails with CORRUPT on unparsable bytes', async () => {
    const err = await expectPdfError(extractPdfText(fixture('corrupt.pdf')), 'CORRUPT');
    expect(err.message).toMatch(/could not be parsed/);
    await expectPdfError(
      extractPdfText(new TextEncoder().encode('<html><body>not a pdf</body></html>')),
      'CORRUPT',
    );
  });

  it('fails with NO_TEXT_LAYER when no page has text', async () => {
    const err = await expectPdfError(extractPdfText(fixture('no-text-layer.pdf')), 'NO_TEXT_LAYER');
    expect(err.message).toMatch(/2 pages/);
  });

  it('does not claim NO_TEXT_LAYER on a resumed run, whose earlier pages it has not seen', async () => {
    const { pages } = await extractPdfText(fixture('no-text-layer.pdf'), { fromPage: 1 });
    expect(pages).toEqual([{ page: 1, text: '' }]);
  });
});

// A real filing from the shared FinanceBench dev set, when this checkout has it beside it.
const { path: REAL_10K, present: HAVE_REAL_10K } = sharedDataset(
  'financebench-dev',
  'pdfs',
  'BESTBUY_2019_10K.pdf',
);
const describeReal = HAVE_REAL_10K ? describe : describe.skip;
const realTitle = HAVE_REAL_10K
  ? 'extractPdfText on a real 10-K (BESTBUY_2019_10K.pdf)'
  : `extractPdfText on a real 10-K — SKIPPED: ${REAL_10K} not found`;

describeReal(realTitle, () => {
  let result: Awaited<ReturnType<typeof extractPdfText>>;

  beforeAll(async () => {
    result = await extractPdfText(new Uint8Array(readFileSync(REAL_10K)));
  });

  it('reads every page of the (empty-password encrypted) filing', () => {
    expect(result.pageCount).toBe(107);
    expect(result.pages).toHaveLength(107);
    expect(result.pages.map((p) => p.page)).toEqual([...Array(107).keys()]);
  });

  it('keeps income statement and balance sheet rows on one line with every period column', () => {
    const all = result.pages.flatMap((p) => lines(p.text));
    const amount = String.raw`\$ [\d,]+`;
    const figure = String.raw`(?:\$ )?\(?[\d,.]+\)?`;
    expect(all).toContainEqual(
      expect.stringMatching(new RegExp(`^Revenue   ${amount}   ${amount}   ${amount}$`)),
    );
    expect(all).toContainEqual(
      expect.stringMatching(new RegExp(`^Interest expense   ${figure}   ${figure}   ${figure}$`)),
    );
    expect(all).toContainEqual(
      expect.stringMatching(new RegExp(`^Total assets   ${amount}   ${amount}$`)),
    );
  });
});
