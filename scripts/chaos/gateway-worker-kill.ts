import { inPool, type ChaosPlatform } from './harness';
import { seedChaosOrg } from './chaos-org';
import { checkLedgerInvariants, type LedgerInvariants } from './invariants';

export interface GatewayWorkerKillResult extends LedgerInvariants {
  scenario: 'gateway-worker-kill';
  writes: number;
  workerKills: number;
  applied: number;
  /** Writes that were accepted but never reached a terminal outcome before the deadline. */
  stuckRuns: number;
  /** Writes whose result was something other than applied (refused, failed, rejected). */
  notApplied: { key: string; outcome: string }[];
  /** Journal entries the ledger holds for the scenario's writes (must equal `writes`). */
  entries: number;
  wallSeconds: number;
}

/**
 * SIGKILL the worker at random moments while `writes` low-risk postings go through the
 * gateway, restarting it each time. Temporal must carry every write to `applied` exactly
 * once; the database must show balanced books and a complete audit trail.
 */
export async function gatewayWorkerKill(
  p: ChaosPlatform,
  opts: { writes: number; kills: number; concurrency: number; deadlineMs: number },
  log: (s: string) => void,
): Promise<GatewayWorkerKillResult> {
  const started = Date.now();
  const { org, gw, write } = await seedChaosOrg(p, 'kill');
  const db = p.database.db;

  const keys = Array.from({ length: opts.writes }, (_, i) => `w-${i}`);
  let settled = false;
  // The fault loop: kill at random points while writes are in flight (submitting or
  // waiting for their results), until the planned number of kills or the end of the work.
  const faults = (async () => {
    let k = 0;
    while (k < opts.kills && !settled) {
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 1200));
      if (settled) break;
      await p.worker.killAndRestart();
      k++;
      log(`  worker killed and restarted (${k}/${opts.kills})`);
    }
  })();
  await inPool(keys, opts.concurrency, async (key) => {
    await gw.submit(write(key, 1000 + (Number(key.slice(2)) % 97)));
  });

  const deadline = Date.now() + opts.deadlineMs;
  const notApplied: { key: string; outcome: string }[] = [];
  let applied = 0;
  let stuckRuns = 0;
  await inPool(keys, opts.concurrency, async (key) => {
    const remaining = deadline - Date.now();
    const outcome = await Promise.race([
      gw.result(org, key).then(
        (r) => r.outcome as string,
        (e: unknown) => `error: ${e instanceof Error ? e.message : String(e)}`,
      ),
      new Promise<string>((r) => setTimeout(() => r('stuck'), Math.max(0, remaining))),
    ]);
    if (outcome === 'applied') applied++;
    else if (outcome === 'stuck') stuckRuns++;
    else notApplied.push({ key, outcome });
  });
  settled = true;
  await faults;
  const invariants = await checkLedgerInvariants(db);
  const entries = Number(
    (
      await p.database.pool.query<{ n: string }>(
        `select count(*)::text as n from journal_entries where org_id = $1 and memo like 'chaos w-%'`,
        [org],
      )
    ).rows[0]?.n ?? 0,
  );
  return {
    scenario: 'gateway-worker-kill',
    writes: opts.writes,
    workerKills: p.worker.kills,
    applied,
    stuckRuns,
    notApplied,
    entries,
    ...invariants,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
