import { parseQuestion } from '../activities/analysis/extraction';

describe('question parser: what a question really asks', () => {
  it('reads "change … in percent" of an amount as growth in percent', () => {
    expect(parseQuestion('By how much did revenue change between FY2021 and FY2022 in percent?')).toMatchObject({
      kind: 'metric',
      metric: 'revenue',
      aggregate: { kind: 'growth', startYear: 2021, endYear: 2022 },
      unit: 'percent',
    });
    expect(parseQuestion('What is the percentage change in net income from FY2021 to FY2022?')).toMatchObject({
      aggregate: { kind: 'growth' },
      unit: 'percent',
    });
  });

  it('keeps a dollar change a dollar change', () => {
    expect(parseQuestion('What is the change in total assets between FY2021 and FY2022 (in USD millions)?')).toMatchObject({
      aggregate: { kind: 'change', startYear: 2021, endYear: 2022 },
      unit: 'USD',
    });
  });

  it('refuses a "percentage change" of a ratio, which could be points or relative', () => {
    expect(parseQuestion('What is the percentage change in gross margin from FY2021 to FY2022?')).toMatchObject({ kind: 'unsupported' });
  });

  it.each([
    'What is the FY2022 revenue per share?',
    'What is the FY2022 revenue per store?',
    'What was FY2022 net income per employee (in USD)?',
  ])('refuses a per-unit figure that is not the named total: %s', (q) => {
    expect(parseQuestion(q)).toMatchObject({ kind: 'unsupported' });
  });

  it('still answers per-share metrics the catalog has', () => {
    expect(parseQuestion('What is the FY2022 diluted earnings per share?')).toMatchObject({ kind: 'metric', metric: 'eps_diluted' });
  });
});
