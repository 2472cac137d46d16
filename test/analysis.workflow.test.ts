import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import { auditTrail } from '../db/repositories/audit';
import { getResult } from '../db/repositories/analysis';
import { InvalidRequestError } from '../client/errors';
import { ReviewRefusedError } from '../client/analysis-client';
import { analysisWorkflowId, type AnalysisRequestInput } from '../workflows/analysis.contract';
import { createAnalysisActivities } from '../activities/analysis';
import { ANALYST, ORG, OUTSIDER, REVIEWER } from './support/fixtures';
import { PILLAR3, TEN_K, startAnalysisEnv, type AnalysisEnv } from './support/analysis-env';

let env: AnalysisEnv;
let seq = 0;
const request = (over: Partial<AnalysisRequestInput>): AnalysisRequestInput => ({
  requestId: `req-${Date.now()}-${++seq}`,
  orgId: ORG,
  docIds: [TEN_K],
  queryType: 'extract_metric',
  queryText: 'What is the FY2024 net sales (in USD millions)?',
  ...over,
});

// Faults injected at the activity seam, keyed by words in the question.
let auditFailures = 0;
const overrides = (db: AnalysisEnv['database']['db']) => {
  const real = createAnalysisActivities({ db, llm: null });
  return {
    extract_metric: async (input: Parameters<typeof real.extract_metric>[0]) => {
      const out = await real.extract_metric(input);
      if (input.question.includes('[no-citation]'))
        return { ...out, claims: out.claims.map((c) => ({ ...c, citations: [] })) };
      if (input.question.includes('[wrong-number]'))
        return {
          ...out,
          claims: out.claims.map((c) => ({ ...c, printed: '9,999', value: '9999000000' })),
        };
      if (input.question.includes('[tool-fails]'))
        throw new Error('extraction backend unavailable');
      return out;
    },
    recordAudit: async (input: Parameters<typeof real.recordAudit>[0]) => {
      await real.recordAudit(input);
      // Written, then the activity "crashes" before reporting success: the retry must not write twice.
      if (
        input.event === 'plan' &&
        String(
          (input.payload as { steps?: { input?: { question?: string } }[] }).steps?.[1]?.input
            ?.question ?? '',
        ).includes('[audit-flaky]') &&
        Context.current().info.attempt === 1
      ) {
        auditFailures++;
        throw new Error('connection reset after commit');
      }
    },
  };
};

beforeAll(async () => {
  env = await startAnalysisEnv();
  // Restart the worker with fault-injecting activities over the same database.
  await env.worker.stop();
  const { startTestWorker } = await import('./support/worker');
  const worker = await startTestWorker(env.database, overrides(env.database.db) as never);
  const { AnalysisClient } = await import('../client/analysis-client');
  env = {
    ...env,
    worker,
    analysis: new AnalysisClient(worker.client, worker.taskQueue),
    close: async () => {
      await worker.stop();
      await env.database.close();
    },
  };
});
afterAll(async () => env?.close());

async function run(over: Partial<AnalysisRequestInput>) {
  const req = request(over);
  await env.analysis.start(req);
  const view = await env.analysis.settle(ORG, req.requestId);
  return { req, view };
}

describe('analysis workflow on the dev server', () => {
  it('delivers a cited metric through every state, with its audit trail', async () => {
    const { req, view } = await run({});
    expect(view.trail).toEqual([
      'RECEIVE_TASK',
      'PLAN',
      'EXECUTE_STEP',
      'EXECUTE_STEP',
      'EXECUTE_STEP',
      'VALIDATE_OUTPUT',
      'DELIVER',
    ]);
    const result = await env.analysis.result(ORG, req.requestId);
    expect(result.outcome).toBe('delivered');
    expect(result.answer?.value).toBe('4812000000');
    expect(result.answer?.unit).toBe('USD');
    expect(result.answer?.citations[0]).toMatchObject({
      docId: TEN_K,
      quote: 'Net sales   $ 4,812   $ 4,395   $ 4,020',
    });
    expect(result.validation.passed).toBe(true);
    const trail = await auditTrail(
      env.database.db,
      ORG,
      'analysis',
      analysisWorkflowId(ORG, req.requestId),
    );
    expect(trail.map((r) => r.event)).toEqual([
      'request',
      'plan',
      'step:step-1',
      'step:step-2',
      'step:step-3',
      'validation',
      'outcome:delivered',
    ]);
    expect((await getResult(env.database.db, req.orgId, req.requestId))?.outcome).toBe('delivered');
  });

  it('routes a low-confidence extraction to review, with the reason', async () => {
    const { view } = await run({
      queryText: 'What is the FY2024 capital expenditure amount (in USD millions)?',
    });
    expect(view.machineState).toBe('HUMAN_REVIEW');
    expect(view.status).toBe('awaiting_review');
    expect(view.validation?.checks.confidence.ok).toBe(false);
    expect(view.validation?.reasons.join(' ')).toMatch(/confidence: minimum 0\.55 < 0\.85/);
  });

  it('routes a number without citation to review', async () => {
    const { view } = await run({
      queryText: 'What is the FY2024 net sales (in USD millions)? [no-citation]',
    });
    expect(view.machineState).toBe('HUMAN_REVIEW');
    expect(view.validation?.checks.citationCoverage.failures[0]?.reason).toMatch(/has no citation/);
  });

  it('routes a number absent from its cited text to review', async () => {
    const { view } = await run({
      queryText: 'What is the FY2024 net sales (in USD millions)? [wrong-number]',
    });
    expect(view.machineState).toBe('HUMAN_REVIEW');
    expect(view.validation?.checks.citationCoverage.failures[0]?.reason).toMatch(
      /does not contain 9,999/,
    );
  });

  it('always sends a risk flag to a human, even when every other check passes', async () => {
    const { view } = await run({
      queryType: 'risk_flag',
      queryText: 'Going concern doubt, restatement, or liquidity concerns?',
      constraints: { topics: ['going_concern', 'restatement'] },
    });
    expect(view.path).toBe('full_agent');
    expect(view.machineState).toBe('HUMAN_REVIEW');
    expect(view.validation?.checks.confidence.ok).toBe(true);
    expect(view.validation?.checks.citationCoverage.ok).toBe(true);
    expect(view.validation?.reasons).toContain('policy: risk_flag always goes to a human reviewer');
  });

  it('degrades a failing extraction to a cited disclosure search that routes to review', async () => {
    const { view } = await run({
      queryText: 'What is the FY2024 net sales (in USD millions)? [tool-fails]',
    });
    const extract = view.steps.find((s) => s.tool === 'extract_metric');
    expect(extract).toMatchObject({
      status: 'degraded',
      errorTag: 'degraded:extract_metric->flag_disclosure',
      error: 'extraction backend unavailable',
    });
    expect(extract?.confidence).toBeLessThanOrEqual(0.55);
    expect(extract?.citations.length).toBeGreaterThan(0);
    expect(view.machineState).toBe('HUMAN_REVIEW');
  });

  it('runs the compliance path against Basel III with pass/margin per requirement, then a human reviews', async () => {
    const { view } = await run({
      docIds: [PILLAR3],
      queryType: 'compliance_assessment',
      queryText: 'Does Harbor meet Basel III?',
      framework: 'basel_iii',
    });
    expect(view.path).toBe('compliance');
    const compare = view.steps.find((s) => s.tool === 'compare_frameworks')?.output as {
      rows: { requirementId: string; status: string; margin: string | null }[];
    };
    expect(compare.rows.find((r) => r.requirementId === 'cet1_with_ccb')).toMatchObject({
      status: 'pass',
      margin: '4.6',
    });
    expect(compare.rows.find((r) => r.requirementId === 'leverage_min')).toMatchObject({
      status: 'pass',
      margin: '5.9',
    });
    expect(view.machineState).toBe('HUMAN_REVIEW');
  });

  it('checks a threshold on the extraction path and delivers', async () => {
    const { req, view } = await run({
      docIds: [PILLAR3],
      queryType: 'check_threshold',
      queryText: 'Is the CET1 ratio at least 7% at December 31, 2024?',
      constraints: {
        metric: 'cet1_ratio',
        period: 'FY2024',
        threshold: { operator: '>=', value: '7' },
      },
    });
    expect(view.machineState).toBe('DELIVER');
    const result = await env.analysis.result(ORG, req.requestId);
    expect(result.answer?.text).toMatch(/^11\.6% — pass \(>= 7, margin 4\.6\)/);
  });

  it.each([
    ['a period the filing does not cover', 'What is the FY2015 net sales (in USD millions)?'],
    [
      'a metric the filing does not state',
      'What is the FY2024 research and development expense (in USD millions)?',
    ],
    ['a question code cannot map', 'Who audits the company?'],
  ])('sends %s to a human with a reason, never a guessed number', async (_case, queryText) => {
    const { view } = await run({ queryText });
    expect(view.machineState).toBe('HUMAN_REVIEW');
    expect(view.proposedAnswer?.value).toBeNull();
    expect(view.proposedAnswer?.claims).toEqual([]);
    const extract = view.steps.find((s) => s.tool === 'extract_metric');
    expect(extract?.summary).toMatch(/^No structured answer: .+/);
    expect(view.validation?.reasons).toContain('answer: no structured answer was produced');
  });

  describe('human review', () => {
    const openReview = async () =>
      (await run({ queryText: 'What is the FY2024 capital expenditure amount (in USD millions)?' }))
        .req;

    it('approve releases the proposed answer with the reviewer recorded', async () => {
      const req = await openReview();
      await expect(
        env.analysis.review(ORG, req.requestId, { decision: 'approve', reviewer: REVIEWER }),
      ).resolves.toEqual({ accepted: true, outcome: 'approved' });
      const result = await env.analysis.result(ORG, req.requestId);
      expect(result).toMatchObject({ outcome: 'approved', reviewedBy: 'rita' });
      const trail = await auditTrail(
        env.database.db,
        ORG,
        'analysis',
        analysisWorkflowId(ORG, req.requestId),
      );
      expect(trail.at(-1)).toMatchObject({ event: 'outcome:approved', actor: 'user:rita' });
    });

    it('reject releases nothing and keeps the note', async () => {
      const req = await openReview();
      await env.analysis.review(ORG, req.requestId, {
        decision: 'reject',
        reviewer: REVIEWER,
        note: 'wrong table',
      });
      const result = await env.analysis.result(ORG, req.requestId);
      expect(result).toMatchObject({
        outcome: 'rejected',
        answer: null,
        reviewNote: 'wrong table',
      });
    });

    it('correct replaces values and marks them human-sourced', async () => {
      const { req, view } = await run({
        docIds: [PILLAR3],
        queryType: 'risk_flag',
        queryText: 'Liquidity risk and CET1?',
        constraints: { metric: 'cet1_ratio', period: 'FY2024' },
      });
      const claim = view.proposedAnswer?.claims[0];
      expect(claim).toBeDefined();
      await env.analysis.review(ORG, req.requestId, {
        decision: 'correct',
        reviewer: REVIEWER,
        note: 'use the fully loaded ratio',
        corrections: [{ claimId: claim!.id, value: '11.5' }],
      });
      const result = await env.analysis.result(ORG, req.requestId);
      expect(result.outcome).toBe('corrected');
      expect(result.answer?.claims[0]).toMatchObject({
        id: claim!.id,
        value: '11.5',
        source: 'human',
      });
    });

    it('refuses a second decision, a reviewer of another org, and a user without the reviewer role', async () => {
      const req = await openReview();
      await expect(
        env.analysis.review(ORG, req.requestId, { decision: 'approve', reviewer: OUTSIDER }),
      ).rejects.toMatchObject({ name: 'ReviewRefusedError', type: 'ReviewerNotAuthorized' });
      await expect(
        env.analysis.review(ORG, req.requestId, { decision: 'approve', reviewer: ANALYST }),
      ).rejects.toMatchObject({
        type: 'ReviewerNotAuthorized',
        message: 'User arnold may not review in org acme',
      });
      await env.analysis.review(ORG, req.requestId, { decision: 'approve', reviewer: REVIEWER });
      const second = env.analysis.review(ORG, req.requestId, {
        decision: 'reject',
        reviewer: REVIEWER,
        note: 'changed my mind',
      });
      await expect(second).rejects.toBeInstanceOf(ReviewRefusedError);
      await expect(second).rejects.toMatchObject({
        type: expect.stringMatching(/ReviewAlreadyDecided|ReviewNotOpen/),
      });
      expect((await env.analysis.result(ORG, req.requestId)).outcome).toBe('approved');
    });

    it('refuses a decision while no review is open', async () => {
      const { req } = await run({});
      await expect(
        env.analysis.review(ORG, req.requestId, { decision: 'approve', reviewer: REVIEWER }),
      ).rejects.toMatchObject({ type: 'ReviewNotOpen' });
    });
  });

  it('writes an audit row once when its activity is retried after a transient failure', async () => {
    const before = auditFailures;
    const { req } = await run({
      queryText: 'What is the FY2024 net sales (in USD millions)? [audit-flaky]',
    });
    expect(auditFailures).toBe(before + 1);
    const trail = await auditTrail(
      env.database.db,
      ORG,
      'analysis',
      analysisWorkflowId(ORG, req.requestId),
    );
    expect(trail.filter((r) => r.event === 'plan')).toHaveLength(1);
  });

  describe('bad input', () => {
    it('refuses a malformed request in the client, starting nothing', async () => {
      const bad = {
        ...request({}),
        docIds: [],
        queryType: 'guess_numbers',
      } as unknown as AnalysisRequestInput;
      let err: unknown;
      try {
        await env.analysis.start(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidRequestError);
      expect((err as InvalidRequestError).issues.map((i) => i.path)).toEqual([
        'docIds',
        'queryType',
      ]);
      await expect(
        env.worker.client.workflow.getHandle(analysisWorkflowId(ORG, bad.requestId)).describe(),
      ).rejects.toThrow(/not found/i);
    });

    it('fails a request for an unknown document with a typed, non-retryable error', async () => {
      const req = request({ docIds: ['no-such-doc'] });
      await env.analysis.start(req);
      const err = await env.analysis.result(ORG, req.requestId).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WorkflowFailedError);
      const cause = (err as WorkflowFailedError).cause?.cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      expect((cause as ApplicationFailure).type).toBe('UnknownDocument');
      expect((cause as ApplicationFailure).message).toBe(
        'Unknown document id(s) in org acme: no-such-doc',
      );
    });

    it('treats a document of another org as unknown', async () => {
      const req = request({ orgId: 'globex' });
      await env.analysis.start(req);
      const err = (await env.analysis
        .result('globex', req.requestId)
        .catch((e: unknown) => e)) as WorkflowFailedError;
      expect((err.cause?.cause as ApplicationFailure).type).toBe('UnknownDocument');
    });

    it('starting the same request id twice returns the existing run', async () => {
      const req = request({});
      expect(await env.analysis.start(req)).toMatchObject({ started: true });
      expect(await env.analysis.start(req)).toMatchObject({ started: false });
    });
  });
});
