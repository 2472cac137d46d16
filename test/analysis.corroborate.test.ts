import {
  corroboratingCitations,
  printedRatioDisagrees,
  statedPercents,
} from '../activities/analysis/corroborate';

const pages = [
  { page: 3, text: 'Income before taxes   1,000   900\nProvision   216   222' },
  { page: 7, text: 'Results\nEffective tax rate   21.6%   24.6%   27.0%\nOther' },
  { page: 9, text: 'Effective tax rate   23%   20%' },
];

describe('corroborating citations for computed ratios', () => {
  it('cites the line where the filing prints the computed ratio, at its printed precision', () => {
    expect(corroboratingCitations('d', pages, 'effective_tax_rate', [21.6, 24.6])).toEqual([
      {
        docId: 'd',
        page: 7,
        charStart: 8,
        charEnd: 50,
        quote: 'Effective tax rate   21.6%   24.6%   27.0%',
      },
    ]);
    // 22.9% computed is printed as 23% where the filing rounds to whole percents.
    expect(corroboratingCitations('d', pages, 'effective_tax_rate', [22.9])).toEqual([
      { docId: 'd', page: 9, charStart: 0, charEnd: 30, quote: 'Effective tax rate   23%   20%' },
    ]);
  });

  it('cites nothing when the printed figures disagree or the phrase is too vague', () => {
    expect(corroboratingCitations('d', pages, 'effective_tax_rate', [31.2])).toEqual([]);
    expect(corroboratingCitations('d', pages, 'rate', [21.6])).toEqual([]);
  });

  it('reads the percent figures an answer states', () => {
    expect(statedPercents('-3.0 percentage points (24.6% in FY2021 to 21.6% in FY2022)')).toEqual([
      24.6, 21.6,
    ]);
  });
});

describe('a printed ratio that contradicts the computed one', () => {
  const table = [
    {
      page: 4,
      text: 'Segment data\nGross margin   38.5%   37.9%\nThe gross margin rate decreased 0.6%',
    },
  ];
  it('is found when the filing prints the ratio as a row and no figure agrees', () => {
    expect(printedRatioDisagrees(table, 'gross_margin', [42.0])).toEqual({
      docId: '',
      page: 4,
      charStart: 13,
      charEnd: 41,
      quote: 'Gross margin   38.5%   37.9%',
    });
  });
  it('is not raised when a printed figure agrees at its precision, or only prose mentions the ratio', () => {
    expect(printedRatioDisagrees(table, 'gross_margin', [38.46])).toBeNull();
    expect(
      printedRatioDisagrees(
        [{ page: 1, text: 'Our gross margin rate decreased 0.6%' }],
        'gross_margin',
        [42],
      ),
    ).toBeNull();
  });
});
