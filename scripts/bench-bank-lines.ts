import { cpus, loadavg, tmpdir } from 'node:os';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, count, eq, like } from 'drizzle-orm';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../config/env';
import { accountId } from '../db/ledger/default-chart';
import { ensureOrganization } from '../db/repositories/organizations';
import { setOrgAgentSettings } from '../db/repositories/agent-runs';
import { upsertAgentIdentity } from '../db/repositories/credentials';
import { bankLineClassifications, journalEntries } from '../db/schema';
import { createWorker } from '../worker';
import { EventsClient } from '../client/events-client';
import { GatewayClient } from '../client/gateway-client';
import {
  CARD_LINES_EVENT,
  type CardLinesPayload,
} from '../agents/bank_transaction_processor/handler';
import { batchEntryIdempotencyKey } from '../activities/gateway/journal-batch';
import { TERMINAL_EVENT_STATES } from '../workflows/events/contract';
import { PROJECT_ROOT } from './lib/temporal-binaries';
import { benchPorts, bringUpBenchPlatform, runBenchWorker } from './lib/bench-platform';
import { round1 } from './lib/bench-stats';
import { SYNTHETIC_MERCHANTS, syntheticCardLines } from './lib/synthetic-card-lines';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * `npm run bench -- bank-lines [--lines 2000] [--per-event 500] [--json FILE]`: bank lines
 * classified and posted per second by the shipped bank_transaction_processor in code mode.
 * Its own dev server and throw-away database (ports CS_BENCH_TEMPORAL_PORT / CS_BENCH_PG_PORT
 * + 40), an in-process worker.
 *
 * The org is seeded like the tests' (default chart, an operator for the agent, an approver, the
 * agent registered for journal.post_batch); the agent's config gets one org rule per synthetic
 * merchant, and the rules' accounts are warmed with one approved posting (a first posting to
 * an account waits for an approval). Then `lines` synthetic card lines (see
 * lib/synthetic-card-lines.ts; ~5% from unknown merchants, which are asked) are delivered as
 * `card.transactions_imported` events of `per-event` lines, all accepted at once: the agent
 * runs one at a time per org, so they are processed one after another.
 *
 * - classifiedPerSecond: lines recorded in the agent's memory (auto or asked) ÷ seconds from
 *   just before the first accept to the first 200 ms sample that counts them all.
 * - postedPerSecond: entries applied in the ledger for the auto lines ÷ seconds from the same
 *   start to the first sample that counts them all.
 * - asked: lines put to a person (not answered here; nothing of theirs posts).
 * - The bench fails when a line is not classified, an auto line is not posted, an event does not reach a terminal state, or the trial balance does not net to
 *   zero per currency.
 */
type Load = [number, number, number];
const load = (): Load => loadavg().map((x) => Math.round(x * 100) / 100) as Load;

const AGENT = 'bank_transaction_processor';
const FEED = 'card';

export interface BankLinesBench {
  suite: 'bank-lines';
  mode: 'code';
  lines: number;
  linesPerEvent: number;
  events: number;
  database: 'DATABASE_URL' | 'embedded';
  /** Lines recorded by the agent, auto or asked. */
  classified: number;
  autoPosted: number;
  asked: number;
  /** Auto lines expected from the generator (known merchants). */
  expectedAuto: number;
  /** Auto lines whose posted account is the merchant's rule account. */
  autoCorrect: number;
  classifiedPerSecond: number;
  postedPerSecond: number;
  classifiedAtS: number;
  postedAtS: number;
  eventsTerminal: number;
  eventStates: Record<string, number>;
  trialBalanceNetsToZero: boolean;
  /** Seeding, warm-up and delivery included. */
  wallSeconds: number;
  cores: number;
  loadAverageAtStart: Load;
}

/** The reasons the bench failed (empty when it passed). */
export function bankLinesFailures(r: BankLinesBench): string[] {
  const out: string[] = [];
  if (r.classified !== r.lines) out.push(`${r.classified}/${r.lines} lines classified`);
  if (r.autoPosted !== r.lines - r.asked)
    out.push(`${r.autoPosted} auto lines posted, ${r.lines - r.asked} classified auto`);
  if (r.eventsTerminal !== r.events) out.push(`${r.eventsTerminal}/${r.events} events terminal`);
  if (!r.trialBalanceNetsToZero) out.push('the trial balance does not net to zero');
  return out;
}

export async function benchBankLines(opts: {
  lines: number;
  perEvent: number;
  /** No progress for this long: the bench stops waiting and reports what it has. */
  stallMs?: number;
}): Promise<BankLinesBench> {
  const loadAverageAtStart = load();
  const wall0 = performance.now();
  const cfg = loadConfig();
  const stops: (() => Promise<void>)[] = [];
  try {
    const { database, runCfg } = await bringUpBenchPlatform(
      cfg,
      { name: 'bank-lines', ...benchPorts(40, { temporal: 17_980, pg: 25_490 }) },
      stops,
    );
    const { db } = database;
    const org = `bench-${Date.now().toString(36)}`;
    const operator = `${org}-clerk`;
    const approver = `${org}-approver`;
    await ensureOrganization(db, { id: org, name: 'Bench Org' });
    await seedDefaultChart(db, org);
    for (const [id, role] of [
      [operator, 'analyst'],
      [approver, 'approver'],
    ] as const)
      await ensureUser(db, {
        id,
        email: `${id}@bench.example`,
        displayName: id,
        orgId: org,
        roles: [role],
      });
    await setOrgAgentSettings(db, { orgId: org, operatorUserId: operator });
    await upsertAgentIdentity(db, {
      orgId: org,
      by: 'bench',
      agentId: AGENT,
      operatorUserId: operator,
      allowedWorkflows: ['journal.post_batch'],
    });

    // The shipped agent with the org's rules in its settings (the agents folder is the config).
    const agentsDir = mkdtempSync(join(tmpdir(), 'cs-bench-bank-agents-'));
    stops.push(async () => rmSync(agentsDir, { recursive: true, force: true }));
    const target = join(agentsDir, AGENT);
    cpSync(join(PROJECT_ROOT, 'agents', AGENT), target, { recursive: true });
    const config = parse(readFileSync(join(target, 'config.yaml'), 'utf8')) as {
      settings?: Record<string, unknown>;
    };
    writeFileSync(
      join(target, 'config.yaml'),
      stringify({
        ...config,
        settings: {
          ...config.settings,
          rules: SYNTHETIC_MERCHANTS.map((m) => ({ match: m.match, account_code: m.accountCode })),
        },
      }),
    );

    // Code mode: no model, whatever ANTHROPIC_API_KEY the shell has.
    const codeCfg = { ...runCfg, ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined };
    const taskQueue = 'bench-bl';
    const { worker, connection } = await createWorker({
      cfg: codeCfg,
      database,
      taskQueue,
      agentRuntime: { agentsDir, anthropic: null },
    });
    const client = await runBenchWorker({ worker, connection }, { runCfg, database }, stops);
    const gw = new GatewayClient(client, db, taskQueue);

    // Warm the rules' accounts and the bank account: one posting, approved by a person.
    const codes = [...new Set(SYNTHETIC_MERCHANTS.map((m) => m.accountCode))];
    await gw.submit({
      orgId: org,
      idempotencyKey: 'warm-accounts',
      submitter: { kind: 'user', userId: operator },
      kind: 'journal.post',
      payload: {
        entryDate: '2025-05-31',
        memo: 'bench: first posting to each account',
        lines: [
          ...codes.map((c) => ({ accountId: accountId(org, c), currency: 'GBP', debit: '100' })),
          {
            accountId: accountId(org, '1010'),
            currency: 'GBP',
            credit: String(100 * codes.length),
          },
        ],
      },
    });
    const warm = await gw.settle(org, 'warm-accounts', 60_000);
    if (warm.status === 'awaiting_approval')
      await gw.approve(org, 'warm-accounts', approver, 'bench warm-up');
    const warmed = await gw.result(org, 'warm-accounts');
    if (warmed.outcome !== 'applied') throw new Error(`warm-up posting ended ${warmed.outcome}`);

    const lines = syntheticCardLines(opts.lines);
    const expectedAuto = lines.filter((l) => l.expectedCode !== null).length;
    const events = new EventsClient(client, db, { taskQueue });
    const payloads: CardLinesPayload[] = [];
    for (let i = 0; i < lines.length; i += opts.perEvent)
      payloads.push({
        feedId: FEED,
        batchId: `bench-${payloads.length + 1}`,
        currency: 'GBP',
        lines: lines.slice(i, i + opts.perEvent).map((l) => ({
          id: l.id,
          date: l.date,
          amountMinor: l.amountMinor,
          merchant: l.merchant,
          card: l.card,
          taxCode: l.taxCode,
        })),
      });

    const classifiedCount = async () =>
      Number(
        (
          await db
            .select({ n: count() })
            .from(bankLineClassifications)
            .where(eq(bankLineClassifications.orgId, org))
        )[0]?.n ?? 0,
      );
    const postedCount = async () =>
      Number(
        (
          await db
            .select({ n: count() })
            .from(journalEntries)
            .where(
              and(
                eq(journalEntries.orgId, org),
                eq(journalEntries.status, 'posted'),
                like(journalEntries.idempotencyKey, batchEntryIdempotencyKey(`${FEED}:%`)),
              ),
            )
        )[0]?.n ?? 0,
      );
    const autoCount = async () =>
      Number(
        (
          await db
            .select({ n: count() })
            .from(bankLineClassifications)
            .where(
              and(
                eq(bankLineClassifications.orgId, org),
                eq(bankLineClassifications.status, 'auto'),
              ),
            )
        )[0]?.n ?? 0,
      );

    const t0 = performance.now();
    const accepted = await Promise.all(
      payloads.map((payload) =>
        events.acceptEvent({ orgId: org, type: CARD_LINES_EVENT, source: 'connector', payload }),
      ),
    );
    // Sampled every 200 ms until every line is recorded and every auto line is on the books;
    // each figure's time is the first sample that saw its final count.
    const samples: { t: number; classified: number; posted: number }[] = [];
    let classified = 0;
    let posted = 0;
    let auto = 0;
    let lastProgress = performance.now();
    const stallMs = opts.stallMs ?? 120_000;
    for (;;) {
      const [c, p, a] = [await classifiedCount(), await postedCount(), await autoCount()];
      const now = performance.now();
      if (c !== classified || p !== posted) lastProgress = now;
      [classified, posted, auto] = [c, p, a];
      samples.push({ t: now, classified, posted });
      if (classified >= lines.length && posted >= auto) break;
      if (now - lastProgress > stallMs) {
        console.error(
          `bank-lines: no progress for ${stallMs / 1000} s: ${classified}/${lines.length} classified, ${posted}/${auto} auto lines posted`,
        );
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const classifiedAt = samples.find((x) => x.classified >= classified)?.t ?? performance.now();
    const postedAt = samples.find((x) => x.posted >= posted)?.t ?? performance.now();

    // Every event to its end (the run that asked ends waiting for a person; its event is done).
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

    // What reached the books: per auto line its account, once.
    const rows = await database.pool.query<{ line_key: string; code: string }>(
      `select distinct b.line_key, a.code
         from bank_line_classifications b
         join journal_entries e
           on e.org_id = b.org_id and e.idempotency_key = 'batch-entry:' || b.line_key
          and e.status = 'posted'
         join journal_lines l on l.entry_id = e.id and l.account_id <> $2
         join accounts a on a.id = l.account_id
        where b.org_id = $1 and b.status = 'auto'`,
      [org, accountId(org, '1010')],
    );
    const expected = new Map(lines.map((l) => [`${FEED}:${l.id}`, l.expectedCode]));
    const autoCorrect = rows.rows.filter((r) => expected.get(r.line_key) === r.code).length;
    const tb = await gw.trialBalance(org);
    const classifiedS = (classifiedAt - t0) / 1000;
    const postedS = (postedAt - t0) / 1000;
    return {
      suite: 'bank-lines',
      mode: 'code',
      lines: lines.length,
      linesPerEvent: opts.perEvent,
      events: accepted.length,
      database: cfg.DATABASE_URL ? 'DATABASE_URL' : 'embedded',
      classified,
      autoPosted: posted,
      asked: classified - auto,
      expectedAuto,
      autoCorrect,
      classifiedPerSecond: round1(classified / classifiedS),
      postedPerSecond: round1(posted / postedS),
      classifiedAtS: round1(classifiedS),
      postedAtS: round1(postedS),
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
