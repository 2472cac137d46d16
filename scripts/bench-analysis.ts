import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { loadConfig } from '../config/env';
import { ensureOrganization } from '../db/repositories/organizations';
import { createWorker } from '../worker';
import { AnalysisClient } from '../client/analysis-client';
import { ingestFile } from '../client/documents';
import type { AnalysisRequestInput } from '../workflows/analysis.contract';
import { PROJECT_ROOT } from './lib/temporal-binaries';
import { benchPorts, bringUpBenchPlatform, runBenchWorker } from './lib/bench-platform';
import { percentiles, round1, type Percentiles } from './lib/bench-stats';
import { runPool } from './lib/bench-pool';

/**
 * `npm run bench -- analysis [--n 60] [--concurrency 6] [--json FILE]`: analysis requests/s
 * and latency in code mode (no model: the worker runs without an Anthropic key whatever the
 * environment says) on a document ingested once. Its own dev server and throw-away database
 * (ports CS_BENCH_TEMPORAL_PORT / CS_BENCH_PG_PORT + 30), an in-process worker, and the client
 * the HTTP API uses (`AnalysisClient.start`, then `awaitSettled`: the Update the workflow
 * completes when the run is delivered or waits for a reviewer).
 *
 * - ingestionMs: upload + ingestion workflow of the shipped 10-K sample (not in the rate).
 * - requestsPerSecond: n requests, `concurrency` in flight, ÷ seconds from the first start to
 *   the last settled run.
 * - latencyMs: per request, `start` called → the settled state returned.
 * - outcomes: delivered, needsReview (the gate sent it to a person), refused (the run failed
 *   with a typed failure), unsettled (no terminal outcome within the wait: the bench fails).
 */
export const ANALYSIS_DOCUMENT = {
  file: join(PROJECT_ROOT, 'samples', 'documents', 'northwind-2024-10k.txt'),
  id: 'northwind-2024-10k',
  docType: '10-K',
} as const;

/** Distinct questions the sample 10-K answers, cycled over the n requests. */
export const ANALYSIS_QUESTIONS: readonly string[] = [
  'What is the FY2024 net sales (in USD millions)?',
  'What is the FY2024 net income (in USD millions)?',
  'What is the FY2024 operating income (in USD millions)?',
  'What is the FY2024 gross margin? Answer in percent rounded to one decimal place.',
];

type Load = [number, number, number];
const load = (): Load => loadavg().map((x) => Math.round(x * 100) / 100) as Load;

export interface AnalysisBench {
  suite: 'analysis';
  requests: number;
  concurrency: number;
  mode: 'code';
  document: string;
  questions: number;
  database: 'DATABASE_URL' | 'embedded';
  ingestionMs: number;
  requestsPerSecond: number;
  latencyMs: Percentiles;
  outcomes: { delivered: number; needsReview: number; refused: number; unsettled: number };
  /** Per question: how its requests ended. */
  byQuestion: { question: string; delivered: number; needsReview: number; refused: number }[];
  wallSeconds: number;
  cores: number;
  loadAverageAtStart: Load;
}

export async function benchAnalysis(opts: {
  n: number;
  concurrency: number;
  /** How long one request may take to settle before it counts as unsettled. */
  settleMs?: number;
}): Promise<AnalysisBench> {
  const loadAverageAtStart = load();
  const cfg = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  try {
    const { database, runCfg } = await bringUpBenchPlatform(
      cfg,
      { name: 'analysis', ...benchPorts(30, { temporal: 17_970, pg: 25_491 }) },
      stops,
    );
    const org = `bench-${Date.now().toString(36)}`;
    await ensureOrganization(database.db, { id: org, name: 'Bench Org' });
    // Code mode: no model, whatever ANTHROPIC_API_KEY the shell has.
    const codeCfg = { ...runCfg, ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined };
    const taskQueue = 'bench-an';
    const { worker, connection } = await createWorker({ cfg: codeCfg, database, taskQueue });
    const client = await runBenchWorker({ worker, connection }, { runCfg, database }, stops);

    const i0 = performance.now();
    const { document, ingestion } = await ingestFile(
      { db: database.db, client, taskQueue },
      { orgId: org, path: ANALYSIS_DOCUMENT.file, docType: ANALYSIS_DOCUMENT.docType },
    );
    const ingestionMs = performance.now() - i0;
    if (ingestion.pageCount < 1) throw new Error(`ingestion of ${document.id} gave no pages`);

    const analysis = new AnalysisClient(client, taskQueue);
    const settleMs = opts.settleMs ?? 300_000;
    const latencies: number[] = [];
    const outcomes = { delivered: 0, needsReview: 0, refused: 0, unsettled: 0 };
    const byQuestion = ANALYSIS_QUESTIONS.map((question) => ({
      question,
      delivered: 0,
      needsReview: 0,
      refused: 0,
    }));
    const requests: AnalysisRequestInput[] = Array.from({ length: opts.n }, (_, i) => ({
      requestId: `bench-${i}`,
      orgId: org,
      docIds: [document.id],
      queryType: 'extract_metric',
      queryText: ANALYSIS_QUESTIONS[i % ANALYSIS_QUESTIONS.length] as string,
    }));
    const t0 = performance.now();
    await runPool(requests, opts.concurrency, async (r, i) => {
      const q = byQuestion[i % byQuestion.length] as (typeof byQuestion)[number];
      const s0 = performance.now();
      await analysis.start(r);
      let view;
      try {
        view = await analysis.awaitSettled(org, r.requestId, settleMs);
      } catch (err) {
        // A run that failed with a typed refusal reached a terminal outcome; anything else did not.
        if (err instanceof WorkflowFailedError && err.cause instanceof ApplicationFailure) {
          outcomes.refused += 1;
          q.refused += 1;
          latencies.push(performance.now() - s0);
          return;
        }
        console.error(`analysis ${r.requestId} failed:`, err);
        outcomes.unsettled += 1;
        return;
      }
      if (view === null) {
        outcomes.unsettled += 1;
        return;
      }
      latencies.push(performance.now() - s0);
      if (view.status === 'completed' && view.result?.outcome === 'delivered') {
        outcomes.delivered += 1;
        q.delivered += 1;
      } else if (view.status === 'awaiting_review') {
        outcomes.needsReview += 1;
        q.needsReview += 1;
      } else outcomes.unsettled += 1;
    });
    const seconds = (performance.now() - t0) / 1000;
    const settled = outcomes.delivered + outcomes.needsReview + outcomes.refused;
    return {
      suite: 'analysis',
      requests: opts.n,
      concurrency: opts.concurrency,
      mode: 'code',
      document: `${document.id}, ${ingestion.pageCount} page(s)`,
      questions: ANALYSIS_QUESTIONS.length,
      database: cfg.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
      ingestionMs: Math.round(ingestionMs),
      requestsPerSecond: round1(settled / seconds),
      latencyMs: percentiles(latencies),
      outcomes,
      byQuestion,
      wallSeconds: round1(seconds),
      cores: cpus().length,
      loadAverageAtStart,
    };
  } finally {
    for (const stop of stops.reverse())
      await stop().catch((err: unknown) => console.error('stop failed:', err));
  }
}
