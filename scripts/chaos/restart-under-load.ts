import type { ChaosPlatform } from './harness';
import { seedChaosOrg } from './chaos-org';
import { checkScenarioInvariants, type ScenarioInvariants } from './invariants';

export type RestartTarget = 'temporal' | 'postgres';

export interface RestartUnderLoadResult extends ScenarioInvariants {
  scenario: `${RestartTarget}-restart`;
  writes: number;
  applied: number;
  stuckRuns: number;
  notApplied: { key: string; outcome: string }[];
  downSeconds: number;
  /** Applied writes per second over the steady window before the restart. */
  baselinePerSecond: number;
  /** Seconds from the server being back until a 10 s window reaches 95% of the baseline (null: never within 60 s). */
  recoverySeconds: number | null;
  /** Seconds of load left after the server was back (a 60 s recovery needs ≥ 70 of them). */
  secondsAfterBack: number;
  wallSeconds: number;
}

/**
 * A steady stream of gateway writes; midway the chosen server (Temporal's dev server on its
 * SQLite file, or PostgreSQL) goes down for `downMs` and comes back. Every write must still
 * be applied once, and throughput must come back to ≥ 95% of the pre-fault rate.
 */
export async function restartUnderLoad(
  p: ChaosPlatform,
  target: RestartTarget,
  opts: { seconds: number; downMs: number; concurrency: number; deadlineMs: number },
  log: (s: string) => void,
): Promise<RestartUnderLoadResult> {
  const started = Date.now();
  const seeded = await seedChaosOrg(p, target);
  const { org, gw, write: post } = seeded;
  const db = p.database.db;
  const write = (key: string) => post(key, 1500);

  const completions: number[] = []; // ms since t0 at which each write was seen applied
  const notApplied: { key: string; outcome: string }[] = [];
  let stuckRuns = 0;
  let n = 0;
  const t0 = Date.now();
  const stopSubmittingAt = t0 + opts.seconds * 1000;
  const faultAt = opts.seconds * 1000 * 0.35;
  let backAt = Number.NaN;
  const fault = (async () => {
    await new Promise((r) => setTimeout(r, faultAt));
    log(`  ${target} going down for ${opts.downMs} ms`);
    if (target === 'temporal') await p.restartTemporal(opts.downMs);
    else await p.restartPostgres(opts.downMs);
    backAt = Date.now() - t0;
    log(`  ${target} back after ${Math.round(backAt - faultAt)} ms`);
  })();
  const deadline = t0 + opts.seconds * 1000 + opts.deadlineMs;
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (Date.now() < stopSubmittingAt) {
        const key = `w-${n++}`;
        // A submit during the outage is retried by the caller, as a service would.
        for (;;) {
          try {
            await gw.submit(write(key));
            break;
          } catch (err) {
            if (Date.now() > deadline) {
              notApplied.push({ key, outcome: `submit failed: ${String(err)}` });
              return;
            }
            await new Promise((r) => setTimeout(r, 500));
          }
        }
        for (;;) {
          try {
            const r = await gw.result(org, key);
            if (r.outcome === 'applied') completions.push(Date.now() - t0);
            else notApplied.push({ key, outcome: r.outcome });
            break;
          } catch (err) {
            if (Date.now() > deadline) {
              stuckRuns++;
              break;
            }
            // The result call itself may fail while Temporal is down: ask again.
            if (!/unavailable|connect|deadline|14 UNAVAILABLE|ECONNREFUSED/i.test(String(err))) {
              notApplied.push({ key, outcome: `error: ${String(err)}` });
              break;
            }
            await new Promise((r) => setTimeout(r, 500));
          }
        }
      }
    }),
  );
  await fault;
  const inWindow = (from: number, to: number) =>
    completions.filter((c) => c >= from && c < to).length;
  // Baseline: from 5 s after start (warm) to the fault.
  const baselinePerSecond = inWindow(5000, faultAt) / ((faultAt - 5000) / 1000);
  let recoverySeconds: number | null = null;
  for (let s = 0; s <= 60; s++) {
    const from = backAt + s * 1000;
    if (from + 10_000 > opts.seconds * 1000) break;
    if (inWindow(from, from + 10_000) / 10 >= 0.95 * baselinePerSecond) {
      recoverySeconds = s;
      break;
    }
  }
  const invariants = await checkScenarioInvariants(db, {
    orgs: [org],
    decisions: seeded.decisions,
  });
  return {
    scenario: `${target}-restart`,
    writes: n,
    applied: completions.length,
    stuckRuns,
    notApplied,
    downSeconds: opts.downMs / 1000,
    baselinePerSecond: Math.round(baselinePerSecond * 10) / 10,
    recoverySeconds,
    secondsAfterBack: Math.round((opts.seconds * 1000 - backAt) / 100) / 10,
    ...invariants,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
