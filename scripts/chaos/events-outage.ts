import { sql } from 'drizzle-orm';
import type { ChaosPlatform } from './harness';
import { seedChaosOrg } from './chaos-org';
import {
  checkScenarioInvariants,
  checkWriteAppliedEvents,
  type ScenarioInvariants,
  type WriteAppliedEventInvariants,
} from './invariants';

export interface EventsOutageResult extends ScenarioInvariants, WriteAppliedEventInvariants {
  scenario: 'events-outage';
  writes: number;
  applied: number;
  notApplied: { key: string; outcome: string }[];
  stuckRuns: number;
  downSeconds: number;
  /** Seconds from PostgreSQL being back until the last write was seen applied. */
  writesSettledAfterBackSeconds: number | null;
  /** Seconds from PostgreSQL being back until the last write.applied event was completed. */
  eventsSettledAfterBackSeconds: number | null;
  wallSeconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A stream of gateway writes while PostgreSQL is down for minutes (well past the event
 * workflow's quick local retries, ~45 s): every write must be applied once and announced by
 * exactly one `write.applied` event, every one completed — the event is committed with the
 * write (the outbox) and its workflow rides out the outage (the gateway's budget).
 */
export async function eventsOutage(
  p: ChaosPlatform,
  opts: { seconds: number; downMs: number; ratePerSecond: number; deadlineMs: number },
  log: (s: string) => void,
): Promise<EventsOutageResult> {
  const started = Date.now();
  const seeded = await seedChaosOrg(p, 'outage');
  const { org, gw } = seeded;
  const db = p.database.db;
  const notApplied: { key: string; outcome: string }[] = [];
  let applied = 0;
  let stuckRuns = 0;
  let n = 0;
  const t0 = Date.now();
  const stopSubmittingAt = t0 + opts.seconds * 1000;
  const deadline = stopSubmittingAt + opts.downMs + opts.deadlineMs;
  let backAt = Number.NaN;
  let lastAppliedAt = Number.NaN;
  const fault = (async () => {
    await sleep(Math.min(20_000, opts.seconds * 200));
    log(`  postgres going down for ${opts.downMs / 1000} s`);
    await p.restartPostgres(opts.downMs);
    backAt = Date.now();
    log(`  postgres back`);
  })();
  // A steady stream: a write every 1/rate s, each followed on its own (submitted, then its
  // result awaited), so writes keep arriving through the whole outage.
  const one = async (key: string): Promise<void> => {
    for (;;) {
      try {
        await gw.submit(seeded.write(key, 1500));
        break;
      } catch (err) {
        if (Date.now() > deadline) {
          notApplied.push({ key, outcome: `submit failed: ${String(err)}` });
          return;
        }
        await sleep(1000);
      }
    }
    for (;;) {
      try {
        const r = await gw.result(org, key);
        if (r.outcome === 'applied') {
          applied++;
          lastAppliedAt = Date.now();
        } else notApplied.push({ key, outcome: r.outcome });
        return;
      } catch (err) {
        if (Date.now() > deadline) {
          stuckRuns++;
          return;
        }
        if (!/unavailable|connect|deadline|ECONNREFUSED|terminat/i.test(String(err))) {
          notApplied.push({ key, outcome: `error: ${String(err)}` });
          return;
        }
        await sleep(1000);
      }
    }
  };
  const inFlight: Promise<void>[] = [];
  while (Date.now() < stopSubmittingAt) {
    inFlight.push(one(`o-${n++}`));
    await sleep(1000 / opts.ratePerSecond);
  }
  await Promise.all(inFlight);
  await fault;
  // The events settle after the writes: an outbox round every 30 s, retries ≤ 30 s apart.
  let events = await checkWriteAppliedEvents(db, [org]);
  let eventsSettledAfterBackSeconds: number | null = null;
  for (;;) {
    const unsettled = (
      await db.execute<{ n: string }>(
        sql`select count(*)::text as n from events
          where org_id = ${org} and type = 'write.applied' and state in ('pending', 'processing')`,
      )
    ).rows[0]?.n;
    events = await checkWriteAppliedEvents(db, [org]);
    const done =
      unsettled === '0' && events.missingEvents === 0 && events.outboxNotHandedOver === 0;
    if (done) {
      eventsSettledAfterBackSeconds = Math.round((Date.now() - backAt) / 100) / 10;
      break;
    }
    if (Date.now() > deadline) break;
    await sleep(2000);
  }
  const invariants = await checkScenarioInvariants(db, {
    orgs: [org],
    decisions: seeded.decisions,
  });
  return {
    scenario: 'events-outage',
    writes: n,
    applied,
    notApplied,
    stuckRuns,
    downSeconds: opts.downMs / 1000,
    writesSettledAfterBackSeconds: Number.isNaN(lastAppliedAt)
      ? null
      : Math.round((lastAppliedAt - backAt) / 100) / 10,
    eventsSettledAfterBackSeconds,
    ...invariants,
    ...events,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
