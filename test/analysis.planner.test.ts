import { ApplicationFailure } from '@temporalio/common';
import { AnalysisRequestSchema, type AnalysisRequestInput } from '../workflows/analysis/request';
import { choosePath, planRequest } from '../workflows/analysis/planner';

const base: AnalysisRequestInput = {
  requestId: 'r1',
  orgId: 'acme',
  docIds: ['doc-a'],
  queryType: 'extract_metric',
  queryText: 'What was FY2024 net sales in USD millions?',
};
const plan = (over: Partial<AnalysisRequestInput>) =>
  planRequest(AnalysisRequestSchema.parse({ ...base, ...over }));

describe('rule-based planner', () => {
  it('plans a single-metric question on one document as extraction: retrieve, extract, summarise', () => {
    const p = plan({});
    expect(p.path).toBe('extraction');
    expect(p.steps.map((s) => s.tool)).toEqual([
      'retrieve_context',
      'extract_metric',
      'generate_summary',
    ]);
    expect(p.steps[1]?.input).toMatchObject({
      orgId: 'acme',
      docId: 'doc-a',
      question: base.queryText,
    });
    expect(p.steps[2]?.factsFromSteps).toEqual(['step-1', 'step-2']);
  });

  it('adds a threshold comparison bound to the extract step for check_threshold', () => {
    const p = plan({
      queryType: 'check_threshold',
      constraints: { metric: 'cet1_ratio', threshold: { operator: '>=', value: '7' } },
    });
    expect(p.path).toBe('extraction');
    expect(p.steps.map((s) => s.tool)).toEqual([
      'retrieve_context',
      'extract_metric',
      'compare_frameworks',
      'generate_summary',
    ]);
    expect(p.steps[2]?.observedFromSteps).toEqual(['step-2']);
    expect(p.steps[2]?.input).toEqual({
      threshold: { operator: '>=', value: '7', metric: 'cet1_ratio' },
    });
  });

  it('runs caller-defined steps on one document as a chain, scoped to the request', () => {
    const p = plan({
      queryType: 'summarize',
      analyticalStepsDefined: true,
      analyticalSteps: [
        {
          tool: 'retrieve_context',
          purpose: 'find liquidity',
          params: { query: 'liquidity', orgId: 'evil-org' },
        },
        {
          tool: 'flag_disclosure',
          purpose: 'going concern?',
          params: { topics: ['going_concern'] },
        },
      ],
    });
    expect(p.path).toBe('chain');
    expect(p.steps.map((s) => s.tool)).toEqual([
      'retrieve_context',
      'flag_disclosure',
      'generate_summary',
    ]);
    expect(p.steps[0]?.input).toMatchObject({
      orgId: 'acme',
      docIds: ['doc-a'],
      query: 'liquidity',
    });
  });

  it('fails a chain with an unknown tool loudly, listing the registry', () => {
    let err: unknown;
    try {
      plan({
        queryType: 'summarize',
        analyticalStepsDefined: true,
        analyticalSteps: [{ tool: 'shell_exec', purpose: 'x', params: {} }],
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect((err as ApplicationFailure).type).toBe('UnknownTool');
    expect((err as Error).message).toContain(
      'retrieve_context, extract_metric, compare_frameworks, flag_disclosure, generate_summary, validate_citation',
    );
  });

  it('plans compliance types against the framework: every framework metric per document, comparison, disclosures', () => {
    const p = plan({
      queryType: 'compliance_check',
      docIds: ['bank-a', 'bank-b'],
      framework: 'us_well_capitalized',
    });
    expect(p.path).toBe('compliance');
    const extracts = p.steps.filter((s) => s.tool === 'extract_metric');
    expect(extracts.map((s) => `${String(s.input.docId)}:${String(s.input.metric)}`)).toEqual([
      'bank-a:cet1_ratio',
      'bank-a:tier1_ratio',
      'bank-a:total_capital_ratio',
      'bank-a:leverage_ratio',
      'bank-b:cet1_ratio',
      'bank-b:tier1_ratio',
      'bank-b:total_capital_ratio',
      'bank-b:leverage_ratio',
    ]);
    const compare = p.steps.find((s) => s.tool === 'compare_frameworks');
    expect(compare?.input).toEqual({ framework: 'us_well_capitalized' });
    expect(compare?.observedFromSteps).toEqual(extracts.map((s) => s.id));
    expect(p.steps.at(-1)?.tool).toBe('generate_summary');
  });

  it('refuses an unknown framework at plan time', () => {
    expect(() => plan({ queryType: 'compliance_check', framework: 'basel_v' })).toThrow(
      /Unknown framework "basel_v"/,
    );
  });

  it('sends everything else to the full agent path', () => {
    expect(plan({ queryType: 'risk_flag' }).steps.map((s) => s.tool)).toEqual([
      'retrieve_context',
      'flag_disclosure',
      'generate_summary',
    ]);
    expect(plan({ queryType: 'classify_document' }).steps.map((s) => s.tool)).toEqual([
      'retrieve_context',
      'generate_summary',
    ]);
    const multi = plan({ docIds: ['a', 'b'] });
    expect(multi.path).toBe('full_agent');
    expect(
      multi.steps.filter((s) => s.tool === 'extract_metric').map((s) => s.input.docId),
    ).toEqual(['a', 'b']);
  });

  it('is deterministic', () => {
    expect(plan({ queryType: 'compliance_check' })).toEqual(
      plan({ queryType: 'compliance_check' }),
    );
    expect(choosePath(AnalysisRequestSchema.parse(base))).toBe('extraction');
  });
});
