// The answer-form contract at the validation gate: an answer of another form than asked is
// refused, an inline definition beats the catalog, and a cited figure must carry the claim's sign.
// The cue reader's phrasings are in analysis.answer-form-cue-reader.test.ts, both readers on
// unseen questions in analysis.answer-form-two-readers.test.ts.
import {
  definitionMismatch,
  splitTopLevel,
  type AnswerForm,
  type FormEvidence,
} from '../workflows/analysis/answer-form';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { runValidationGate } from '../workflows/analysis/validation-gate';
import { AnalysisRequestSchema } from '../workflows/analysis/request';
import type { NumericClaim } from '../workflows/analysis/evidence';
import type { StepResult } from '../workflows/analysis/step-result';
import { deliveredFormulaOf } from '../activities/analysis/extraction/answer-form';
import { textContainsNumber } from '../activities/analysis/number-match';

const form = (over: Partial<AnswerForm> = {}): AnswerForm => ({
  kind: 'currency_amount',
  scale: 'millions',
  currency: 'USD',
  rounding: null,
  periods: ['FY2019'],
  periodCount: 1,
  operation: 'level',
  definition: null,
  ...over,
});

const evidence = (
  asked: AnswerForm,
  delivered: AnswerForm,
  over: Partial<FormEvidence> = {},
): FormEvidence => ({
  asked,
  secondReading: asked,
  delivered,
  deliveredFormula: null,
  ...over,
});

const request = AnalysisRequestSchema.parse({
  requestId: 'r-1',
  orgId: 'acme',
  docIds: ['doc-1'],
  queryType: 'extract_metric',
  queryText: 'What is the FY2019 net income (in USD millions)?',
});

const claim = (over: Partial<NumericClaim> = {}): NumericClaim => ({
  id: 'c-1',
  label: 'Net income',
  metric: 'net_income',
  kind: 'money',
  value: '292000000',
  unit: 'USD',
  period: 'FY2019',
  printed: '292',
  citations: [{ docId: 'doc-1', page: 0, charStart: 0, charEnd: 20, quote: 'Net income   $ 292' }],
  derived: false,
  formula: null,
  inputs: [],
  source: 'code',
  ...over,
});

const step: StepResult = {
  stepId: 'step-2',
  tool: 'extract_metric',
  purpose: 'extract',
  status: 'ok',
  confidence: 0.97,
  summary: '',
  claims: [],
  citations: [],
  errorTag: null,
  error: null,
  output: null,
  cached: false,
};

function gate(ev: FormEvidence | null, claims: NumericClaim[] = [claim()]) {
  return runValidationGate({
    request,
    steps: [step],
    claims,
    citationChecks: claims.map((c) => ({ claimId: c.id, ok: true, reason: null })),
    answerRequired: true,
    answerPresent: true,
    form: { evidence: ev },
  });
}

describe('the validation gate refuses an answer of another form than asked', () => {
  it('delivers when both readings agree and the answer has the asked form', () => {
    const v = gate(evidence(form(), form()));
    expect(v.route).toBe('DELIVER');
    expect(v.checks.answerForm).toMatchObject({ ok: true, status: 'agree', mismatches: [] });
  });

  it('percent asked, currency amount delivered', () => {
    const asked = form({
      kind: 'percent',
      scale: null,
      currency: null,
      operation: 'percent_change',
      periods: ['FY2018', 'FY2019'],
      periodCount: 2,
    });
    const delivered = form({ operation: 'change', periods: ['FY2018', 'FY2019'], periodCount: 2 });
    const v = gate(evidence(asked, delivered));
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.reasons).toEqual([
      'form_mismatch: kind asked percent, delivered currency_amount',
      'form_mismatch: operation asked percent_change, delivered change',
    ]);
    expect(v.checks.answerForm?.mismatches.map((m) => m.field)).toEqual(['kind', 'operation']);
  });

  it('ratio defined as A divided by B, A minus B delivered as an amount', () => {
    const question =
      'What is the FY2019 quick ratio? Quick ratio is defined as current assets minus inventories divided by current liabilities.';
    const second = readAskedFormByCues(question);
    const asked = form({ kind: 'ratio', scale: null, currency: null, operation: 'quotient' });
    const v = gate(
      evidence(asked, form(), {
        secondReading: second,
        deliveredFormula: deliveredFormulaOf('total_current_assets - inventory'),
      }),
    );
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.reasons).toContain('form_mismatch: kind asked ratio, delivered currency_amount');
    expect(v.reasons).toContain('form_mismatch: operation asked quotient, delivered level');
    expect(v.reasons.filter((r) => r.startsWith('form_definition:'))).toEqual([
      'form_definition: the question defines the answer as current assets minus inventories / current liabilities; delivered formula total_current_assets - inventory has operator -',
    ]);
  });

  it('scale: USD billions asked, millions delivered', () => {
    const v = gate(evidence(form({ scale: 'billions' }), form({ scale: 'millions' })));
    expect(v.reasons).toEqual(['form_mismatch: scale asked billions, delivered millions']);
    expect(v.route).toBe('HUMAN_REVIEW');
  });

  it('rounding: one decimal place asked, none applied (and none asked, two applied)', () => {
    expect(gate(evidence(form({ rounding: 1 }), form())).reasons).toEqual([
      'form_mismatch: rounding asked 1, delivered none',
    ]);
    expect(gate(evidence(form(), form({ rounding: 2 }))).reasons).toEqual([
      'form_mismatch: rounding asked none, delivered 2',
    ]);
  });

  it('period count: a 3-year average computed over two years', () => {
    const op = { operation: 'average' as const, kind: 'percent' as const, scale: null };
    const asked = form({ ...op, periods: ['FY2017', 'FY2018', 'FY2019'], periodCount: 3 });
    const delivered = form({ ...op, periods: ['FY2018', 'FY2019'], periodCount: 2 });
    expect(gate(evidence(asked, delivered)).reasons).toEqual([
      'form_mismatch: periods asked FY2017+FY2018+FY2019, delivered FY2018+FY2019',
      'form_mismatch: periodCount asked 3, delivered 2',
    ]);
  });

  it('sign: a claim of -38 is not backed by a printed 38', () => {
    const v = gate(evidence(form(), form()), [claim({ value: '-38000000', printed: '38' })]);
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.reasons).toEqual([
      'citation: Net income: sign: claim -38000000 but the figure is printed 38, not negative',
    ]);
    // Printed in parentheses, the same claim passes.
    expect(
      gate(evidence(form(), form()), [claim({ value: '-38000000', printed: '(38)' })]).route,
    ).toBe('DELIVER');
  });

  it('two readings that disagree go to review with both readings in the reason', () => {
    const v = gate(
      evidence(
        form({ periods: ['FY2018', 'FY2019'], periodCount: 2, operation: 'change' }),
        form(),
        {
          secondReading: form({
            kind: 'percent',
            scale: null,
            currency: null,
            periods: ['FY2018', 'FY2019'],
            periodCount: 2,
            operation: 'percent_change',
          }),
        },
      ),
    );
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.checks.answerForm?.disagreements).toEqual([
      { field: 'kind', a: 'currency_amount', b: 'percent' },
      { field: 'scale', a: 'millions', b: 'none' },
      { field: 'operation', a: 'change', b: 'percent_change' },
    ]);
    expect(v.reasons).toContain(
      'form_disagreement: kind read as currency_amount by the question parser, percent by the cue reader',
    );
  });

  it('the cue reader must determine kind and operation; the answer must carry its form', () => {
    const unread = gate(
      evidence(form(), form(), { secondReading: form({ kind: null, operation: null }) }),
    );
    expect(unread.reasons).toEqual([
      'form_unread: the cue reader could not determine the quantity kind',
      'form_unread: the cue reader could not determine the operation',
    ]);
    expect(gate(null).reasons).toEqual([
      'form_missing: the answer carries no asked or delivered form',
    ]);
    expect(gate(evidence(form(), form(), { asked: null })).reasons).toEqual([
      'form_unread: the question parser could not read the asked form',
    ]);
  });

  it('does not check a run without an answer, and records nothing when the contract is off', () => {
    const v = runValidationGate({
      request,
      steps: [step],
      claims: [],
      citationChecks: [],
      answerRequired: true,
      answerPresent: false,
    });
    expect(v.checks.answerForm).toBeUndefined();
    expect(v.reasons).toEqual(['answer: no structured answer was produced']);
  });
});

describe('an inline definition beats the catalog', () => {
  const defined = (q: string) => readAskedFormByCues(q).definition!;

  it('accepts the catalog formula only when it is the defined computation', () => {
    const def = defined(
      'What is the FY2021 inventory turnover ratio? Inventory turnover ratio is defined as: (FY2021 COGS) / (average inventory between FY2020 and FY2021). Round your answer to two decimal places.',
    );
    expect(def).toEqual({
      operator: '/',
      left: '(fy2021 cogs)',
      right: '(average inventory between fy2020 and fy2021)',
    });
    expect(
      definitionMismatch(
        def,
        deliveredFormulaOf('cost_of_revenue / ((inventory + inventory[prior year]) / 2)'),
      ),
    ).toBeNull();
    // Same name, another computation (revenue over inventory): refused.
    expect(
      definitionMismatch(
        def,
        deliveredFormulaOf('revenue / ((inventory + inventory[prior year]) / 2)'),
      ),
    ).toMatch(/^left operand "\(fy2021 cogs\)" does not name revenue/);
  });

  it('refuses a read figure where the question defines a computation', () => {
    const def = defined(
      'What is the FY2021 net working capital? Define net working capital as total current assets less total current liabilities.',
    );
    expect(def.operator).toBe('-');
    expect(definitionMismatch(def, null)).toMatch(/single read figure/);
    expect(
      definitionMismatch(
        def,
        deliveredFormulaOf('total_current_assets - total_current_liabilities'),
      ),
    ).toBeNull();
  });

  it('splits expressions at the loosest top-level operator', () => {
    expect(splitTopLevel('gross_profit / revenue * 100')).toEqual({
      operator: '/',
      left: 'gross_profit',
      right: 'revenue',
    });
    expect(splitTopLevel('365 * (a + b) / c')).toEqual({
      operator: '/',
      left: '365 * (a + b)',
      right: 'c',
    });
    expect(splitTopLevel('(a - b)')).toEqual({ operator: '-', left: 'a', right: 'b' });
    expect(splitTopLevel('revenue')).toBeNull();
  });
});

describe('sign-aware number match', () => {
  it.each<[string, string, boolean, boolean]>([
    ['Net income   $ 292   $ (38)', '38', true, true],
    ['Net income   $ 292   $ 38', '38', true, false],
    ['Net income   $ 292   $ -38', '38', true, true],
    ['Net income   $ 292   $ −38', '-38', false, true],
    ['Net income   $ 292   $ 38', '(38)', false, false],
    ['Capital expenditures   (233)   (214)', '233', false, true],
    ['Fiscal 2018-2019 net sales   1,577', '1577.0', false, true],
    ['Fiscal 2018-2019', '2019', true, false],
  ])('%s contains %s (negative %s): %s', (text, printed, negative, ok) => {
    expect(textContainsNumber(text, printed, { negative })).toBe(ok);
  });
});
