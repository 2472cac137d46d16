import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/connection';
import { accountId as chartAccountId } from '../../db/ledger/default-chart';
import { ensureOrganization } from '../../db/repositories/organizations';
import { setOrgAgentSettings } from '../../db/repositories/agent-runs';
import { upsertAgentIdentity } from '../../db/repositories/credentials';
import {
  accounts,
  bankLineClassifications,
  gatewaySubmissions,
  humanRequests,
  journalLines,
} from '../../db/schema';
import { applySystemWrites } from '../../activities/gateway/system';
import { batchEntryId } from '../../activities/gateway/journal-batch';
import { decimalToMinor } from '../../activities/intake/statement';
import { EventsClient } from '../../client/events-client';
import { GatewayClient } from '../../client/gateway-client';
import { RequestsClient } from '../../client/requests-client';
import {
  CARD_LINES_EVENT,
  type CardLinesPayload,
} from '../../agents/bank_transaction_processor/handler';
import {
  DEFAULT_POLICY,
  cardKeyOf,
  decide,
  evidenceOf,
  merchantKey,
} from '../../agents/bank_transaction_processor/classify';
import { ensureUser, seedDefaultChart } from '../../activities/gateway/org-bootstrap';

/**
 * The bank-lines eval: monthly CSVs of card lines with their true ledger code, fed in file
 * order into a fresh org through the real agent and gateway. A simulated reviewer answers each
 * classification request with the true code (`TRANS CAC CODE 1`) and a simulated approver
 * approves the batches that wait in an approval lane. The classifier sees date, VAT code,
 * amount, merchant and card only; the label is used to answer requests and to score.
 */
export const COLUMNS = {
  date: 'TRANS DATE',
  vat: 'TRANS VAT DESC',
  amount: 'ORIGINAL GROSS AMT',
  merchant: 'MERCHANT NAME',
  card: 'CARD NUMBER',
  code: 'TRANS CAC CODE 1',
} as const;
const AGENT = 'bank_transaction_processor';
const FEED = 'card';

export interface MonthLine {
  row: number;
  date: string;
  amountMinor: string;
  merchant: string;
  card: string;
  vat: string;
  code: string;
}
export interface BankLinesItem {
  month: string;
  row: number;
  code: string | null;
  /** auto: the agent's own evidence; hybrid: a thin pattern a model agreed with; human: answered. */
  source: 'auto' | 'hybrid' | 'human' | null;
  /** The true code (for reading the JSON; the grader has its own). */
  expected: string;
}
export interface MonthMetrics {
  month: string;
  lines: number;
  /** Posted without a person (auto and hybrid). */
  autoPosted: number;
  autoCorrect: number;
  /** Of autoPosted, the thin lines posted because a model agreed (0 without a key). */
  hybridPosted: number;
  /**
   * What hybrid mode could add at most, measured without any model: the lines that were thin
   * at import (1..min_card_resolutions-1 people's answers for the merchant on this card, all
   * one account — the lines hybrid sends to the model) and how many of them that single
   * account is right for. A model that agreed every time would post thinLines at a precision
   * of thinCandidateCorrect / thinLines: the agreement gate's worst case.
   */
  thinLines: number;
  thinCandidateCorrect: number;
  precision: number | null;
  automation: number;
  requests: number;
  linesAsked: number;
  humanPosted: number;
  notPosted: number;
  approvals: number;
  seconds: number;
}
export interface BankLinesReport {
  suite: 'bank-lines';
  dataset: string;
  orgId: string;
  months: MonthMetrics[];
  overall: Omit<MonthMetrics, 'month' | 'seconds'> & { seconds: number };
  items: BankLinesItem[];
}

/** One monthly CSV: data rows in order (row = 0-based data row). */
export function readMonth(file: string): MonthLine[] {
  const rows = parse(readFileSync(file), {
    columns: true,
    skip_empty_lines: true,
    bom: true,
  }) as Record<string, string>[];
  return rows.map((r, row) => {
    for (const c of Object.values(COLUMNS))
      if (r[c] === undefined) throw new Error(`${basename(file)}: column "${c}" missing`);
    const amount = decimalToMinor(r[COLUMNS.amount] ?? '', 'GBP', {
      line: row + 2,
      what: COLUMNS.amount,
    });
    return {
      row,
      date: (r[COLUMNS.date] ?? '').slice(0, 10),
      amountMinor: amount,
      merchant: (r[COLUMNS.merchant] ?? '').trim() || 'unknown',
      card: r[COLUMNS.card] ?? '',
      vat: (r[COLUMNS.vat] ?? '').trim(),
      code: (r[COLUMNS.code] ?? '').trim(),
    };
  });
}

export function monthFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith('.csv'))
    .sort()
    .map((f) => join(dir, f));
}

const lineId = (month: string, row: number) => `${month.replace(/[^A-Za-z0-9._-]/g, '_')}.${row}`;
const lineKey = (month: string, row: number) => `${FEED}:${lineId(month, row)}`;

export async function runBankLines(opts: {
  datasetDir: string;
  db: Db;
  client: Client;
  taskQueue: string;
  decisionSecret?: string;
  orgId?: string;
  /** Only the first N lines of each month (the CI short mode). */
  limitPerMonth?: number;
  stallMs?: number;
  onProgress?: (text: string) => void;
}): Promise<BankLinesReport> {
  const { db } = opts;
  const org = opts.orgId ?? `bank-eval-${Date.now().toString(36)}`;
  const files = monthFiles(opts.datasetDir);
  if (files.length === 0) throw new Error(`no .csv files in ${opts.datasetDir}`);
  const months = files.map((f) => {
    const lines = readMonth(f).filter((l) => l.amountMinor !== '0');
    return {
      month: basename(f).replace(/\.csv$/i, ''),
      lines: opts.limitPerMonth ? lines.slice(0, opts.limitPerMonth) : lines,
    };
  });

  // A fresh org: default chart plus the org's ledger codes as expense accounts (its chart of
  // accounts — the classifier never reads it as evidence), an operator for the agent, an
  // owner who answers requests and approves, and a second approver for the high lane.
  const owner = `${org}-owner`;
  const operator = `${org}-clerk`;
  const approver = `${org}-approver`;
  await ensureOrganization(db, { id: org, name: `Bank lines eval ${org}` });
  await seedDefaultChart(db, org);
  for (const [id, role] of [
    [owner, 'owner'],
    [operator, 'analyst'],
    [approver, 'approver'],
  ] as const)
    await ensureUser(db, {
      id,
      email: `${id}@eval.example`,
      displayName: id,
      orgId: org,
      roles: [role],
    });
  const existing = new Set(
    (await db.select({ code: accounts.code }).from(accounts).where(eq(accounts.orgId, org))).map(
      (a) => a.code,
    ),
  );
  const codes = [...new Set(months.flatMap((m) => m.lines.map((l) => l.code)))].filter(
    (c) => c && !existing.has(c),
  );
  await applySystemWrites(
    db,
    codes.map((code) => ({
      orgId: org,
      idempotencyKey: `system:chart:${code}`,
      kind: 'account.create' as const,
      payload: {
        accountId: chartAccountId(org, code),
        code,
        name: `Ledger code ${code}`,
        type: 'expense',
      },
    })),
  );
  await setOrgAgentSettings(db, { orgId: org, operatorUserId: operator });
  await upsertAgentIdentity(db, {
    orgId: org,
    agentId: AGENT,
    operatorUserId: operator,
    allowedWorkflows: ['journal.post_batch'],
    by: owner,
  });

  const events = new EventsClient(opts.client, db, { taskQueue: opts.taskQueue });
  const secret = opts.decisionSecret ? { decisionSecret: opts.decisionSecret } : {};
  const gw = new GatewayClient(opts.client, db, opts.taskQueue, secret);
  const requests = new RequestsClient(opts.client, db, { taskQueue: opts.taskQueue, ...secret });
  const approved = new Set<string>();
  const answered = new Set<string>();
  // The agent's memory as the eval can rebuild it: the codes people posted in earlier months.
  const people: { merchantKey: string; cardKey: string; accountId: string; count: number }[] = [];
  const results: MonthMetrics[] = [];
  const items: BankLinesItem[] = [];

  for (const m of months) {
    const t0 = Date.now();
    const truth = new Map(m.lines.map((l) => [lineKey(m.month, l.row), l.code]));
    const payload: CardLinesPayload = {
      feedId: FEED,
      batchId: m.month,
      currency: 'GBP',
      lines: m.lines.map((l) => ({
        id: lineId(m.month, l.row),
        date: l.date,
        amountMinor: l.amountMinor,
        merchant: l.merchant.slice(0, 300),
        card: l.card || null,
        taxCode: l.vat || null,
      })),
    };
    await events.acceptEvent({ orgId: org, type: CARD_LINES_EVENT, source: 'connector', payload });
    const entryIds = m.lines.map((l) => batchEntryId(org, lineKey(m.month, l.row)));
    let approvals = 0;
    let lastProgress = Date.now();
    let lastPosted = -1;
    let requestsThisMonth = 0;
    for (;;) {
      // The approver: every agent batch waiting in a lane (the high lane needs a second one).
      const waiting = await db
        .select({
          key: gatewaySubmissions.idempotencyKey,
          required: gatewaySubmissions.requiredApprovals,
        })
        .from(gatewaySubmissions)
        .where(
          and(
            eq(gatewaySubmissions.orgId, org),
            eq(gatewaySubmissions.status, 'awaiting_approval'),
          ),
        );
      for (const w of waiting) {
        if (approved.has(w.key)) continue;
        const view = await gw.settle(org, w.key, 30_000).catch(() => null);
        if (view?.status !== 'awaiting_approval') continue;
        approved.add(w.key);
        await gw.approve(org, w.key, owner, 'eval approver');
        approvals += 1;
        if (w.required > 1) await gw.approve(org, w.key, approver, 'eval second approver');
      }
      // The reviewer: each open classification request of the agent, answered with the truth.
      const open = await db
        .select({ id: humanRequests.id, schema: humanRequests.answerSchema })
        .from(humanRequests)
        .where(
          and(
            eq(humanRequests.orgId, org),
            eq(humanRequests.status, 'open'),
            eq(humanRequests.createdByAgentType, AGENT),
            isNull(humanRequests.linkKind),
          ),
        );
      for (const r of open) {
        if (answered.has(r.id)) continue;
        // A line the dataset leaves without a code goes where a person puts what they cannot
        // code: the org's default expense account (scored against the empty label: never right).
        const unknown = (
          await db
            .select({ code: accounts.code })
            .from(accounts)
            .where(and(eq(accounts.orgId, org), eq(accounts.systemRole, 'default_expense')))
        )[0]?.code;
        const fields = (r.schema as { fields: { name: string; items?: { id: string }[] }[] })
          .fields;
        const answer = Object.fromEntries(
          fields.map((f) => [
            f.name,
            Object.fromEntries(
              (f.items ?? []).map((it) => [it.id, truth.get(it.id) || (unknown ?? '')]),
            ),
          ]),
        );
        const ack = await requests.answerRequest({
          requestId: r.id,
          orgId: org,
          answeredBy: owner,
          answer,
        });
        if (ack.status !== 'answered')
          throw new Error(`request ${r.id} not answered: ${ack.reason}`);
        answered.add(r.id);
        requestsThisMonth += 1;
      }
      const posted = await countPosted(db, org, entryIds);
      if (posted === entryIds.length) break;
      if (posted !== lastPosted || waiting.length > 0 || open.length > 0) {
        lastPosted = posted;
        lastProgress = Date.now();
      } else if (Date.now() - lastProgress > (opts.stallMs ?? 180_000)) {
        opts.onProgress?.(
          `${m.month}: no progress for ${(opts.stallMs ?? 180_000) / 1000}s, ${posted}/${entryIds.length} posted`,
        );
        break;
      }
      opts.onProgress?.(`${m.month}: ${posted}/${entryIds.length} posted`);
      await new Promise((r) => setTimeout(r, 200));
    }

    // What was posted, from the books; how, from the agent's memory.
    const postedAccount = await postedAccounts(db, org, entryIds);
    const codeOf = new Map(
      (
        await db
          .select({ id: accounts.id, code: accounts.code })
          .from(accounts)
          .where(eq(accounts.orgId, org))
      ).map((a) => [a.id, a.code]),
    );
    const keys = m.lines.map((l) => lineKey(m.month, l.row));
    const memory = new Map<string, { status: string; requestId: string | null }>();
    for (let i = 0; i < keys.length; i += 1000)
      for (const r of await db
        .select({
          key: bankLineClassifications.lineKey,
          status: bankLineClassifications.status,
          requestId: bankLineClassifications.requestId,
        })
        .from(bankLineClassifications)
        .where(
          and(
            eq(bankLineClassifications.orgId, org),
            inArray(bankLineClassifications.lineKey, keys.slice(i, i + 1000)),
          ),
        ))
        memory.set(r.key, { status: r.status, requestId: r.requestId });
    let autoPosted = 0;
    let autoCorrect = 0;
    let hybridPosted = 0;
    let humanPosted = 0;
    let asked = 0;
    const requestIds = new Set<string>();
    for (const l of m.lines) {
      const key = lineKey(m.month, l.row);
      const acc = postedAccount.get(batchEntryId(org, key));
      const code = acc ? (codeOf.get(acc) ?? null) : null;
      const mem = memory.get(key);
      if (mem?.requestId) {
        asked += 1;
        requestIds.add(mem.requestId);
      }
      const source = !code
        ? null
        : mem?.status === 'auto' || mem?.status === 'hybrid'
          ? mem.status
          : 'human';
      if (source === 'auto' || source === 'hybrid') {
        autoPosted += 1;
        if (source === 'hybrid') hybridPosted += 1;
        if (code === l.code) autoCorrect += 1;
      } else if (source === 'human') humanPosted += 1;
      items.push({ month: m.month, row: l.row, code, source, expected: l.code });
    }
    const metrics: MonthMetrics = {
      month: m.month,
      lines: m.lines.length,
      autoPosted,
      autoCorrect,
      hybridPosted,
      thinLines: 0,
      thinCandidateCorrect: 0,
      precision: autoPosted > 0 ? autoCorrect / autoPosted : null,
      automation: m.lines.length > 0 ? autoPosted / m.lines.length : 0,
      requests: Math.max(requestIds.size, requestsThisMonth),
      linesAsked: asked,
      humanPosted,
      notPosted: m.lines.length - autoPosted - humanPosted,
      approvals,
      seconds: Math.round((Date.now() - t0) / 100) / 10,
    };
    // The lines that were thin at import, replayed with the agent's pure classifier over the
    // rebuilt memory (checked: it reproduces the agent's own automatic postings).
    const evidence = evidenceOf(people);
    let thinLines = 0;
    let thinCandidateCorrect = 0;
    let replayedAuto = 0;
    for (const l of m.lines) {
      const d = decide(
        { merchantKey: merchantKey(l.merchant.slice(0, 300)), cardKey: cardKeyOf(l.card || null) },
        { evidence, rules: [], vendors: new Map(), policy: DEFAULT_POLICY },
      );
      if (d.kind === 'auto') replayedAuto += 1;
      else if (d.thinCandidate !== undefined) {
        thinLines += 1;
        if (d.thinCandidate === l.code) thinCandidateCorrect += 1;
      }
    }
    if (replayedAuto !== autoPosted - hybridPosted)
      opts.onProgress?.(
        `${m.month}: the rebuilt memory gives ${replayedAuto} automatic lines, the agent ${autoPosted - hybridPosted}: thin figures unreliable\n`,
      );
    const monthItems = new Map(items.filter((i) => i.month === m.month).map((i) => [i.row, i]));
    for (const l of m.lines) {
      const it = monthItems.get(l.row);
      if (it?.source === 'human' && it.code)
        people.push({
          merchantKey: merchantKey(l.merchant.slice(0, 300)),
          cardKey: cardKeyOf(l.card || null),
          accountId: it.code,
          count: 1,
        });
    }
    metrics.thinLines = thinLines;
    metrics.thinCandidateCorrect = thinCandidateCorrect;
    results.push(metrics);
    opts.onProgress?.(
      `${m.month}: ${metrics.lines} lines, auto ${autoPosted} (precision ${metrics.precision === null ? 'n/a' : (100 * metrics.precision).toFixed(1) + '%'}), asked ${asked} in ${metrics.requests} request(s)`,
    );
  }
  const sum = (f: (m: MonthMetrics) => number) => results.reduce((n, m) => n + f(m), 0);
  const lines = sum((m) => m.lines);
  const autoPosted = sum((m) => m.autoPosted);
  const autoCorrect = sum((m) => m.autoCorrect);
  return {
    suite: 'bank-lines',
    dataset: opts.datasetDir,
    orgId: org,
    months: results,
    overall: {
      lines,
      autoPosted,
      autoCorrect,
      hybridPosted: sum((m) => m.hybridPosted),
      thinLines: sum((m) => m.thinLines),
      thinCandidateCorrect: sum((m) => m.thinCandidateCorrect),
      precision: autoPosted > 0 ? autoCorrect / autoPosted : null,
      automation: lines > 0 ? autoPosted / lines : 0,
      requests: sum((m) => m.requests),
      linesAsked: sum((m) => m.linesAsked),
      humanPosted: sum((m) => m.humanPosted),
      notPosted: sum((m) => m.notPosted),
      approvals: sum((m) => m.approvals),
      seconds: Math.round(sum((m) => m.seconds) * 10) / 10,
    },
    items,
  };
}

async function countPosted(db: Db, org: string, entryIds: string[]): Promise<number> {
  return (await postedAccounts(db, org, entryIds)).size;
}

/** Entry id → the account that is not the card clearing account (the line's classification). */
async function postedAccounts(
  db: Db,
  org: string,
  entryIds: string[],
): Promise<Map<string, string>> {
  const bank = chartAccountId(org, '1010');
  const out = new Map<string, string>();
  for (let i = 0; i < entryIds.length; i += 1000) {
    const rows = await db
      .select({ entryId: journalLines.entryId, accountId: journalLines.accountId })
      .from(journalLines)
      .where(
        and(
          eq(journalLines.orgId, org),
          inArray(journalLines.entryId, entryIds.slice(i, i + 1000)),
        ),
      );
    for (const r of rows) if (r.accountId !== bank) out.set(r.entryId, r.accountId);
  }
  return out;
}

const pct = (v: number | null) => (v === null ? '    n/a' : `${(100 * v).toFixed(1).padStart(6)}%`);

/** `npm run eval -- bank-lines --dataset DIR [--json FILE] [--limit N]`: its own platform. */
export async function bankLinesMain(argv: string[]): Promise<void> {
  const { parseArgs } = await import('node:util');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname, resolve } = await import('node:path');
  const { connectClient } = await import('../../client/temporal-connection');
  const { DefaultLogger, Runtime } = await import('@temporalio/worker');
  const { loadConfig } = await import('../../config/env');
  const { createWorker } = await import('../../worker');
  const { bringUpBenchPlatform } = await import('../lib/bench-platform');
  const { PROJECT_ROOT } = await import('../lib/temporal-binaries');
  const { values } = parseArgs({
    args: argv,
    options: {
      dataset: { type: 'string' },
      json: { type: 'string' },
      limit: { type: 'string' },
      'temporal-port': { type: 'string' },
      'pg-port': { type: 'string' },
    },
    strict: true,
  });
  if (!values.dataset)
    throw new Error('usage: npm run eval -- bank-lines --dataset DIR [--json FILE] [--limit N]');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  mkdirSync(join(PROJECT_ROOT, '.data'), { recursive: true });
  const stops: (() => Promise<void>)[] = [];
  try {
    // A fresh platform of its own (in-memory dev server, throw-away database): a fresh org
    // on nothing anyone else runs.
    const { database, runCfg } = await bringUpBenchPlatform(
      loadConfig(),
      {
        name: 'bank-lines',
        temporalPort: Number(values['temporal-port'] ?? 17_960),
        embeddedPgPort: Number(values['pg-port'] ?? 25_493),
      },
      stops,
    );
    const taskQueue = 'eval-bank-lines';
    const { worker, connection } = await createWorker({ cfg: runCfg, database, taskQueue });
    const running = worker.run();
    stops.push(async () => {
      worker.shutdown();
      await running;
      await connection.close();
    });
    const client = await connectClient(runCfg, database.db);
    stops.push(() => client.connection.close());
    const report = await runBankLines({
      datasetDir: resolve(values.dataset),
      db: database.db,
      client,
      taskQueue,
      ...(runCfg.DECISION_SIGNING_SECRET ? { decisionSecret: runCfg.DECISION_SIGNING_SECRET } : {}),
      limitPerMonth: values.limit ? Math.max(1, Number(values.limit)) : undefined,
      onProgress: (t) => process.stderr.write(`\r${t.slice(0, 110).padEnd(110)}`),
    });
    process.stderr.write('\n');
    console.log(
      `\n${'month'.padEnd(12)} lines   auto  correct  precision  automation  requests  asked  human  unposted  secs`,
    );
    for (const m of [...report.months, { ...report.overall, month: 'overall' }])
      console.log(
        `${m.month.padEnd(12)}${String(m.lines).padStart(6)}${String(m.autoPosted).padStart(7)}${String(m.autoCorrect).padStart(9)}  ${pct(m.precision)}    ${pct(m.automation)}${String(m.requests).padStart(10)}${String(m.linesAsked).padStart(7)}${String(m.humanPosted).padStart(7)}${String(m.notPosted).padStart(10)}${String(m.seconds).padStart(6)}`,
      );
    console.log(
      '\nthin lines (what hybrid sends to a model; posted only where the model names the same account):',
    );
    for (const m of [...report.months, { ...report.overall, month: 'overall' }])
      console.log(
        `${m.month.padEnd(12)}${String(m.thinLines).padStart(6)} thin, the memory's account right for ${m.thinCandidateCorrect} (${pct(m.thinLines > 0 ? m.thinCandidateCorrect / m.thinLines : null).trim()}); hybrid-posted ${m.hybridPosted}`,
      );
    if (values.json) {
      mkdirSync(dirname(values.json), { recursive: true });
      writeFileSync(values.json, JSON.stringify(report, null, 2));
      console.log(`wrote ${values.json}`);
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  }
}
