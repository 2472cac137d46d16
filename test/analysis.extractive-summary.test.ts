import { extractiveSummary, questionStems } from '../activities/analysis/extractive-summary';

/** Pure: a code-mode summary is the documents' own sentences, each cited to its exact span. */
describe('extractive summary', () => {
  const page0 =
    'NORTHWIND INC. ANNUAL REPORT\n\nItem 7. Management discussion. Our liquidity remained strong in fiscal 2024, supported by operating cash flow and an undrawn revolving credit facility. ' +
    'Revenue 1,577 1,402 1,311 12.4% 7.0%. We opened two stores.';
  const page1 =
    'Item 9A. Controls and procedures. Management identified no material weakness in internal control over financial reporting as of year end. ' +
    'Our liquidity remained strong in fiscal 2024, supported by operating cash flow and an undrawn revolving credit facility.';
  const docs = [
    {
      docId: 'nw',
      pages: [
        { page: 0, text: page0 },
        { page: 1, text: page1 },
      ],
    },
  ];

  it('takes the sentences that bear on the question, in document order, each cited exactly', () => {
    const s = extractiveSummary('Summarise liquidity and any control weaknesses', docs);
    expect(s.map((x) => x.text)).toEqual([
      'Our liquidity remained strong in fiscal 2024, supported by operating cash flow and an undrawn revolving credit facility.',
      'Management identified no material weakness in internal control over financial reporting as of year end.',
    ]);
    for (const x of s) {
      const text = docs[0]!.pages[x.citation.page]!.text;
      expect(text.slice(x.citation.charStart, x.citation.charEnd)).toBe(x.citation.quote);
      expect(x.citation.quote).toBe(x.text);
    }
    // The repeated sentence is cited once, where it first appears.
    expect(s[0]?.citation.page).toBe(0);
  });

  it('leaves out table rows and headings, and finds nothing for a question with no content words', () => {
    const s = extractiveSummary('revenue stores', docs);
    expect(s.map((x) => x.text)).toEqual([]);
    expect(questionStems('Summarise the company')).toEqual([]);
    expect(extractiveSummary('Summarise the company', docs)).toEqual([]);
  });
});

describe('extractive summary sentences', () => {
  it('keeps a decimal number inside its sentence', () => {
    const text =
      'Liquidity: cash and equivalents were $1,577.5 million at year end, up from $1,402.1 million a year earlier. Next sentence here.';
    const [s] = extractiveSummary('cash liquidity', [{ docId: 'd', pages: [{ page: 0, text }] }]);
    expect(s?.text).toBe(
      'Liquidity: cash and equivalents were $1,577.5 million at year end, up from $1,402.1 million a year earlier.',
    );
  });
});
