import { answerQuestion } from '../activities/analysis/extraction';
import { createExtractMetric } from '../activities/analysis/extract-metric';
import type { PageStore } from '../activities/analysis/page-store';
import { checkAnswerForm } from '../workflows/analysis/answer-form';
import {
  BALANCE_PAGE,
  CASH_FLOW_PAGE,
  INCOME_PAGE,
  MDNA_PAGE,
  pagesOf,
} from './extraction.fixtures';

const PAGES = pagesOf(MDNA_PAGE, INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE);
const answer = (question: string) => {
  const a = answerQuestion({ question, pages: PAGES });
  if (a.status !== 'answered') throw new Error(`${question}: ${a.reason}`);
  return a;
};

describe('rounding and scale as asked, once, from exact decimals', () => {
  it.each([
    // 292 (millions) asked in billions: exact without a rounding asked, rounded once when asked.
    ['What is the FY2019 net income in USD billions?', '$0.292 billion', null],
    [
      'What is the FY2019 net income in USD billions? Round to two decimal places.',
      '$0.29 billion',
      2,
    ],
    [
      'What is the FY2019 net income in USD billions? Round to one decimal place.',
      '$0.3 billion',
      1,
    ],
    ['What is the FY2019 net income in USD thousands?', '$292,000 thousand', null],
    ['What is the FY2019 net income (in USD millions)?', '$292 million', null],
  ])('%s → %s', (question, stated, roundedTo) => {
    const a = answer(question);
    expect(a.answer).toBe(stated);
    expect(a.roundedTo).toBe(roundedTo);
    // The full-precision value is kept beside the stated answer.
    expect(a.value).toBe('292000000');
  });

  it('states a percent question as a percent and a ratio question as a bare ratio', () => {
    expect(
      answer('What is the FY2019 gross margin? Answer in percent, rounded to one decimal place.')
        .answer,
    ).toBe('42.5%');
    expect(answer('What is the FY2019 current ratio? Round to two decimal places.').answer).toMatch(
      /^\d+\.\d{2}$/,
    );
  });
});

describe('extract_metric reports both readings and the delivered form', () => {
  const store = { pages: async () => PAGES } as unknown as PageStore;
  const extract = createExtractMetric(store, null);
  const run = (question: string) =>
    extract({ orgId: 'acme', docId: 'doc-1', question, allowLlm: false });

  it('a level in USD millions: asked, second reading and delivered agree', async () => {
    const out = await run('What is the FY2019 net income (in USD millions)?');
    expect(out.status).toBe('structured');
    expect(out.form?.delivered).toEqual({
      kind: 'currency_amount',
      scale: 'millions',
      currency: 'USD',
      rounding: null,
      periods: ['FY2019'],
      periodCount: 1,
      operation: 'level',
      definition: null,
    });
    expect(checkAnswerForm(out.form ?? null)).toMatchObject({ ok: true, status: 'agree' });
  });

  it('a 3-year average names the three years it computed over', async () => {
    const out = await run(
      'What is the FY2017 - FY2019 3 year average net profit margin (as a %)? Round to one decimal place.',
    );
    expect(out.status).toBe('structured');
    expect(out.form?.delivered).toMatchObject({
      kind: 'percent',
      rounding: 1,
      periods: ['FY2017', 'FY2018', 'FY2019'],
      periodCount: 3,
      operation: 'average',
    });
    expect(checkAnswerForm(out.form ?? null).ok).toBe(true);
  });

  it('a question the parser misreads is answered, but the form check refuses it', async () => {
    // The parser reads a level of FY2019 net income ("climb" is not among its change verbs);
    // the cue reader reads a percent.
    const out = await run('By what percent did net income climb between FY2018 and FY2019?');
    const check = checkAnswerForm(out.form ?? null);
    expect(check.ok).toBe(false);
    expect(check.reasons).toContain(
      'form_disagreement: kind read as currency_amount by the question parser, percent by the cue reader',
    );
  });

  it('a question with no structured answer carries both readings and no delivered form', async () => {
    const out = await run('What is the FY2019 revenue from Europe in USD millions?');
    expect(out.status).not.toBe('structured');
    expect(out.form).toMatchObject({ asked: null, delivered: null });
    expect(out.form?.secondReading).toMatchObject({ kind: 'currency_amount', scale: 'millions' });
  });
});
