import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import { FIXTURES } from './support/fixtures';
import type { Database } from '../db/connection';
import { bankLineClassifications, humanRequests } from '../db/schema';
import { readMonth, runBankLines, type BankLinesReport } from '../scripts/eval/bank-lines';

/**
 * The bank-lines eval in its CI short mode, on our own synthetic fixture (three months of 100
 * lines): the real agent and gateway on the dev server and PostgreSQL, a simulated reviewer
 * answering each request with the true code. Checks the metric definitions and the learning
 * loop: nothing automatic in a fresh org, precision ≥ 98% after, automation rising, one
 * request per import batching its lines, an ambiguous pattern asked again every month.
 */
let database: Database;
let worker: TestWorker;
let report: BankLinesReport;
const DIR = join(FIXTURES, 'bank-lines-mini');

beforeAll(async () => {
  database = await createTestDatabase();
  worker = await startTestWorker(database);
  report = await runBankLines({
    datasetDir: DIR,
    db: database.db,
    client: worker.client,
    taskQueue: worker.taskQueue,
    orgId: 'bank-mini',
    stallMs: 30_000,
  });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

it('posts every line, one item per line with the posted code and its source', () => {
  const months = ['2030-01', '2030-02', '2030-03'];
  expect(report.months.map((m) => m.month)).toEqual(months);
  expect(report.items).toHaveLength(300);
  for (const month of months) {
    const truth = readMonth(join(DIR, `${month}.csv`));
    const items = report.items.filter((i) => i.month === month);
    expect(items.map((i) => i.row)).toEqual(truth.map((t) => t.row));
    for (const i of items) {
      expect(i.source === 'auto' || i.source === 'human').toBe(true);
      // A person's answer is posted as answered.
      if (i.source === 'human') expect(i.code).toBe(truth[i.row]!.code);
    }
  }
  for (const m of report.months) {
    expect(m.notPosted).toBe(0);
    expect(m.autoPosted + m.humanPosted).toBe(m.lines);
    expect(m.automation).toBeCloseTo(m.autoPosted / m.lines, 10);
    if (m.autoPosted > 0) expect(m.precision).toBeCloseTo(m.autoCorrect / m.autoPosted, 10);
  }
});

it('learns from answers only: nothing automatic at first, then precise and rising automation', () => {
  const [first, second, third] = report.months;
  expect(first).toMatchObject({ autoPosted: 0, linesAsked: 100, requests: 1 });
  expect(second!.autoPosted).toBeGreaterThan(0);
  expect(third!.automation).toBeGreaterThanOrEqual(second!.automation);
  for (const m of report.months.slice(1)) expect(m.precision!).toBeGreaterThanOrEqual(0.98);
  // Each import's uncertain lines are batched into one request.
  for (const m of report.months) {
    expect(m.requests).toBe(1);
    expect(m.linesAsked).toBe(m.lines - m.autoPosted);
  }
  const [row] = report.items.filter((i) => i.month === '2030-03' && i.source === 'auto');
  expect(row).toBeDefined();
});

it('asks an ambiguous pattern again instead of memorizing it', async () => {
  const lines = await database.db
    .select({
      status: bankLineClassifications.status,
      accountId: bankLineClassifications.accountId,
    })
    .from(bankLineClassifications)
    .where(
      and(
        eq(bankLineClassifications.orgId, 'bank-mini'),
        eq(bankLineClassifications.merchantKey, 'lakeside hardware'),
      ),
    );
  expect(lines.length).toBeGreaterThan(10);
  // Resolved two ways by people, so never posted on its own.
  expect(new Set(lines.map((l) => l.accountId)).size).toBe(2);
  expect(lines.every((l) => l.status === 'human')).toBe(true);
  const requests = await database.db
    .select({ id: humanRequests.id, status: humanRequests.status })
    .from(humanRequests)
    .where(and(eq(humanRequests.orgId, 'bank-mini'), eq(humanRequests.type, 'classification')));
  expect(requests).toHaveLength(3);
  expect(requests.every((r) => r.status === 'completed')).toBe(true);
});
