import { sql } from 'drizzle-orm';
import { ensureOrganization } from '../../db/repositories/organizations';
import { setOrgAgentSettings } from '../../db/repositories/agent-runs';
import { EventsClient } from '../../client/events-client';
import { slotsStateQuery, slotsWorkflowId } from '../../workflows/agent-runs/contract';
import { percentiles } from '../lib/bench-stats';
import { inPool, killWorkerAtRandom, type ChaosPlatform } from './harness';
import { checkScenarioInvariants, type ScenarioInvariants } from './invariants';

export interface OrgFigures {
  orgId: string;
  events: number;
  /** Seconds from the first accept to this org's last event reaching a terminal state. */
  completedAtS: number | null;
  /** Accepted → the agent run's row (p50/p95, ms). */
  pickupWaitMs: { p50: number; p95: number; p99: number };
  /** Most slots of the org's semaphore held at once (its own high-water mark): the cap must hold. */
  maxHeld: number | null;
  /** The org semaphore's capacity (the cap it enforced). */
  capacity: number | null;
  /**
   * Most runs overlapping by their recorded start and finish times. Informational: a run
   * releases its slot before it records its finish, so the next run can start a few ms
   * before the previous one's finished_at — this can exceed the cap by one without a breach.
   */
  maxOverlapByTimestamps: number;
}

export interface FairnessBurstResult extends ScenarioInvariants {
  scenario: 'fairness-burst';
  bigOrgEvents: number;
  smallOrgs: number;
  smallOrgEvents: number;
  orgCap: number;
  workerKills: number;
  /** Accepted events that never reached a terminal state. */
  lostEvents: number;
  /** Events that ended other than completed. */
  notCompleted: number;
  /** Orgs whose semaphore held more slots at once than the cap, or enforced another capacity. */
  capExceeded: number;
  big: OrgFigures;
  small: OrgFigures[];
  /** The slowest small org's p95 pickup wait, ms. */
  smallOrgsP95WaitMs: number | null;
  /** The last small org's completion as a fraction of the big org's (1 ≈ served after the whole burst). */
  smallDoneFraction: number | null;
  stuckRuns: number;
  wallSeconds: number;
}

/** A small org is starved when it finishes with (or after) the big org's burst. */
export const STARVED_FRACTION = 0.9;

/**
 * A burst of `bigN` events for one org and, right behind it, `smallN` for each of `smallOrgs`
 * others, all to the chaos_echo agent (a model call, a read tool, a model call), with a per-org
 * cap, and the worker SIGKILLed once mid-burst. Nothing may be dropped, no org may run more
 * than its cap at once, and the small orgs must not wait for the whole burst.
 */
export async function fairnessBurst(
  p: ChaosPlatform,
  opts: {
    bigN: number;
    smallOrgs: number;
    smallN: number;
    cap: number;
    kills: number;
    deadlineMs: number;
  },
  log: (s: string) => void,
): Promise<FairnessBurstResult> {
  const started = Date.now();
  const db = p.database.db;
  const tag = Date.now().toString(36);
  const big = `chaos-big-${tag}`;
  const smalls = Array.from({ length: opts.smallOrgs }, (_, k) => `chaos-small${k + 1}-${tag}`);
  for (const o of [big, ...smalls]) {
    await ensureOrganization(db, { id: o, name: o });
    await setOrgAgentSettings(db, { orgId: o, maxConcurrentRuns: opts.cap });
  }
  const events = new EventsClient(p.client, db, { taskQueue: p.taskQueue });
  const kills0 = p.worker.kills;
  const send = async (orgId: string, i: number) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return {
          orgId,
          ...(await events.acceptEvent({
            orgId,
            type: 'chaos.ping',
            source: 'connector',
            payload: { n: i },
          })),
        };
      } catch (err) {
        if (attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  };
  const t0 = Date.now();
  const accepted: Awaited<ReturnType<typeof send>>[] = [];
  await inPool(
    Array.from({ length: opts.bigN }, (_, i) => i),
    20,
    async (i) => void accepted.push(await send(big, i)),
  );
  log(`  ${opts.bigN} events accepted for ${big} in ${Math.round((Date.now() - t0) / 1000)} s`);
  await inPool(
    smalls.flatMap((o) => Array.from({ length: opts.smallN }, (_, i) => ({ o, i }))),
    20,
    async ({ o, i }) => void accepted.push(await send(o, i)),
  );
  const faults = killWorkerAtRandom(p, { kills: opts.kills, minMs: 5000, spanMs: 10000 }, log);
  // Completion per org from the database, once a second (no result call per event is left
  // hanging when the deadline passes).
  const all = [big, ...smalls];
  const expectedOf = (o: string) => (o === big ? opts.bigN : opts.smallN);
  const orgDoneAt = new Map<string, number>();
  const deadline = Date.now() + opts.deadlineMs;
  let lastLog = 0;
  for (;;) {
    const counts = new Map(
      (
        await db.execute<{ org_id: string; n: string }>(sql`
          select org_id, count(*)::text as n from events
          where org_id in ${all} and state in ('completed', 'failed', 'ignored', 'expired')
          group by org_id`)
      ).rows.map((r) => [r.org_id, Number(r.n)]),
    );
    for (const o of all)
      if (!orgDoneAt.has(o) && (counts.get(o) ?? 0) >= expectedOf(o))
        orgDoneAt.set(o, (Date.now() - t0) / 1000);
    if (orgDoneAt.size === all.length || Date.now() > deadline) break;
    if (Date.now() - lastLog > 15_000) {
      lastLog = Date.now();
      log(`  done: ${all.map((o) => `${o.split('-')[1]} ${counts.get(o) ?? 0}`).join(', ')}`);
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  await faults.stop();

  const rows = (
    await db.execute<{
      org_id: string;
      id: string;
      state: string;
      wait_ms: string | null;
    }>(sql`
      select e.org_id, e.id, e.state,
             (select extract(epoch from (min(r.created_at) - e.accepted_at)) * 1000
                from agent_runs r where r.org_id = e.org_id and r.event_id = e.id)::text as wait_ms
      from events e where e.org_id in ${all} and e.state <> 'duplicate'`)
  ).rows;
  // Most runs running at once per org: a sweep over the runs' start and finish times.
  const spans = (
    await db.execute<{ org_id: string; t: string; d: number }>(sql`
      select org_id, t, d from (
        select org_id, started_at as t, 1 as d from agent_runs
          where org_id in ${all} and started_at is not null
        union all
        select org_id, finished_at as t, -1 as d from agent_runs
          where org_id in ${all} and started_at is not null and finished_at is not null) x
      order by org_id, t, d`)
  ).rows;
  const maxRunning = new Map<string, number>();
  const now = new Map<string, number>();
  for (const s of spans) {
    const n = (now.get(s.org_id) ?? 0) + Number(s.d);
    now.set(s.org_id, n);
    maxRunning.set(s.org_id, Math.max(maxRunning.get(s.org_id) ?? 0, n));
  }
  const terminal = ['completed', 'failed', 'ignored', 'expired'];
  const slots = new Map<string, { maxHeld: number; capacity: number } | null>();
  for (const o of all)
    slots.set(
      o,
      await p.client.workflow
        .getHandle(slotsWorkflowId(p.taskQueue, `org:${o}`))
        .query(slotsStateQuery)
        .then(
          (v) => ({ maxHeld: v.maxHeld, capacity: v.capacity }),
          () => null,
        ),
    );
  const figures = (orgId: string): OrgFigures => {
    const mine = rows.filter((r) => r.org_id === orgId);
    const waits = mine.filter((r) => r.wait_ms !== null).map((r) => Number(r.wait_ms));
    return {
      orgId,
      events: mine.length,
      completedAtS: orgDoneAt.has(orgId) ? Math.round(orgDoneAt.get(orgId)! * 10) / 10 : null,
      pickupWaitMs: percentiles(waits),
      maxHeld: slots.get(orgId)?.maxHeld ?? null,
      capacity: slots.get(orgId)?.capacity ?? null,
      maxOverlapByTimestamps: maxRunning.get(orgId) ?? 0,
    };
  };
  const bigFigures = figures(big);
  const smallFigures = smalls.map(figures);
  const smallP95 = smallFigures.map((f) => f.pickupWaitMs.p95);
  const smallDone = smallFigures.map((f) => f.completedAtS);
  const invariants = await checkScenarioInvariants(db, { orgs: all });
  return {
    scenario: 'fairness-burst',
    bigOrgEvents: opts.bigN,
    smallOrgs: opts.smallOrgs,
    smallOrgEvents: opts.smallN,
    orgCap: opts.cap,
    workerKills: p.worker.kills - kills0,
    lostEvents:
      accepted.length -
      rows.filter((r) => terminal.includes(r.state)).length +
      (opts.bigN + opts.smallOrgs * opts.smallN - accepted.length),
    notCompleted: rows.filter((r) => r.state !== 'completed').length,
    capExceeded: [bigFigures, ...smallFigures].filter(
      (f) => f.maxHeld === null || f.maxHeld > opts.cap || f.capacity !== opts.cap,
    ).length,
    big: bigFigures,
    small: smallFigures,
    smallOrgsP95WaitMs: smallP95.length ? Math.max(...smallP95) : null,
    smallDoneFraction:
      bigFigures.completedAtS && smallDone.every((x) => x !== null)
        ? Math.round((Math.max(...(smallDone as number[])) / bigFigures.completedAtS) * 100) / 100
        : null,
    stuckRuns: rows.filter((r) => !terminal.includes(r.state)).length,
    ...invariants,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
