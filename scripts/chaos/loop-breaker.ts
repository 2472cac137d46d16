import { sql } from 'drizzle-orm';
import { ensureOrganization } from '../../db/repositories/organizations';
import { setOrgAgentSettings } from '../../db/repositories/agent-runs';
import { EventsClient } from '../../client/events-client';
import { MAX_EVENT_HOPS } from '../../workflows/events/contract';
import { LOOP_EVENT } from './fake-model';
import { inPool, killWorkerAtRandom, type ChaosPlatform } from './harness';
import { checkScenarioInvariants, type ScenarioInvariants } from './invariants';

export interface LoopBreakerResult extends ScenarioInvariants {
  scenario: 'loop-breaker';
  /** Loops started: one outside event each, to an agent that emits the event it took. */
  chains: number;
  hopCap: number;
  workerKills: number;
  /** chaos.loop events per chain (each must be hopCap + 1: the root and one per hop). */
  eventsPerChain: number[];
  /** Runs whose emit the breaker refused (each chain's last: must equal `chains`). */
  breakerStops: number;
  /** Events emitted beyond the cap, or still arriving after the quiet period (must be 0). */
  eventsPastCap: number;
  /** Runs per chaos.loop event beyond one. */
  runsTwice: number;
  stuckRuns: number;
  wallSeconds: number;
}

/**
 * A self-triggering agent: chaos_loop takes chaos.loop and (its model says so) emits
 * chaos.loop again. Started `chains` times, with the worker SIGKILLed while the loops run,
 * each loop must stop at the hop cap — hop 0 (the outside event) plus MAX_EVENT_HOPS emitted
 * events — with the breaker's refusal in the last run's progress log, and nothing after a
 * quiet period.
 */
export async function loopBreaker(
  p: ChaosPlatform,
  opts: { chains: number; kills: number; quietMs: number; deadlineMs: number },
  log: (s: string) => void,
): Promise<LoopBreakerResult> {
  const started = Date.now();
  const db = p.database.db;
  const org = `chaos-loop-${Date.now().toString(36)}`;
  await ensureOrganization(db, { id: org, name: 'Chaos loop' });
  await setOrgAgentSettings(db, { orgId: org, maxConcurrentRuns: 10 });
  const events = new EventsClient(p.client, db, { taskQueue: p.taskQueue });
  const kills0 = p.worker.kills;
  const expected = opts.chains * (MAX_EVENT_HOPS + 1);

  const settledCount = async () =>
    Number(
      (
        await db.execute<{ n: string }>(
          sql`select count(*)::text as n from events where org_id = ${org} and type = ${LOOP_EVENT}
              and state in ('completed', 'failed', 'ignored', 'expired')`,
        )
      ).rows[0]?.n ?? 0,
    );
  const faults = killWorkerAtRandom(p, { kills: opts.kills, minMs: 800, spanMs: 1500 }, log);
  await inPool(
    Array.from({ length: opts.chains }, (_, c) => c),
    opts.chains,
    async (c) => {
      await events.acceptEvent({
        orgId: org,
        type: LOOP_EVENT,
        source: 'connector',
        payload: { chain: c },
      });
    },
  );
  // Every chain's events settled (the emitted ones arrive as the loops run), then a quiet
  // period in which nothing new may appear.
  const deadline = Date.now() + opts.deadlineMs;
  let stuckRuns = 0;
  while ((await settledCount()) < expected) {
    if (Date.now() > deadline) {
      stuckRuns = expected - (await settledCount());
      break;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await faults.stop();
  await new Promise((r) => setTimeout(r, opts.quietMs));

  const rows = (
    await db.execute<{ id: string; state: string; cause_run: string | null; hop: string | null }>(
      sql`select id, state, causation->>'agentInstanceId' as cause_run,
                 causation->>'hop' as hop
          from events where org_id = ${org} and type = ${LOOP_EVENT} and state <> 'duplicate'`,
    )
  ).rows;
  const runs = (
    await db.execute<{ id: string; event_id: string | null }>(
      sql`select id, event_id from agent_runs where org_id = ${org} and agent_type = 'chaos_loop'`,
    )
  ).rows;
  const eventOfRun = new Map(runs.map((r) => [r.id, r.event_id]));
  const parent = new Map(
    rows.map((r) => [r.id, r.cause_run ? (eventOfRun.get(r.cause_run) ?? null) : null]),
  );
  const rootOf = (id: string): string => {
    let at = id;
    for (let i = 0; i <= rows.length; i++) {
      const up = parent.get(at);
      if (!up) return at;
      at = up;
    }
    return at;
  };
  const perRoot = new Map<string, number>();
  for (const r of rows) perRoot.set(rootOf(r.id), (perRoot.get(rootOf(r.id)) ?? 0) + 1);
  const eventsPastCap = rows.filter((r) => Number(r.hop ?? 0) > MAX_EVENT_HOPS).length;
  const breakerStops = Number(
    (
      await db.execute<{ n: string }>(
        sql`select count(distinct run_id)::text as n from agent_run_progress
            where org_id = ${org} and message like 'loop breaker:%'`,
      )
    ).rows[0]?.n ?? 0,
  );
  const runsTwice = Number(
    (
      await db.execute<{ n: string }>(
        sql`select count(*)::text as n from (select event_id from agent_runs
              where org_id = ${org} group by event_id having count(*) > 1) x`,
      )
    ).rows[0]?.n ?? 0,
  );
  const invariants = await checkScenarioInvariants(db, { orgs: [org] });
  return {
    scenario: 'loop-breaker',
    chains: opts.chains,
    hopCap: MAX_EVENT_HOPS,
    workerKills: p.worker.kills - kills0,
    eventsPerChain: [...perRoot.values()].sort((a, b) => a - b),
    breakerStops,
    eventsPastCap: eventsPastCap + Math.max(0, rows.length - expected),
    runsTwice,
    stuckRuns,
    ...invariants,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
