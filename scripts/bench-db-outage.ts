import { cpus } from 'node:os';
import { sql } from 'drizzle-orm';
import { verifyAuditChain } from '../db/repositories/audit';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import { bringUpChaosPlatform } from './chaos/harness';
import { seedChaosOrg } from './chaos/chaos-org';
import { checkLedgerInvariants, type LedgerInvariants } from './chaos/invariants';

/**
 * `npm run bench -- db-outage [--minutes 15] [--interval-ms 250] [--json FILE]`: a steady
 * stream of writes (every fourth in the moderate lane, approved by a person as soon as it
 * waits) against a worker process, the embedded PostgreSQL stopped for N minutes in the middle
 * of it — writes in flight, approvals arriving, new writes submitted during the outage — then
 * every write followed to its end. Reports whether each was applied once, with its vote, and
 * how long the platform took to drain after the database came back.
 */
export interface DbOutageBench extends LedgerInvariants {
  suite: 'db-outage';
  outageSeconds: number;
  writes: number;
  moderateWrites: number;
  /** Submitted before the outage and not yet finished when PostgreSQL stopped (most wait for
   * their approval, which arrives during the outage). */
  inFlightAtOutage: number;
  submittedDuringOutage: number;
  applied: number;
  /** Outcomes other than applied (refused, failed, expired), by key. */
  notApplied: { key: string; outcome: string }[];
  /** Submissions left suspended (retry budget spent): an operator would resume them. */
  suspended: number;
  /** Moderate writes applied with exactly their one approver's vote (state and database). */
  moderateAppliedWithVote: number;
  /** Journal entries per applied write: 1 each when every write was applied once. */
  entriesPerAppliedWrite: number;
  /** From PostgreSQL being back to the last write applied. */
  drainSecondsAfterRestart: number;
  auditChainIntact: boolean;
  retryBudgetMs: number;
  wallSeconds: number;
  cores: number;
}

const MODERATE_CENTS = 600_000; // 6,000.00 ≥ the default moderate threshold: one approval
const LOW_CENTS = 1500;
const APPROVAL_DELAY_MS = 5000;

export async function benchDbOutage(
  opts: { minutes: number; intervalMs: number; leadSeconds: number },
  log: (s: string) => void,
): Promise<DbOutageBench> {
  const started = Date.now();
  const p = await bringUpChaosPlatform(log);
  try {
    const { org, gw, write } = await seedChaosOrg(p, 'outage');
    const db = p.database.db;
    const approver = `${org}-approver`;
    const outageMs = Math.round(opts.minutes * 60_000);
    // Submit for the lead time, then through the first minute of the outage (at most).
    const submitForMs = opts.leadSeconds * 1000 + Math.min(60_000, outageMs);
    const deadlineMs = outageMs + 15 * 60_000;

    const submittedKeys: string[] = [];
    const finished = new Set<string>();
    const lanes = new Map<string, string>();
    const stateVotes = new Map<string, string[]>();
    const outcomes = new Map<string, string>();
    const moderate = new Set<string>();
    const followers: Promise<void>[] = [];
    let outageStartedAt = Number.NaN;
    let backAt = Number.NaN;
    let lastAppliedAt = 0;
    let inFlightAtOutage = 0;
    let submittedDuringOutage = 0;
    const retrying = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
      for (;;) {
        try {
          return await fn();
        } catch (err) {
          if (Date.now() - started > deadlineMs + opts.leadSeconds * 1000) throw err;
          if (!/unavailable|connect|deadline|ECONNREFUSED|timed? ?out/i.test(String(err)))
            throw err;
          log(`  ${what}: ${String(err).slice(0, 80)}; again in 1 s`);
          await new Promise((r) => setTimeout(r, 1000));
        }
      }
    };

    const follow = async (key: string, isModerate: boolean) => {
      if (isModerate) {
        // The approver acts as soon as the write waits (after the outage, if it began there).
        const view = await gw.settle(org, key, deadlineMs);
        // A person takes a few seconds: approvals of the last writes before the outage arrive
        // while the database is down (their vote is recorded once it is back).
        await new Promise((r) => setTimeout(r, APPROVAL_DELAY_MS));
        if (view.status === 'awaiting_approval')
          await retrying(`approve ${key}`, () => gw.approve(org, key, approver, 'bench'));
      }
      try {
        const r = await Promise.race([
          retrying(`result ${key}`, () => gw.result(org, key)),
          new Promise<null>((res) => setTimeout(() => res(null), deadlineMs).unref()),
        ]);
        outcomes.set(key, r?.outcome ?? 'unfinished at the deadline');
        if (r) {
          lanes.set(key, r.risk.lane);
          stateVotes.set(
            key,
            r.votes.filter((v) => v.decision === 'approve').map((v) => v.userId),
          );
        }
        if (r?.outcome === 'applied') lastAppliedAt = Date.now();
      } catch (err) {
        outcomes.set(key, `error: ${String(err).slice(0, 200)}`);
      }
      finished.add(key);
    };

    const t0 = Date.now();
    const outage = (async () => {
      await new Promise((r) => setTimeout(r, opts.leadSeconds * 1000));
      inFlightAtOutage = submittedKeys.filter((k) => !finished.has(k)).length;
      outageStartedAt = Date.now();
      log(`  PostgreSQL stopping for ${opts.minutes} min (${inFlightAtOutage} writes in flight)`);
      await p.restartPostgres(outageMs);
      backAt = Date.now();
      log(`  PostgreSQL back after ${Math.round((backAt - outageStartedAt) / 1000)} s`);
    })();

    for (let i = 0; Date.now() - t0 < submitForMs; i++) {
      const key = `o-${i}`;
      const isModerate = i % 4 === 3;
      if (isModerate) moderate.add(key);
      await gw.submit(write(key, isModerate ? MODERATE_CENTS : LOW_CENTS));
      submittedKeys.push(key);
      if (!Number.isNaN(outageStartedAt) && Number.isNaN(backAt)) submittedDuringOutage++;
      followers.push(follow(key, isModerate));
      await new Promise((r) => setTimeout(r, opts.intervalMs));
    }
    log(`  ${submittedKeys.length} writes submitted; waiting for the outage to end`);
    await outage;
    await Promise.all(followers);

    // What the database says, write by write.
    const applied = submittedKeys.filter((k) => outcomes.get(k) === 'applied');
    const votes = await db.execute<{ submission_id: string; approver_user_id: string }>(
      sql`select a.submission_id, a.approver_user_id from gateway_approvals a
          join gateway_submissions s on s.id = a.submission_id
          where s.org_id = ${org} and s.idempotency_key like 'o-%'`,
    );
    const votesBySubmission = new Map<string, string[]>();
    for (const v of votes.rows)
      votesBySubmission.set(v.submission_id, [
        ...(votesBySubmission.get(v.submission_id) ?? []),
        v.approver_user_id,
      ]);
    const moderateAppliedWithVote = [...moderate].filter((k) => {
      const stored = votesBySubmission.get(gatewayWorkflowId(org, k)) ?? [];
      const inState = stateVotes.get(k) ?? [];
      return (
        outcomes.get(k) === 'applied' &&
        lanes.get(k) === 'moderate' &&
        stored.length === 1 &&
        stored[0] === approver &&
        inState.length === 1 &&
        inState[0] === approver
      );
    }).length;
    const entries = await db.execute<{ n: string }>(
      sql`select count(*)::text as n from journal_entries e
          join gateway_submissions s on s.id = e.submission_id
          where s.org_id = ${org} and s.idempotency_key like 'o-%'`,
    );
    let suspended = 0;
    for (const k of submittedKeys.filter((key) => outcomes.get(key) !== 'applied'))
      if ((await gw.state(org, k).catch(() => null))?.status === 'suspended') suspended++;
    const invariants = await checkLedgerInvariants(db);
    const chain = await verifyAuditChain(db, org);
    return {
      suite: 'db-outage',
      outageSeconds: Math.round((backAt - outageStartedAt) / 100) / 10,
      writes: submittedKeys.length,
      moderateWrites: moderate.size,
      inFlightAtOutage,
      submittedDuringOutage,
      applied: applied.length,
      notApplied: submittedKeys
        .filter((k) => outcomes.get(k) !== 'applied')
        .map((k) => ({ key: k, outcome: outcomes.get(k) ?? 'unknown' })),
      suspended,
      moderateAppliedWithVote,
      entriesPerAppliedWrite:
        applied.length === 0 ? 0 : Number(entries.rows[0]?.n ?? 0) / applied.length,
      drainSecondsAfterRestart: Math.max(0, Math.round((lastAppliedAt - backAt) / 100) / 10),
      ...invariants,
      auditChainIntact: chain.ok,
      retryBudgetMs: p.cfg.DB_RETRY_BUDGET_MS,
      wallSeconds: Math.round((Date.now() - started) / 100) / 10,
      cores: cpus().length,
    };
  } finally {
    await p.stop();
  }
}
