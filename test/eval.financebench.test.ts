import { join } from 'node:path';
import { computeMetrics, runFinanceBench, type EvalItem } from '../scripts/eval/financebench';
import { calibrationTable, gradeAnswer, numbersOf, percentile } from '../scripts/eval/grading';
import { FIXTURES } from './support/fixtures';
import { useSeededWorker } from './support/seeded-worker';

describe('grading against gold answers', () => {
  it.each([
    ['$4,812 million', '$4812.00', true],
    ['$4,812 million', '$4860.00', true], // within 1%
    ['$4,812 million', '$4900.00', false],
    ['42.0%', '42.0%', true],
    ['41.9%', '42.0%', true],
    ['24.26', '24.26', true],
    ['24.31', '24.26', true], // 0.2% off
    ['2.72', 'JnJ sold its inventory 2.7 times in FY2022.', true],
    ['3.1', 'JnJ sold its inventory 2.7 times in FY2022.', false],
    ['$8,700 million', '$8.7 billion', true],
    [
      '-3.0 percentage points (24.6% in FY2021 to 21.6% in FY2022)',
      'The rate dropped from 24.6% in FY 2021 to 21.6% in FY 2022.',
      true,
    ],
    [
      '2.6 percentage points (20.2% in FY2021 to 22.9% in FY2022)',
      'The rate changed from 20% in FY2021 to 23% in FY 2022.',
      true,
    ],
    [
      '-3.0 percentage points (24.6% in FY2021 to 19.0% in FY2022)',
      'The rate dropped from 24.6% in FY 2021 to 21.6% in FY 2022.',
      false,
    ],
    ['Yes', 'Yes, the margins were consistent', true],
    ['No', 'Yes, the margins were consistent', false],
    ['no figure here', '$100.00', false],
    // Rounding "as the gold is printed" happens in the gold's units, never at its scale word:
    // both would round to 0 billions, yet they are different answers.
    ['$348 million', '$1,028 million', false],
    ['$7,017 million', '$1,378 million', false],
    ['$1.42 billion', '$5.67 billion', false],
    ['$1,378 million', '$1,378 million', true],
    ['$1.378 billion', '$1,378 million', true],
    ['$0.389 billion', '$0.39 billion', true],
    ['$0.39 billion', '$0.40 billion', false],
    // A percent is not an amount or a bare ratio, whatever the digits.
    ['34.8%', '$479 million', false],
    ['$12.3 million', '12.3%', false],
    ['0.85', '85%', false],
  ])('%s against gold %s → %s', (ours, gold, correct) => {
    expect(gradeAnswer(ours, gold).correct).toBe(correct);
  });

  it('reads signs, decimals and scale words', () => {
    expect(numbersOf('(1,577) and 12.5% of $3.2 billion')).toEqual([
      { value: -1577, decimals: 0, scale: 1, percent: false },
      { value: 12.5, decimals: 1, scale: 1, percent: true },
      { value: 3.2, decimals: 1, scale: 1e9, percent: false },
    ]);
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 95)).toBe(5);
  });

  it('computes the metrics of the dataset README', () => {
    const item = (over: Partial<EvalItem>): EvalItem => ({
      id: 'x',
      question_type: 't',
      doc: 'd',
      outcome: 'delivered',
      answer: '1',
      unit: null,
      citations: [],
      confidence: 0.9,
      reason: null,
      latencyMs: 100,
      gold: '1',
      goldPages: [0],
      correct: true,
      citationHit: true,
      numbersInCitedText: true,
      askedForm: null,
      secondReading: null,
      deliveredForm: null,
      formCheck: null,
      ...over,
    });
    const m = computeMetrics([
      item({}),
      item({ correct: false, citationHit: false }),
      item({ numbersInCitedText: false }),
      item({ outcome: 'human_review', answer: null, correct: null, citationHit: null }),
      item({ outcome: 'failed', answer: null, correct: null, citationHit: null }),
    ]);
    expect(m).toMatchObject({
      questions: 5,
      completion: 0.8,
      automation: 0.6,
      delivered: 3,
      wrong: 1,
    });
    expect(m.deliveredAccuracy).toBeCloseTo(2 / 3);
    expect(m.hallucinationRate).toBeCloseTo(2 / 3); // one wrong, one whose number is not in its cited text
    expect(m.citationAccuracy).toBeCloseTo(2 / 3);
  });

  it('reports accuracy by confidence bucket over delivered answers, 1.0 in the top bucket', () => {
    const table = calibrationTable([
      { confidence: 0.86, correct: true },
      { confidence: 0.9, correct: false },
      { confidence: 0.94, correct: true },
      { confidence: 0.95, correct: true },
      { confidence: 1, correct: false },
      { confidence: 0.5, correct: true },
    ]);
    expect(table).toEqual([
      { from: 0, to: 0.85, delivered: 1, correct: 1, accuracy: 1 },
      { from: 0.85, to: 0.9, delivered: 1, correct: 1, accuracy: 1 },
      { from: 0.9, to: 0.95, delivered: 2, correct: 1, accuracy: 0.5 },
      { from: 0.95, to: 1, delivered: 2, correct: 1, accuracy: 0.5 },
    ]);
  });
});

describe('eval command on the project fixture dataset (real workflow, dev server, PostgreSQL)', () => {
  const env = useSeededWorker();

  it('delivers, routes and grades the known answers', async () => {
    const report = await runFinanceBench({
      datasetDir: join(FIXTURES, 'financebench-mini'),
      ...env.deps(),
      orgId: 'eval-mini',
    });
    const byId = Object.fromEntries(report.items.map((i) => [i.id, i]));
    expect(byId.mini_1).toMatchObject({
      outcome: 'delivered',
      answer: '$4,812 million',
      correct: true,
      citationHit: true,
      numbersInCitedText: true,
    });
    expect(byId.mini_1?.citations[0]).toMatchObject({
      doc: 'northwind-2024-10k',
      page: 0,
      quote: 'Net sales   $ 4,812   $ 4,395   $ 4,020',
    });
    expect(byId.mini_2).toMatchObject({ outcome: 'delivered', answer: '42.0%', correct: true });
    expect(byId.mini_3_wrong_gold).toMatchObject({
      outcome: 'delivered',
      answer: '$361 million',
      correct: false,
      citationHit: false,
    });
    expect(byId.mini_4).toMatchObject({ outcome: 'human_review', answer: null, correct: null });
    expect(byId.mini_4?.reason).toMatch(/answer: no structured answer/);
    expect(report).toMatchObject({
      questions: 4,
      completion: 1,
      automation: 0.75,
      delivered: 3,
      wrong: 1,
    });
    expect(report.deliveredAccuracy).toBeCloseTo(2 / 3);
    expect(report.hallucinationRate).toBeCloseTo(1 / 3);
    expect(report.citationAccuracy).toBeCloseTo(2 / 3);
    expect(report.pagesIngested).toBe(1);
    expect(report.pagesPerSecond).toBeGreaterThan(0);
    expect(Object.keys(report.byQuestionType)).toEqual(['metrics-generated', 'novel-generated']);
  });
});
