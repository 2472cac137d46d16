import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { ensureOrganization } from '../../db/repositories/organizations';
import { setOrgAgentSettings } from '../../db/repositories/agent-runs';
import { EventsClient } from '../../client/events-client';
import { inPool, type ChaosPlatform } from './harness';
import { checkScenarioInvariants, type ScenarioInvariants } from './invariants';

export interface EventsFaultsResult extends ScenarioInvariants {
  scenario: 'events-faults';
  events: number;
  workerKills: number;
  postgresRestarts: number;
  completed: number;
  /** Events accepted that never reached a terminal state before the deadline. */
  lostEvents: number;
  /** Events with another state than completed (terminal): e.g. failed after a fault. */
  notCompleted: { eventId: string; state: string }[];
  /** Events with more than one agent run, or runs that completed more than once. */
  runsTwice: number;
  /** Event rows per dedup key beyond the first (the same event recorded twice). */
  duplicateEventRows: number;
  /** Model calls answered by the loopback model (2 per run when nothing is repeated). */
  modelCalls: number;
  /** Runs with more than one recorded model call under the same call id. */
  repeatedModelCalls: number;
  stuckRuns: number;
  wallSeconds: number;
}

const count = async (db: Db, query: ReturnType<typeof sql>): Promise<number> =>
  Number(((await db.execute<{ n: string }>(query)).rows[0] ?? { n: '0' }).n);

/**
 * A burst of events for one org, each dispatched to the chaos_echo agent (llm mode: a model
 * call, a read tool, a model call), while the worker is SIGKILLed at random moments and
 * PostgreSQL is restarted once mid-burst. Every event must end completed exactly once, with
 * exactly one agent run that completed once — nothing lost, nothing run twice.
 */
export async function eventsFaults(
  p: ChaosPlatform,
  opts: { events: number; kills: number; downMs: number; concurrency: number; deadlineMs: number },
  log: (s: string) => void,
): Promise<EventsFaultsResult> {
  const started = Date.now();
  const db = p.database.db;
  const org = `chaos-events-${Date.now().toString(36)}`;
  await ensureOrganization(db, { id: org, name: 'Chaos events' });
  await setOrgAgentSettings(db, { orgId: org, maxConcurrentRuns: 10 });
  const events = new EventsClient(p.client, db, { taskQueue: p.taskQueue });
  const calls0 = p.modelCalls();
  const kills0 = p.worker.kills;

  let settled = false;
  const faults = (async () => {
    let k = 0;
    let restarted = false;
    while ((k < opts.kills || !restarted) && !settled) {
      await new Promise((r) => setTimeout(r, 500 + Math.random() * 1500));
      if (settled) break;
      if (!restarted && k >= Math.floor(opts.kills / 2)) {
        // A worker restarted during the outage must wait for the database, not crash.
        await p.restartPostgres(opts.downMs, () => p.worker.killAndRestart());
        restarted = true;
        log(`  PostgreSQL restarted (${opts.downMs / 1000} s down, the worker killed during it)`);
        continue;
      }
      await p.worker.killAndRestart();
      k++;
      log(`  worker killed and restarted (${k}/${opts.kills})`);
    }
    return restarted ? 1 : 0;
  })();

  const accepted: { eventId: string; workflowId: string }[] = [];
  await inPool(
    Array.from({ length: opts.events }, (_, i) => i),
    opts.concurrency,
    async (i) => {
      // A client retries through a restart as any connector would; the dedup key keeps a
      // retried send from becoming a second event.
      for (let attempt = 1; ; attempt++) {
        try {
          const a = await events.acceptEvent({
            orgId: org,
            type: 'chaos.ping',
            source: 'connector',
            payload: { n: i },
          });
          if (a.status === 'accepted') accepted.push(a);
          return;
        } catch (err) {
          if (attempt >= 20) throw err;
          await new Promise((r) => setTimeout(r, 500));
        }
      }
    },
  );

  const deadline = Date.now() + opts.deadlineMs;
  let stuckRuns = 0;
  await inPool(accepted, opts.concurrency, async (a) => {
    const remaining = deadline - Date.now();
    const r = await Promise.race([
      events.result(a.workflowId).then(
        () => 'done',
        () => 'done',
      ),
      new Promise<string>((res) => setTimeout(() => res('stuck'), Math.max(0, remaining))),
    ]);
    if (r === 'stuck') stuckRuns++;
  });
  settled = true;
  const postgresRestarts = await faults;

  const rows = (
    await db.execute<{ id: string; state: string }>(
      sql`select id, state from events where org_id = ${org} and state <> 'duplicate'`,
    )
  ).rows;
  const terminal = ['completed', 'failed', 'ignored', 'expired'];
  const lostEvents =
    accepted.length -
    rows.filter((r) => terminal.includes(r.state)).length +
    Math.max(0, opts.events - accepted.length);
  const notCompleted = rows
    .filter((r) => r.state !== 'completed')
    .map((r) => ({ eventId: r.id, state: r.state }));
  const runsTwice =
    (await count(
      db,
      sql`select count(*)::text as n from (select event_id from agent_runs where org_id = ${org}
            group by event_id having count(*) > 1) x`,
    )) +
    (await count(
      db,
      sql`select count(*)::text as n from (select t.run_id from agent_run_transitions t
            join agent_runs r on r.id = t.run_id
            where r.org_id = ${org} and t.state = 'completed'
            group by t.run_id having count(*) > 1) x`,
    ));
  const duplicateEventRows = await count(
    db,
    sql`select coalesce(sum(n - 1), 0)::text as n from (select count(*) as n from events
          where org_id = ${org} and state <> 'duplicate' group by type, dedup_key) x`,
  );
  const repeatedModelCalls = await count(
    db,
    sql`select count(*)::text as n from (select run_id from model_calls where org_id = ${org}
          group by run_id having count(*) > 2) x`,
  );
  const invariants = await checkScenarioInvariants(db, { orgs: [org] });
  return {
    scenario: 'events-faults',
    events: opts.events,
    workerKills: p.worker.kills - kills0,
    postgresRestarts,
    completed: rows.filter((r) => r.state === 'completed').length,
    lostEvents,
    notCompleted,
    runsTwice,
    duplicateEventRows,
    modelCalls: p.modelCalls() - calls0,
    repeatedModelCalls,
    stuckRuns,
    ...invariants,
    wallSeconds: Math.round((Date.now() - started) / 100) / 10,
  };
}
