import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { definedFromFacts } from '../activities/analysis/facts/defined-from-facts';
import { readDefinition } from '../activities/analysis/extraction/definition/question-definition';
import { filingOf } from './support/inline-facts';

/**
 * A question's own definition computed from the filing's facts: the definition compiler's
 * grammar and presentation, each operand a fact that agrees with its printed row.
 */
const doc = filingOf(readFileSync(join(__dirname, 'fixtures/ixbrl/fiscal-q2-10q.html'), 'utf8'));
const ask = (question: string) => {
  const d = readDefinition(question);
  if (d.status !== 'ok') throw new Error(`no definition read: ${JSON.stringify(d)}`);
  return definedFromFacts({ docId: 'fx-10q', question, definition: d.definition, ...doc });
};

describe('definitions computed from facts', () => {
  it('computes a ratio the question defines, every operand cited by its fact', () => {
    const r = ask(
      'Define Fixture Works’ Q2 FY2025 cost ratio as cost of revenues divided by total revenues. Two decimals.',
    );
    expect(r.status).toBe('answered');
    if (r.status !== 'answered') return;
    expect(r.output.answer).toBe('0.60');
    expect(r.output.readings).toMatchObject({ used: 'facts', agreed: true });
    expect(r.output.citations.map((c) => c.fact?.concept)).toEqual([
      'us-gaap:CostOfRevenue',
      'us-gaap:Revenues',
    ]);
  });

  it('computes an amount the question defines, in the asked scale', () => {
    const r = ask(
      'What was Fixture Works’ Q2 FY2025 operating income less other expense, defined as operating income minus net income, in USD millions?',
    );
    expect(r).toMatchObject({ status: 'answered', output: { answer: '$100 million' } });
  });

  it('reads an operand past a presentation clause it swallowed', () => {
    expect(
      ask(
        'Fixture Works’ Q2 FY2025 margin of safety, defined as operating income divided by gross profit, to two decimals?',
      ),
    ).toMatchObject({ status: 'answered', output: { answer: '0.40' } });
  });

  it('declines an operand the fact path does not read, so the printed rows are tried', () => {
    expect(
      ask(
        'Define the Q2 FY2025 widget ratio as widget revenue divided by total revenues. Two decimals.',
      ),
    ).toMatchObject({ status: 'declined', reason: expect.stringContaining('widget revenue') });
  });
});
