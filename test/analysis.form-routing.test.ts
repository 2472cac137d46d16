import { randomBytes } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { AnalysisClient } from '../client/analysis-client';
import { createExtractMetric } from '../activities/analysis/extract-metric';
import type { PageStore } from '../activities/analysis/page-store';
import { textContainsNumber } from '../activities/analysis/number-match';
import type { AuditInput } from '../activities/analysis/types';
import {
  analysisWorkflowId,
  type AnalysisResult,
  type AnalysisStateView,
} from '../workflows/analysis.contract';
import type { ToolInput, ToolOutput } from '../workflows/analysis/tool-registry';
import type { AnswerForm } from '../workflows/analysis/answer-form';
import { readAskedFormByCues } from '../workflows/analysis/form-reader';
import { INCOME_PAGE, pagesOf } from './extraction.fixtures';
import { workflowBundle } from './support/worker';
import { startTimeSkippingEnv } from './support/time-skipping';
import { domainTaskQueue } from '../workflows/task-queue';
import {
  CsConfidenceBucket,
  CsOrg,
  CsOutcome,
  CsQueryType,
  CsState,
} from '../workflows/search-attributes';

/**
 * Routing by the answer-form contract, on the time-skipping test server with inline stub
 * activities and no database: an answer of another form than asked must wait for a person,
 * and while it waits the stored result must not say it was delivered.
 */

const ORG = 'acme';
const DOC = 'doc-1';
const PAGES = pagesOf(INCOME_PAGE);
const taskQueue = `form-routing-${randomBytes(4).toString('hex')}`;

let testEnv: TestWorkflowEnvironment;
let analysis: AnalysisClient;
const stored: { outcome: string; result: AnalysisResult }[] = [];
const audits: AuditInput[] = [];
let extractStub: ((input: ToolInput<'extract_metric'>) => Promise<unknown>) | null = null;

const realExtract = createExtractMetric({ pages: async () => PAGES } as unknown as PageStore, null);

const activities = {
  async receiveRequest() {
    return [{ id: DOC, title: 'Example 10-K', docType: '10-K', pageCount: 1 }];
  },
  async recordAudit(a: AuditInput) {
    audits.push(a);
  },
  async storeResult(r: { result: AnalysisResult; outcome: string }) {
    stored.push(r);
  },
  async sendReviewReminder() {},
  async authorizeReviewer() {},
  async recordReviewDecision() {},
  // The inbox record of an open review (workflows/requests/inbox-link.ts).
  async requestOpenLinked() {
    return { requestId: 'inbox', route: 'owner' };
  },
  async requestRemindLinked() {},
  async requestCloseLinked() {},
  async retrieve_context(): Promise<ToolOutput<'retrieve_context'>> {
    const chunk = {
      docId: DOC,
      page: 0,
      charStart: 0,
      charEnd: 10,
      quote: PAGES[0]!.text.slice(0, 10),
    };
    return {
      chunks: [{ ...chunk, chunkId: 1, rank: 1 }],
      citations: [chunk],
      claims: [],
      confidence: 1,
      errorTag: null,
      summary: 'Found 1 relevant passage',
    };
  },
  async generate_summary(
    input: ToolInput<'generate_summary'>,
  ): Promise<ToolOutput<'generate_summary'>> {
    return {
      text: input.facts.map((f) => f.summary).join('\n'),
      classification: null,
      method: 'code',
      claims: [],
      citations: [],
      confidence: 1,
      errorTag: null,
      summary: 'summary of the facts',
    };
  },
  async extract_metric(input: ToolInput<'extract_metric'>) {
    return extractStub ? extractStub(input) : realExtract(input);
  },
  async validate_citation(input: ToolInput<'validate_citation'>) {
    return {
      results: input.claims
        .filter((c) => !c.derived)
        .map((c) => {
          const ok = c.citations.some((ct) =>
            textContainsNumber(ct.quote, c.printed ?? c.value, {
              negative: c.value.startsWith('-'),
            }),
          );
          return { claimId: c.id, ok, reason: ok ? null : 'not in cited text' };
        }),
    };
  },
};

async function run(requestId: string, question: string): Promise<AnalysisStateView> {
  await analysis.start({
    requestId,
    orgId: ORG,
    docIds: [DOC],
    queryType: 'extract_metric',
    queryText: question,
  });
  const worker = await Worker.create({
    connection: testEnv.nativeConnection,
    namespace: testEnv.namespace ?? 'default',
    taskQueue: domainTaskQueue(taskQueue, 'analysis'),
    workflowBundle: workflowBundle(),
    activities,
  });
  return worker.runUntil(async () => {
    for (let i = 0; i < 300; i++) {
      const v = await analysis.state(ORG, requestId).catch(() => null);
      if (v && (v.status === 'completed' || (v.status === 'awaiting_review' && stored.length)))
        return v;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${requestId} did not settle`);
  });
}

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  testEnv = await startTimeSkippingEnv([
    CsOrg,
    CsState,
    CsQueryType,
    CsConfidenceBucket,
    CsOutcome,
  ]);
  analysis = new AnalysisClient(testEnv.client, taskQueue);
}, 120_000);

afterAll(async () => {
  await testEnv?.teardown();
});

beforeEach(() => {
  stored.length = 0;
  audits.length = 0;
  extractStub = null;
});

describe('the analysis workflow routes by the answer-form contract', () => {
  it('delivers a level in USD millions whose forms agree', async () => {
    const v = await run('level-1', 'What is the FY2019 net income (in USD millions)?');
    expect(v.machineState).toBe('DELIVER');
    expect(v.result?.outcome).toBe('delivered');
    expect(v.result?.answer?.text).toBe('$292 million');
    expect(v.validation?.checks.answerForm).toMatchObject({ ok: true, status: 'agree' });
    // Extraction is handed the pages retrieval found and says where its citations fall.
    const extract = v.steps.find((s) => s.tool === 'extract_metric');
    expect(extract?.summary).toMatch(/; cited p\.0: 1 of 1 among the 1 retrieved pages$/);
  });

  it('replays a run with the answer-form patch marker deterministically', async () => {
    await run('replay-1', 'What is the FY2019 net income (in USD millions)?');
    const history = await testEnv.client.workflow
      .getHandle(analysisWorkflowId(ORG, 'replay-1'))
      .fetchHistory();
    // Each patch the run went through leaves one marker; the answer-form contract's is there once.
    const patchIds = (history.events ?? [])
      .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
      .map((e) => {
        const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
        return data ? (JSON.parse(Buffer.from(data).toString('utf8')) as { id: string }).id : null;
      });
    expect(patchIds.filter((id) => id === 'answer-form-contract')).toHaveLength(1);
    expect(new Set(patchIds).size).toBe(patchIds.length);
    await expect(
      Worker.runReplayHistory({ workflowBundle: workflowBundle() }, history, 'replay-1'),
    ).resolves.toBeUndefined();
  });

  it('sends a percent-change question answered as a currency change to review, with the exact reason, and stores no delivery', async () => {
    const question = 'What is the percentage change in net income between FY2018 and FY2019?';
    const currencyChange: AnswerForm = {
      kind: 'currency_amount',
      scale: 'millions',
      currency: 'USD',
      rounding: null,
      periods: ['FY2018', 'FY2019'],
      periodCount: 2,
      operation: 'change',
      definition: null,
    };
    extractStub = async (input) => {
      const real = (await realExtract({
        ...input,
        question: 'How much did net income change between FY2018 and FY2019 (in USD millions)?',
      })) as ToolOutput<'extract_metric'>;
      // What the issue saw: the change as an amount, for a question that asked for percent.
      return {
        ...real,
        form: {
          asked: { ...readAskedFormByCues(question) },
          secondReading: readAskedFormByCues(question),
          delivered: currencyChange,
          deliveredFormula: null,
        },
      };
    };
    const v = await run('pct-1', question);
    expect(v.machineState).toBe('HUMAN_REVIEW');
    expect(v.status).toBe('awaiting_review');
    expect(v.validation?.reasons).toEqual([
      'form_mismatch: kind asked percent, delivered currency_amount',
      'form_mismatch: operation asked percent_change, delivered change',
    ]);
    expect(v.validation?.checks.answerForm?.delivered).toEqual(currencyChange);
    // While the review is open, the stored result does not say delivered.
    expect(stored.map((s) => [s.outcome, s.result.outcome])).toEqual([
      ['awaiting_review', 'awaiting_review'],
    ]);
    const validationAudit = audits.find((a) => a.event === 'validation')?.payload as {
      checks: { answerForm: { status: string } };
    };
    expect(validationAudit.checks.answerForm.status).toBe('mismatch');
  });

  it('sends a question the two readers read differently to review with both readings', async () => {
    const v = await run(
      'climb-1',
      'By what percent did net income climb between FY2018 and FY2019?',
    );
    expect(v.machineState).toBe('HUMAN_REVIEW');
    expect(v.validation?.checks.answerForm?.disagreements).toEqual([
      { field: 'kind', a: 'currency_amount', b: 'percent' },
      { field: 'operation', a: 'level', b: 'quotient' },
    ]);
  });
});
