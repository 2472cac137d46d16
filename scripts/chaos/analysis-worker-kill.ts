import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { AnalysisClient } from '../../client/analysis-client';
import { ingestFile } from '../../client/documents';
import { ensureOrganization } from '../../db/repositories/organizations';
import { analysisWorkflowId } from '../../workflows/analysis.contract';
import type { AnalysisRequestInput } from '../../workflows/analysis/request';
import { PROJECT_ROOT } from '../lib/temporal-binaries';
import { inPool, killWorkerAtRandom, type ChaosPlatform } from './harness';
import { checkScenarioInvariants, type ScenarioInvariants } from './invariants';

export interface AnalysisWorkerKillResult extends ScenarioInvariants {
  scenario: 'analysis-worker-kill';
  runs: number;
  workerKills: number;
  /** Runs delivered (completed) and runs waiting for a reviewer (a legitimate stop). */
  delivered: number;
  awaitingReview: number;
  /** Runs whose path, outcome, answer or validation differ from the same question's run without faults. */
  differentFromFaultFree: { requestId: string; detail: string }[];
  /** Runs whose audit trail (the events, in order) differs from their fault-free twin's: a step recorded twice or missing. */
  auditTrailDiffers: { requestId: string; detail: string }[];
  stuckRuns: number;
  wallSeconds: number;
}

/** Questions the shipped sample 10-K answers in code mode, each a different path. */
const QUESTIONS: Omit<AnalysisRequestInput, 'requestId' | 'orgId'>[] = [
  {
    docIds: ['chaos-10k'],
    queryType: 'extract_metric',
    queryText: 'What is the FY2024 net sales (in USD millions)?',
  },
  {
    docIds: ['chaos-10k'],
    queryType: 'extract_metric',
    queryText: 'What is the FY2024 gross margin? Answer in percent rounded to one decimal place.',
  },
  {
    docIds: ['chaos-10k'],
    queryType: 'risk_flag',
    queryText: 'Flag going concern, restatement, litigation and liquidity risks',
  },
];

/** What must not change under faults: the run's path, outcome and answer. */
type Fingerprint = { status: string; path: string; outcome: string; answer: string };

/**
 * Cited analysis runs (code mode, an ingested document) while the worker is SIGKILLed at
 * random moments. First each question runs once without faults; then `runs` requests cycle
 * through the questions under kills. Every run must reach the same place as its fault-free
 * twin (delivered with the same answer, or waiting for a reviewer for the same reason),
 * store its result once, and leave the audit chain intact.
 */
export async function analysisWorkerKill(
  p: ChaosPlatform,
  opts: { runs: number; kills: number; concurrency: number; deadlineMs: number },
  log: (s: string) => void,
): Promise<AnalysisWorkerKillResult> {
  const started = Date.now();
  const db = p.database.db;
  const org = `chaos-analysis-${Date.now().toString(36)}`;
  await ensureOrganization(db, { id: org, name: 'Chaos analysis' });
  await ingestFile(
    { db, client: p.client, taskQueue: p.taskQueue },
    {
      orgId: org,
      id: 'chaos-10k',
      path: join(PROJECT_ROOT, 'samples', 'documents', 'northwind-2024-10k.txt'),
      docType: '10-K',
    },
  );
  const analysis = new AnalysisClient(p.client, p.taskQueue);
  const fingerprint = async (requestId: string): Promise<Fingerprint | 'stuck'> => {
    const view = await Promise.race([
      analysis.settle(org, requestId, opts.deadlineMs),
      new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), opts.deadlineMs)),
    ]).catch((err: unknown) => {
      // A transport error while the worker restarts is not the run's failure: ask again once.
      log(`  settle ${requestId}: ${String(err).slice(0, 120)}; again`);
      return analysis.settle(org, requestId, opts.deadlineMs);
    });
    if (view === 'stuck') return 'stuck';
    return {
      status: view.status,
      path: view.path ?? '',
      outcome: view.result?.outcome ?? '',
      answer:
        view.status === 'completed'
          ? (view.result?.answer?.text ?? '')
          : (view.validation?.reasons.join(' | ') ?? ''),
    };
  };

  const reference: (Fingerprint | 'stuck')[] = [];
  for (const [q, question] of QUESTIONS.entries()) {
    const requestId = `reference-${q}`;
    await analysis.start({ ...question, orgId: org, requestId });
    reference.push(await fingerprint(requestId));
  }

  const kills0 = p.worker.kills;
  const faults = killWorkerAtRandom(p, { kills: opts.kills, minMs: 500, spanMs: 1500 }, log);
  const got = new Map<string, { q: number; fp: Fingerprint | 'stuck' }>();
  await inPool(
    Array.from({ length: opts.runs }, (_, i) => i),
    opts.concurrency,
    async (i) => {
      const q = i % QUESTIONS.length;
      const requestId = `fault-${i}`;
      for (let attempt = 1; ; attempt++) {
        try {
          // Idempotent on the request id: a start repeated after a fault is the same run.
          await analysis.start({ ...QUESTIONS[q]!, orgId: org, requestId });
          break;
        } catch (err) {
          if (attempt >= 20) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
      got.set(requestId, { q, fp: await fingerprint(requestId) });
    },
  );
  await faults.stop();

  const differentFromFaultFree: AnalysisWorkerKillResult['differentFromFaultFree'] = [];
  let delivered = 0;
  let awaitingReview = 0;
  let stuckRuns = 0;
  for (const [requestId, { q, fp }] of got) {
    if (fp === 'stuck') {
      stuckRuns++;
      continue;
    }
    if (fp.status === 'completed') delivered++;
    else if (fp.status === 'awaiting_review') awaitingReview++;
    const ref = reference[q];
    const same = ref !== 'stuck' && ref !== undefined && JSON.stringify(ref) === JSON.stringify(fp);
    if (!same)
      differentFromFaultFree.push({
        requestId,
        detail: `got ${JSON.stringify(fp).slice(0, 200)}; without faults ${JSON.stringify(ref).slice(0, 200)}`,
      });
  }
  const trails = new Map(
    (
      await db.execute<{ subject_id: string; events: string }>(
        sql`select subject_id, string_agg(event, ',' order by org_seq) as events from audit_log
            where org_id = ${org} and subject_type = 'analysis' group by subject_id`,
      )
    ).rows.map((r) => [r.subject_id, r.events]),
  );
  const trailOf = (requestId: string) => trails.get(analysisWorkflowId(org, requestId)) ?? '';
  const auditTrailDiffers: AnalysisWorkerKillResult['auditTrailDiffers'] = [];
  for (const [requestId, { q }] of got) {
    const mine = trailOf(requestId);
    const twin = trailOf(`reference-${q}`);
    if (mine !== twin)
      auditTrailDiffers.push({ requestId, detail: `${mine} ≠ fault-free ${twin}` });
  }
  const invariants = await checkScenarioInvariants(db, { orgs: [org] });
  return {
    scenario: 'analysis-worker-kill',
    runs: opts.runs,
    workerKills: p.worker.kills - kills0,
    delivered,
    awaitingReview,
    differentFromFaultFree,
    auditTrailDiffers,
    stuckRuns,
    ...invariants,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
