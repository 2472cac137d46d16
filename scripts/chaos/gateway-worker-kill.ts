import { inPool, killWorkerAtRandom, type ChaosPlatform } from './harness';
import { LOW_CENTS, MODERATE_CENTS, seedChaosOrg } from './chaos-org';
import { checkScenarioInvariants, type ScenarioInvariants } from './invariants';

export interface GatewayWorkerKillResult extends ScenarioInvariants {
  scenario: 'gateway-worker-kill';
  writes: number;
  /** Of which in the moderate lane, decided by the scenario's approver while the worker dies. */
  moderateWrites: number;
  rejectedOnPurpose: number;
  workerKills: number;
  applied: number;
  rejected: number;
  /** Writes that were accepted but never reached a terminal outcome before the deadline. */
  stuckRuns: number;
  /** Writes whose outcome was not the one planned (applied, or rejected on purpose). */
  notAsPlanned: { key: string; planned: string; outcome: string }[];
  /** Journal entries the ledger holds for the scenario's writes (must equal `applied`). */
  entries: number;
  wallSeconds: number;
}

/**
 * SIGKILL the worker at random moments while `writes` postings go through the gateway,
 * restarting it each time. Every fifth write is in the moderate lane: the scenario's approver
 * approves it (every tenth, rejects it) as soon as it waits, through the signed decision
 * path, with the worker dying around the vote too. Temporal must carry every write to its
 * planned outcome exactly once; the database must show balanced books, a complete audit
 * trail whose chain verifies, and exactly the votes the approver cast.
 */
export async function gatewayWorkerKill(
  p: ChaosPlatform,
  opts: { writes: number; kills: number; concurrency: number; deadlineMs: number },
  log: (s: string) => void,
): Promise<GatewayWorkerKillResult> {
  const started = Date.now();
  const seeded = await seedChaosOrg(p, 'kill');
  const { org, gw, write } = seeded;
  const db = p.database.db;

  const plan = Array.from({ length: opts.writes }, (_, i) => ({
    key: `w-${i}`,
    lane: i % 5 === 4 ? ('moderate' as const) : ('low' as const),
    planned: i % 10 === 9 ? ('rejected' as const) : ('applied' as const),
    cents: i % 5 === 4 ? MODERATE_CENTS + i : LOW_CENTS + (i % 97),
  }));
  // Kills at random points while writes are submitted, wait for a vote or apply.
  const kills0 = p.worker.kills;
  const faults = killWorkerAtRandom(p, { kills: opts.kills, minMs: 300, spanMs: 1200 }, log);
  const deadline = Date.now() + opts.deadlineMs;
  const until = <T>(work: Promise<T>): Promise<T | 'stuck'> =>
    Promise.race([
      work,
      new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), Math.max(0, deadline - Date.now()))),
    ]);
  const outcomes = new Map<string, string>();
  await inPool(plan, opts.concurrency, async (w) => {
    await gw.submit(write(w.key, w.cents));
    if (w.lane === 'moderate') {
      const view = await until(gw.settle(org, w.key, opts.deadlineMs));
      if (view !== 'stuck' && view.status === 'awaiting_approval')
        await seeded.decide(w.key, w.planned === 'rejected' ? 'reject' : 'approve');
    }
    const outcome = await until(
      gw.result(org, w.key).then(
        (r) => r.outcome as string,
        (e: unknown) => `error: ${e instanceof Error ? e.message : String(e)}`,
      ),
    );
    outcomes.set(w.key, outcome);
  });
  await faults.stop();
  const invariants = await checkScenarioInvariants(db, {
    orgs: [org],
    decisions: seeded.decisions,
  });
  const entries = Number(
    (
      await p.database.pool.query<{ n: string }>(
        `select count(*)::text as n from journal_entries where org_id = $1 and memo like 'chaos w-%'`,
        [org],
      )
    ).rows[0]?.n ?? 0,
  );
  const of = (o: string) => [...outcomes.values()].filter((x) => x === o).length;
  return {
    scenario: 'gateway-worker-kill',
    writes: opts.writes,
    moderateWrites: plan.filter((w) => w.lane === 'moderate').length,
    rejectedOnPurpose: plan.filter((w) => w.planned === 'rejected').length,
    workerKills: p.worker.kills - kills0,
    applied: of('applied'),
    rejected: of('rejected'),
    stuckRuns: of('stuck'),
    notAsPlanned: plan
      .filter((w) => outcomes.get(w.key) !== w.planned)
      .map((w) => ({ key: w.key, planned: w.planned, outcome: outcomes.get(w.key) ?? 'none' })),
    entries,
    ...invariants,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
