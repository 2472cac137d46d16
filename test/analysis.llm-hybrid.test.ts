import Anthropic from '@anthropic-ai/sdk';
import { LlmExtractor, llmReadingConfidence } from '../activities/analysis/llm-extraction';
import { startFakeAnthropic, type FakeAnthropic } from './support/fake-anthropic';
import { createTestDatabase } from './support/database';
import { ORG, SAMPLES, seedOrgs } from './support/fixtures';
import { startTestWorker, type TestWorker } from './support/worker';
import { ingestFile } from '../client/documents';
import { AnalysisClient } from '../client/analysis-client';
import type { Database } from '../db/connection';
import { join } from 'node:path';

const PAGES = [
  { page: 0, text: 'Cover page' },
  {
    page: 1,
    text: 'SEGMENT DATA (in millions)\nBackcountry segment revenue   $ 1,204   $ 1,133\nOther text',
  },
];
const QUESTION = 'What was FY2024 Backcountry segment revenue in USD millions?';

describe('hybrid extraction through the real Anthropic SDK against a local Messages API', () => {
  let fake: FakeAnthropic;
  let llm: LlmExtractor;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
    llm = new LlmExtractor(new Anthropic({ apiKey: 'test-key', baseURL: fake.url, maxRetries: 0 }));
  });
  afterAll(async () => fake.close());

  it('accepts a reading whose quote is on the page and contains the number, marked as LLM-sourced', async () => {
    fake.respondWith([
      {
        found: true,
        value_as_printed: '1,204',
        unit: 'USD',
        scale: 'millions',
        page: 1,
        quote: 'Backcountry segment revenue   $ 1,204   $ 1,133',
        label: 'Backcountry segment revenue',
      },
    ]);
    const out = await llm.extract({ docId: 'd', question: QUESTION, pages: PAGES });
    expect(out).toMatchObject({
      status: 'structured',
      method: 'llm',
      value: '1204',
      unit: 'USD millions',
      // Computed, not fixed: the page declares "in millions" but names no fiscal year.
      confidence: 0.72,
    });
    expect(out?.claims[0]).toMatchObject({
      printed: '1,204',
      source: 'llm',
      citations: [
        {
          docId: 'd',
          page: 1,
          charStart: 27,
          quote: 'Backcountry segment revenue   $ 1,204   $ 1,133',
        },
      ],
    });
    const sent = fake.requests.at(-1) as {
      model: string;
      tool_choice: unknown;
      messages: { content: string }[];
    };
    expect(sent.model).toBe('claude-haiku-4-5');
    expect(sent.tool_choice).toEqual({ type: 'tool', name: 'report_value' });
    expect(sent.messages[0]?.content).toContain('[page 1]');
    expect(llm.usage.at(-1)).toEqual({
      model: 'claude-haiku-4-5',
      inputTokens: 1200,
      outputTokens: 60,
    });
  });

  it("computes a reading's confidence from what its page confirms", () => {
    const page =
      'CONSOLIDATED STATEMENTS (in millions)\n2024   2023\nNet sales   $ 4,812   $ 4,395';
    const read = (over: Partial<Parameters<typeof llmReadingConfidence>[0]>) =>
      llmReadingConfidence({
        pageText: page,
        unit: 'USD',
        scale: 'millions',
        fiscalYear: 2024,
        ...over,
      });
    expect(read({})).toEqual({ confidence: 0.9, notes: [] });
    expect(read({ scale: 'billions' })).toEqual({
      confidence: 0.54,
      notes: ['page declares millions, model said billions'],
    });
    expect(read({ fiscalYear: 2019 })).toEqual({
      confidence: 0.72,
      notes: ['FY2019 is not printed on the page'],
    });
    expect(read({ fiscalYear: null }).confidence).toBe(0.72);
  });

  it('drops a reading whose quote is not on the cited page (no trust without the text)', async () => {
    fake.respondWith([
      {
        found: true,
        value_as_printed: '1,250',
        unit: 'USD',
        scale: 'millions',
        page: 1,
        quote: 'Backcountry segment revenue   $ 1,250',
        label: 'x',
      },
    ]);
    expect(await llm.extract({ docId: 'd', question: QUESTION, pages: PAGES })).toBeNull();
  });

  it('drops a reading whose number is not in its quote', async () => {
    fake.respondWith([
      {
        found: true,
        value_as_printed: '1,250',
        unit: 'USD',
        scale: 'millions',
        page: 1,
        quote: 'Backcountry segment revenue   $ 1,204   $ 1,133',
        label: 'x',
      },
    ]);
    expect(await llm.extract({ docId: 'd', question: QUESTION, pages: PAGES })).toBeNull();
  });

  it('returns nothing when the model reports the figure is not printed', async () => {
    fake.respondWith([
      {
        found: false,
        value_as_printed: null,
        unit: null,
        scale: null,
        page: null,
        quote: null,
        label: null,
      },
    ]);
    expect(await llm.extract({ docId: 'd', question: QUESTION, pages: PAGES })).toBeNull();
  });

  describe('in the workflow, with ANTHROPIC_API_KEY set', () => {
    let database: Database;
    let worker: TestWorker;
    beforeAll(async () => {
      database = await createTestDatabase();
      await seedOrgs(database.db);
      worker = await startTestWorker(database, undefined, {
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: fake.url,
      });
      await ingestFile(
        { db: database.db, client: worker.client, taskQueue: worker.taskQueue },
        { orgId: ORG, path: join(SAMPLES, 'northwind-2024-10k.txt') },
      );
    });
    afterAll(async () => {
      await worker?.stop();
      await database?.close();
    });

    it('asks the model only for what code could not answer, and its cited number passes the same gate', async () => {
      const before = fake.requests.length;
      fake.respondWith([
        {
          found: true,
          value_as_printed: '(233)',
          unit: 'USD',
          scale: 'millions',
          page: 0,
          quote: 'Purchases of property and equipment   (233)   (214)   (198)',
          label: 'Purchases of property and equipment',
          fiscal_year: 2024,
        },
      ]);
      const analysis = new AnalysisClient(worker.client, worker.taskQueue);
      await analysis.start({
        requestId: 'hybrid-1',
        orgId: ORG,
        docIds: ['northwind-2024-10k'],
        queryType: 'extract_metric',
        queryText: 'What is the FY2024 capital expenditure amount (in USD millions)?',
      });
      const view = await analysis.settle(ORG, 'hybrid-1');
      expect(fake.requests.length).toBe(before + 1);
      expect(view.validation?.reasons).toEqual([]);
      const result = await analysis.result(ORG, 'hybrid-1');
      expect(result.outcome).toBe('delivered');
      expect(result.answer).toMatchObject({ value: '-233', unit: 'USD millions' });
      expect(result.answer?.claims[0]?.source).toBe('llm');
      expect(view.validation?.checks.answerForm).toMatchObject({ ok: true, status: 'agree' });
      // Code answers the net sales question itself: no model call.
      await analysis.start({
        requestId: 'hybrid-2',
        orgId: ORG,
        docIds: ['northwind-2024-10k'],
        queryType: 'extract_metric',
        queryText: 'What is the FY2024 net sales (in USD millions)?',
      });
      expect((await analysis.result(ORG, 'hybrid-2')).answer?.claims[0]?.source).toBe('code');
      expect(fake.requests.length).toBe(before + 1);
    });

    it('does not deliver a model reading that names no fiscal year: its form lacks the asked period', async () => {
      fake.respondWith([
        {
          found: true,
          value_as_printed: '(233)',
          unit: 'USD',
          scale: 'millions',
          page: 0,
          quote: 'Purchases of property and equipment   (233)   (214)   (198)',
          label: 'Purchases of property and equipment',
        },
      ]);
      const analysis = new AnalysisClient(worker.client, worker.taskQueue);
      await analysis.start({
        requestId: 'hybrid-3',
        orgId: ORG,
        docIds: ['northwind-2024-10k'],
        queryType: 'extract_metric',
        queryText: 'What is the FY2024 capital expenditure amount (in USD millions)?',
      });
      const view = await analysis.settle(ORG, 'hybrid-3');
      expect(view.machineState).toBe('HUMAN_REVIEW');
      expect(view.validation?.reasons).toEqual([
        'confidence: minimum 0.72 < 0.85 at step-2 (extract_metric)',
        'form_mismatch: periods asked FY2024, delivered none',
        'form_mismatch: periodCount asked 1, delivered none',
      ]);
    });
  });
});
