import { AnalysisRequestSchema } from '../workflows/analysis/request';
import { runValidationGate } from '../workflows/analysis/validation-gate';
import type { NumericClaim } from '../workflows/analysis/evidence';
import type { StepResult } from '../workflows/analysis/step-result';
import { textContainsNumber } from '../activities/analysis/number-match';

const request = AnalysisRequestSchema.parse({
  requestId: 'r',
  orgId: 'o',
  docIds: ['d'],
  queryType: 'extract_metric',
  queryText: 'q',
});
const claim = (over: Partial<NumericClaim> = {}): NumericClaim => ({
  id: 'c1',
  label: 'Net sales',
  metric: 'revenue',
  kind: 'money',
  value: '4812',
  unit: 'USD millions',
  period: 'FY2024',
  printed: '4,812',
  citations: [{ docId: 'd', page: 3, charStart: 0, charEnd: 20, quote: 'Net sales   $ 4,812' }],
  derived: false,
  formula: null,
  inputs: [],
  source: 'code',
  ...over,
});
const step = (confidence: number): StepResult => ({
  stepId: 'step-1',
  tool: 'extract_metric',
  purpose: 'p',
  status: 'ok',
  confidence,
  summary: '',
  claims: [],
  citations: [],
  errorTag: null,
  error: null,
  output: null,
  cached: false,
});
const gate = (over: Partial<Parameters<typeof runValidationGate>[0]> = {}) =>
  runValidationGate({
    request,
    steps: [step(0.95)],
    claims: [claim()],
    citationChecks: [{ claimId: 'c1', ok: true, reason: null }],
    answerRequired: true,
    answerPresent: true,
    ...over,
  });

describe('validation gate', () => {
  it('delivers a cited, plausible, confident answer', () => {
    const v = gate();
    expect(v).toMatchObject({ passed: true, route: 'DELIVER', reasons: [] });
  });
  it('routes a claim without citation to review', () => {
    const v = gate({ claims: [claim({ citations: [] })], citationChecks: [] });
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.checks.citationCoverage.failures).toEqual([
      { claimId: 'c1', reason: 'Net sales: number 4,812 has no citation' },
    ]);
  });
  it('routes a number absent from its cited text to review', () => {
    const v = gate({
      citationChecks: [
        { claimId: 'c1', ok: false, reason: 'cited text on d p.3 does not contain 4,812' },
      ],
    });
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.reasons).toEqual(['citation: Net sales: cited text on d p.3 does not contain 4,812']);
  });
  it('routes low confidence to review and names the weakest step', () => {
    const v = gate({ steps: [step(0.84)] });
    expect(v.route).toBe('HUMAN_REVIEW');
    expect(v.checks.confidence).toEqual({
      ok: false,
      min: 0.84,
      threshold: 0.85,
      lowest: 'step-1 (extract_metric)',
    });
  });
  it('routes implausible values to review', () => {
    const v = gate({
      claims: [
        claim({ metric: 'cet1_ratio', kind: 'ratio_percent', value: '145', unit: 'percent' }),
      ],
    });
    expect(v.checks.plausibility.failures[0]?.reason).toMatch(/above the plausible maximum 100/);
  });
  it.each(['compliance_assessment', 'risk_flag', 'regulatory_gap_analysis'] as const)(
    'always sends %s to a human',
    (queryType) => {
      const v = gate({ request: { ...request, queryType } });
      expect(v.route).toBe('HUMAN_REVIEW');
      expect(v.reasons).toContain(`policy: ${queryType} always goes to a human reviewer`);
    },
  );
  it('requires a derived value to name its formula and inputs', () => {
    const v = gate({
      claims: [claim({ id: 'd1', derived: true, printed: null, formula: null, inputs: [] })],
      citationChecks: [],
    });
    expect(v.checks.citationCoverage.failures.map((f) => f.reason)).toEqual([
      'Net sales: derived value without its formula',
      'Net sales: derived value without cited inputs',
    ]);
  });
});

describe('number matching in cited text', () => {
  it.each([
    ['Net sales   $ 4,812   $ 4,395', '4,812', true],
    ['Interest expense   (38)   (41)', '(38)', true],
    ['Interest expense   (38)   (41)', '-38', true],
    ['Total 1577.0 reported', '1,577', true],
    ['CET1 ratio   11.6%', '11.6', true],
    ['Net sales   $ 4,812', '4,821', false],
    ['Net sales   $ 14,812', '4,812', false],
  ])('%s contains %s: %s', (text, printed, expected) => {
    expect(textContainsNumber(text, printed)).toBe(expected);
  });
});
