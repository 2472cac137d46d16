import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { loadConfig } from '../config/env';
import { APPROVERS, OPERATOR, seedBillOrg } from './eval/invoices';
import { bills } from '../db/schema';
import { createWorker } from '../worker';
import { ingestFile } from '../client/documents';
import { EventsClient } from '../client/events-client';
import { GatewayClient } from '../client/gateway-client';
import { TERMINAL_EVENT_STATES } from '../workflows/events/contract';
import { benchPorts, bringUpBenchPlatform, runBenchWorker } from './lib/bench-platform';
import { percentiles, round1 } from './lib/bench-stats';
import { accountBySystemRole } from '../db/repositories/ledger';
import { ciiInvoice, ublInvoice, type InvoiceSpec } from './lib/einvoice-builder';
import { ensureBillRules } from './lib/en16931-rules';

/**
 * `npm run bench -- bills [--n 200] [--per-event 50] [--json FILE]`: structured e-invoices (CII
 * and UBL, one and two VAT rates) through the shipped bill processor in code mode and the
 * gateway, end to end: `bill.received` accepted → XML read → EN 16931 rules → vendor found →
 * posted, validated, risk-scored and applied. Each event carries `--per-event` documents, as an
 * access point or a connector delivers them: one document per event posts each bill with its own
 * `bill.post`; more post the event's bills as one `bill.post_batch` (each bill still planned and
 * scored on its own). Its own dev server and throw-away database (ports
 * CS_BENCH_TEMPORAL_PORT / CS_BENCH_PG_PORT + 50), an in-process worker.
 *
 * The org has its vendor already (created through the gateway and approved) and its expense and
 * input-tax accounts warmed by one approved bill (a first posting to an account waits for a
 * person); the bills are small enough for the auto lane. The documents are ingested first
 * (timed apart), then every event is accepted at once.
 *
 * - postedPerSecond: bills applied ÷ seconds from just before the first accept to the first
 *   200 ms sample that counts them all.
 * - endToEndPerSecond: bills applied ÷ (ingestion seconds + those seconds).
 * - The bench fails when a bill is not posted, an event does not end, or the books do not
 *   net to zero.
 */
type Load = [number, number, number];
const load = (): Load => loadavg().map((x) => Math.round(x * 100) / 100) as Load;

export interface BillsBench {
  suite: 'bills';
  n: number;
  /** Documents per bill.received event. */
  perEvent: number;
  events: number;
  ingestPerSecond: number;
  posted: number;
  postedPerSecond: number;
  /**
   * Bills ÷ (ingestion seconds + posting seconds): upload to posted with the two phases one
   * after the other, a lower bound for a connector that ingests while the agents post.
   */
  endToEndPerSecond: number;
  postedAtS: number;
  /** Per bill: event accepted → its bill row written (ms). */
  latencyMs: { p50: number; p95: number; max: number };
  eventsTerminal: number;
  eventStates: Record<string, number>;
  trialBalanceNetsToZero: boolean;
  wallSeconds: number;
  cores: number;
  loadAverageAtStart: Load;
}

export function billsFailures(r: BillsBench): string[] {
  const out: string[] = [];
  if (r.posted !== r.n) out.push(`${r.posted}/${r.n} bills posted`);
  if (r.eventsTerminal !== r.events) out.push(`${r.eventsTerminal}/${r.events} events terminal`);
  if (!r.trialBalanceNetsToZero) out.push('the trial balance does not net to zero');
  return out;
}

const SELLER = 'Bench Lieferant GmbH';
/** Documents uploaded side by side, as a connector delivering a batch would. */
const INGEST_IN_FLIGHT = 8;
const spec = (i: number): InvoiceSpec => ({
  number: `BENCH-${String(i).padStart(6, '0')}`,
  seller: SELLER,
  lines:
    i % 2 === 0
      ? [
          {
            name: `Material ${i}`,
            net: `${10 + (i % 50)}.${String(i % 100).padStart(2, '0')}`,
            rate: '19',
          },
        ]
      : [
          { name: `Service ${i}`, net: `${20 + (i % 30)}.00`, rate: '19' },
          { name: `Buch ${i}`, net: '12.90', rate: '7' },
        ],
});

export async function benchBills(opts: {
  n: number;
  perEvent?: number;
  stallMs?: number;
}): Promise<BillsBench> {
  const perEvent = opts.perEvent ?? 50;
  // The official rules the bill processor validates with (installed once, then only checked).
  ensureBillRules();
  const loadAverageAtStart = load();
  const wall0 = performance.now();
  const cfg = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  try {
    const { database, runCfg } = await bringUpBenchPlatform(
      cfg,
      { name: 'bills', ...benchPorts(50, { temporal: 17_990, pg: 25_500 }) },
      stops,
    );
    const { db } = database;
    const org = `bench-bills-${Date.now().toString(36)}`;
    // The invoices eval's bill org: chart, an AP clerk operating the agents, two approvers.
    await seedBillOrg(db, org);
    const operator = `${org}-${OPERATOR}`;
    const approvers = APPROVERS.map((a) => `${org}-${a}`);
    const codeCfg = { ...runCfg, ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined };
    const taskQueue = 'bench-bills';
    const { worker, connection } = await createWorker({ cfg: codeCfg, database, taskQueue });
    const client = await runBenchWorker({ worker, connection }, { runCfg, database }, stops);
    const gw = new GatewayClient(client, db, taskQueue);
    const approveAll = async (key: string) => {
      const v = await gw.settle(org, key, 60_000);
      if (v.status === 'awaiting_approval')
        for (const a of approvers.slice(0, v.risk?.lane === 'high' ? 2 : 1))
          await gw.approve(org, key, a, 'bench warm-up');
      const r = await gw.result(org, key);
      if (r.outcome !== 'applied') throw new Error(`${key} ended ${r.outcome}`);
    };
    await gw.submit({
      orgId: org,
      idempotencyKey: 'vendor',
      submitter: { kind: 'user', userId: operator },
      kind: 'vendor.create',
      payload: {
        vendorId: 'ven-bench',
        name: SELLER,
        email: 'rechnung@bench-lieferant.de',
      },
    });
    await approveAll('vendor');
    await gw.submit({
      orgId: org,
      idempotencyKey: 'warm-bill',
      submitter: { kind: 'user', userId: operator },
      kind: 'bill.post',
      payload: {
        vendorId: 'ven-bench',
        billNumber: 'WARM-1',
        billDate: '2026-03-01',
        currency: 'EUR',
        lines: [
          { description: 'warm-up', amountMinor: '1000' },
          {
            description: 'warm-up tax',
            amountMinor: '190',
            accountId: (await accountBySystemRole(db, org, 'input_tax'))!.id,
          },
        ],
      },
    });
    await approveAll('warm-bill');

    // Documents: ingested first, timed apart.
    const dir = mkdtempSync(join(tmpdir(), 'cs-bench-bills-'));
    stops.push(async () => rmSync(dir, { recursive: true, force: true }));
    const docs: string[] = [];
    const ingest0 = performance.now();
    for (let i = 0; i < opts.n; i++) {
      const path = join(dir, `bill-${i}.xml`);
      writeFileSync(path, i % 3 === 0 ? ublInvoice(spec(i)) : ciiInvoice(spec(i)));
      docs.push(path);
    }
    // Uploaded INGEST_IN_FLIGHT at a time, each slot taking the next file as it finishes.
    const ids: string[] = new Array<string>(docs.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: INGEST_IN_FLIGHT }, async () => {
        for (let i = next++; i < docs.length; i = next++)
          ids[i] = (
            await ingestFile({ db, client, taskQueue }, { orgId: org, path: docs[i]! })
          ).document.id;
      }),
    );
    const ingestS = (performance.now() - ingest0) / 1000;

    const events = new EventsClient(client, db, { taskQueue });
    const postedCount = async () =>
      Number(
        (
          await db
            .select({ n: count() })
            .from(bills)
            .where(and(eq(bills.orgId, org), eq(bills.vendorId, 'ven-bench')))
        )[0]?.n ?? 0,
      ) - 1; // the warm-up bill
    const t0 = performance.now();
    const acceptedAt = new Map<string, number>();
    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += perEvent) batches.push(ids.slice(i, i + perEvent));
    const accepted = await Promise.all(
      batches.map(async (batch) => {
        const a = await events.acceptEvent({
          orgId: org,
          type: 'bill.received',
          source: 'connector',
          payload: batch.length === 1 ? { documentId: batch[0] } : { documentIds: batch },
        });
        const at = performance.now();
        for (const documentId of batch) acceptedAt.set(documentId, at);
        return a;
      }),
    );
    let posted = 0;
    let lastProgress = performance.now();
    let postedAt = performance.now();
    const stallMs = opts.stallMs ?? 120_000;
    for (;;) {
      const p = await postedCount();
      const now = performance.now();
      if (p !== posted) {
        posted = p;
        postedAt = now;
        lastProgress = now;
      }
      if (posted >= opts.n) break;
      if (now - lastProgress > stallMs) {
        console.error(`bills: no progress for ${stallMs / 1000} s: ${posted}/${opts.n} posted`);
        const runs = await database.pool.query<{ state: string; output: unknown }>(
          `select state, output from agent_runs where org_id = $1 order by created_at limit 3`,
          [org],
        );
        for (const r of runs.rows)
          console.error(`  a run: ${r.state} ${JSON.stringify(r.output).slice(0, 600)}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    // Per bill: accepted → bill row created (the database's clock, read against ours once).
    const rows = await database.pool.query<{ number: string; ms: string }>(
      `select b.bill_number as number, extract(epoch from (e.posted_at - now())) * 1000 as ms
         from bills b join journal_entries e on e.org_id = b.org_id and e.id = b.entry_id
        where b.org_id = $1 and b.vendor_id = 'ven-bench' and b.bill_number like 'BENCH-%'`,
      [org],
    );
    const nowPerf = performance.now();
    const latencies = rows.rows.flatMap((r) => {
      const i = Number(r.number.slice('BENCH-'.length));
      const at = acceptedAt.get(ids[i] ?? '');
      return at === undefined ? [] : [nowPerf + Number(r.ms) - at];
    });
    const eventStates: Record<string, number> = {};
    let eventsTerminal = 0;
    for (const a of accepted) {
      const r = await Promise.race([
        events.result(a.workflowId).catch(() => null),
        new Promise<null>((res) => setTimeout(() => res(null), 60_000)),
      ]);
      const state = r?.state ?? 'not terminal';
      eventStates[state] = (eventStates[state] ?? 0) + 1;
      if (r && TERMINAL_EVENT_STATES.includes(r.state)) eventsTerminal += 1;
    }
    const tb = await gw.trialBalance(org);
    const postedS = (postedAt - t0) / 1000;
    return {
      suite: 'bills',
      n: opts.n,
      perEvent,
      events: batches.length,
      ingestPerSecond: round1(opts.n / ingestS),
      posted,
      postedPerSecond: round1(posted / postedS),
      endToEndPerSecond: round1(posted / (ingestS + postedS)),
      postedAtS: round1(postedS),
      latencyMs: {
        ...(({ p50, p95 }) => ({ p50, p95 }))(percentiles(latencies)),
        max: Math.round(Math.max(0, ...latencies)),
      },
      eventsTerminal,
      eventStates,
      trialBalanceNetsToZero: tb.totals.every((t) => t.net === '0'),
      wallSeconds: round1((performance.now() - wall0) / 1000),
      cores: cpus().length,
      loadAverageAtStart,
    };
  } finally {
    for (const stop of stops.reverse())
      await stop().catch((err: unknown) => console.error('stop failed:', err));
  }
}
