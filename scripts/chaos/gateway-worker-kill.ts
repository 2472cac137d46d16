import { ensureOrganization, ensureUser } from '../../db/repositories/organizations';
import { accountId, seedDefaultChart } from '../../db/ledger/default-chart';
import { GatewayClient } from '../../client/gateway-client';
import type { GatewayWriteInput } from '../../workflows/gateway.contract';
import { inPool, type ChaosPlatform } from './harness';
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
  const org = `chaos-${Date.now().toString(36)}`;
  const db = p.database.db;
  await ensureOrganization(db, { id: org, name: 'Chaos Org' });
  await seedDefaultChart(db, org);
  const clerk = `${org}-clerk`;
  const approver = `${org}-approver`;
  await ensureUser(db, {
    id: clerk,
    email: `clerk@${org}.example`,
    displayName: 'Clerk',
    orgId: org,
    roles: ['analyst'],
  });
  await ensureUser(db, {
    id: approver,
    email: `approver@${org}.example`,
    displayName: 'Approver',
    orgId: org,
    roles: ['approver'],
  });
  const gw = new GatewayClient(p.client, db, p.taskQueue, {
    decisionSecret: p.cfg.DECISION_SIGNING_SECRET,
  });
  const write = (key: string, cents: number): GatewayWriteInput => ({
    orgId: org,
    idempotencyKey: key,
    submitter: { kind: 'user', userId: clerk },
    kind: 'journal.post',
    payload: {
      entryDate: '2025-06-15',
      memo: `chaos ${key}`,
      lines: [
        { accountId: accountId(org, '6200'), currency: 'USD', debit: String(cents) },
        { accountId: accountId(org, '1010'), currency: 'USD', credit: String(cents) },
      ],
    },
  });
  // The first posting to an account waits for one approval: do it before the faults.
  await gw.submit(write('warm-up', 100));
  await gw.settle(org, 'warm-up');
  await gw.approve(org, 'warm-up', approver, 'warm-up');
  await gw.result(org, 'warm-up');

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
