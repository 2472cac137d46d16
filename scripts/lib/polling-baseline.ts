import { Pool } from 'pg';
import { percentiles, type Percentiles } from './bench-stats';

/**
 * The write-up's old design in its simplest honest form, run by the events bench in the same
 * process and against the same PostgreSQL: a dispatcher that every `pollMs` SELECTs the pending
 * rows of a table of its own (`bench_polled_events`, created here), marks them picked, and
 * nothing else. Probe rows are inserted with the gaps the Temporal probe's events were sent
 * with; the latency of a row is accepted → picked, both stamped by PostgreSQL's clock
 * (clock_timestamp() in the INSERT and in the UPDATE).
 *
 * Included: the poll interval, the query, the update. NOT included: running any agent, a
 * durable run record, retries, per-org caps, or several dispatchers — so the baseline's
 * latency is a lower bound for the old design, and the ratio is the old design's best case.
 */
export interface PollingBaselineResult {
  design: string;
  pollMs: number;
  probeEvents: number;
  picked: number;
  /** Rows still pending when the baseline gave up (pollMs × 3 after the last insert). */
  notPicked: number;
  polls: number;
  /** Wait before the first insert (random in [0, pollMs)), so the bench does not pick the
   * phase between arrivals and polls. */
  phaseMs: number;
  pickupLatencyMs: Percentiles;
}

export const POLLING_DESIGN =
  'one dispatcher, a timer loop: UPDATE … SET picked WHERE id IN (SELECT pending … FOR UPDATE SKIP LOCKED), then sleep pollMs; latency = accepted_at → picked_at, both clock_timestamp() in PostgreSQL; no agent work, no run record, no retries, no caps';

export async function runPollingBaseline(opts: {
  /** A role that may create a table (the bench database's owner). */
  connectionString: string;
  pollMs: number;
  /** Gaps between consecutive inserts, ms (the Temporal probe's send gaps); length + 1 rows. */
  gapsMs: number[];
  random?: () => number;
}): Promise<PollingBaselineResult> {
  const pool = new Pool({ connectionString: opts.connectionString, max: 2 });
  pool.on('error', () => undefined);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await pool.query(`
      create table if not exists bench_polled_events (
        id bigserial primary key,
        state text not null default 'pending',
        accepted_at timestamptz not null default clock_timestamp(),
        picked_at timestamptz
      )`);
    await pool.query(`truncate bench_polled_events`);
    let polls = 0;
    let stopped = false;
    const poll = async () => {
      polls += 1;
      await pool.query(`
        update bench_polled_events set state = 'picked', picked_at = clock_timestamp()
        where id in (
          select id from bench_polled_events where state = 'pending'
          order by id for update skip locked)`);
    };
    // A timer loop, as a plain dispatcher would: poll, sleep pollMs, poll again.
    const dispatcher = (async () => {
      while (!stopped) {
        await poll();
        const until = Date.now() + opts.pollMs;
        while (!stopped && Date.now() < until) await sleep(Math.min(50, until - Date.now()));
      }
    })();
    const phaseMs = Math.round((opts.random ?? Math.random)() * opts.pollMs);
    await sleep(phaseMs);
    const rows = opts.gapsMs.length + 1;
    for (let i = 0; i < rows; i++) {
      if (i > 0) await sleep(opts.gapsMs[i - 1] ?? 0);
      await pool.query(`insert into bench_polled_events default values`);
    }
    const giveUpAt = Date.now() + opts.pollMs * 3;
    const pending = async () =>
      Number(
        (
          await pool.query<{ n: string }>(
            `select count(*) as n from bench_polled_events where state = 'pending'`,
          )
        ).rows[0]?.n ?? 0,
      );
    while ((await pending()) > 0 && Date.now() < giveUpAt) await sleep(100);
    stopped = true;
    await dispatcher;
    const { rows: latencies } = await pool.query<{ ms: number }>(`
      select extract(epoch from (picked_at - accepted_at)) * 1000 as ms
      from bench_polled_events where picked_at is not null`);
    const picked = latencies.map((r) => Number(r.ms));
    return {
      design: POLLING_DESIGN,
      pollMs: opts.pollMs,
      probeEvents: rows,
      picked: picked.length,
      notPicked: rows - picked.length,
      polls,
      phaseMs,
      pickupLatencyMs: percentiles(picked),
    };
  } finally {
    await pool.end();
  }
}
