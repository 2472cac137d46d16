import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { createTestDatabase } from './support/database';
import { seedBankAgentOrg } from './bank-transactions.fixtures';
import { ORG } from './support/fixtures';
import { startFakeAnthropic, type FakeAnthropic } from './support/fake-anthropic';
import {
  agentsDirWith,
  eventually,
  startRuntimeWorker,
  type RuntimeWorker,
} from './agent-runs.fixtures';
import { GatewayClient } from '../client/gateway-client';
import { accountId } from '../db/ledger/default-chart';
import { getRunRecord, runsOfEvent, setOrgAgentSettings } from '../db/repositories/agent-runs';
import { recordLines, resolveLines } from '../db/repositories/bank-lines';
import { bankLineClassifications, humanRequests, journalLines } from '../db/schema';
import { batchEntryId } from '../activities/gateway/journal-batch';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import { CARD_LINES_EVENT } from '../agents/bank_transaction_processor/handler';
import { ApplicationFailure } from '@temporalio/common';

/**
 * The bank transaction processor's hybrid mode end to end (dev server, PostgreSQL, the real
 * Anthropic SDK against the local Messages-API server). Thin patterns (1–3 people's answers
 * for this merchant and card, all one account) go to one model call; a line is posted only
 * when the model names the memory's account; disagreement, "unsure", an unreadable reply and
 * a budget stop leave the lines asked (the run waits for a person, never needs_human); no key
 * → no model call at all.
 */
let database: Database;
let rt: RuntimeWorker;
let noKey: RuntimeWorker;
/** A key is configured, but every model call fails (the API down, past its retries). */
let down: RuntimeWorker;
let fake: FakeAnthropic;
let agents: { dir: string; cleanup(): void };
let batch = 0;
const AGENT = 'bank_transaction_processor';
const CARD = '4000 0000 0000 1111';

/** People's earlier answers: n lines of the merchant on card 1111, resolved to the code. */
async function remember(merchant: string, code: string, n: number): Promise<void> {
  const requestId = `hr_seed_${merchant.replace(/\W/g, '_')}`;
  const lines = Array.from({ length: n }, (_, i) => ({
    lineKey: `seed:${merchant.replace(/\W/g, '_')}.${i}`,
    statementRef: 'seed',
    entryDate: '2026-01-15',
    amountMinor: '1000',
    currency: 'GBP',
    merchant,
    merchantKey: merchant.toLowerCase(),
    cardKey: '1111',
    taxCode: null,
    status: 'asked' as const,
    accountId: null,
    requestId,
  }));
  await recordLines(database.db, ORG, 'seed-run', lines);
  await resolveLines(
    database.db,
    ORG,
    requestId,
    lines.map((l) => ({ lineKey: l.lineKey, accountId: accountId(ORG, code) })),
  );
}

/**
 * Imports card lines and waits until the run has asked or finished, approving (as paula) any
 * batch of its waiting in an approval lane (a first posting to an account needs one).
 */
async function importLines(worker: RuntimeWorker, merchants: string[]) {
  const batchId = `b${++batch}`;
  const a = await worker.events.acceptEvent({
    orgId: ORG,
    type: CARD_LINES_EVENT,
    source: 'connector',
    payload: {
      feedId: 'card',
      batchId,
      currency: 'GBP',
      lines: merchants.map((merchant, i) => ({
        id: `${batchId}.${i}`,
        date: '2026-03-02',
        amountMinor: String(1250 + i),
        merchant,
        card: CARD,
      })),
    },
  });
  const gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
  const voted = new Set<string>();
  const run = await eventually(async () => {
    const [r] = await runsOfEvent(database.db, ORG, a.eventId);
    if (r?.state === 'waiting_approval') {
      for (const s of (await getRunRecord(database.db, ORG, r.id))?.submissions ?? []) {
        const key = s.submissionId.slice(gatewayWorkflowId(ORG, '').length);
        if (voted.has(key)) continue;
        const view = await gw.state(ORG, key).catch(() => null);
        if (view?.status !== 'awaiting_approval') continue;
        voted.add(key);
        await gw.approve(ORG, key, 'paula');
      }
      return undefined;
    }
    return r && ['waiting_human', 'completed', 'failed'].includes(r.state) ? r : undefined;
  });
  const keys = merchants.map((_, i) => `card:${batchId}.${i}`);
  const memory = new Map(
    (
      await database.db
        .select()
        .from(bankLineClassifications)
        .where(
          and(
            eq(bankLineClassifications.orgId, ORG),
            inArray(bankLineClassifications.lineKey, keys),
          ),
        )
    ).map((m) => [m.lineKey, m]),
  );
  const posted = new Map(
    (
      await database.db
        .select({ entryId: journalLines.entryId, accountId: journalLines.accountId })
        .from(journalLines)
        .where(
          and(
            eq(journalLines.orgId, ORG),
            inArray(
              journalLines.entryId,
              keys.map((k) => batchEntryId(ORG, k)),
            ),
          ),
        )
    )
      .filter((l) => l.accountId !== accountId(ORG, '1010'))
      .map((l) => [l.entryId, l.accountId]),
  );
  const requestId = (run.output as { data: { requestId: string | null } }).data.requestId;
  const [request] = requestId
    ? await database.db
        .select()
        .from(humanRequests)
        .where(and(eq(humanRequests.orgId, ORG), eq(humanRequests.id, requestId)))
    : [];
  const labels = new Map(
    (
      (request?.answerSchema as { fields: { items: { id: string; label: string }[] }[] })?.fields ??
      []
    )
      .flatMap((f) => f.items)
      .map((it) => [it.id, it.label]),
  );
  return {
    run,
    record: (await getRunRecord(database.db, ORG, run.id))!,
    request,
    /** Per line (in the order given): its memory status, posted code, and request label. */
    lines: keys.map((k) => ({
      status: memory.get(k)?.status,
      posted: posted.get(batchEntryId(ORG, k)),
      label: labels.get(k),
    })),
  };
}

const answer = (answers: { line: number; code: string }[]) => [
  { content: [{ type: 'text', text: JSON.stringify({ answers }) }] },
];

beforeAll(async () => {
  database = await createTestDatabase();
  await seedBankAgentOrg(database.db);
  await remember('PAPER MILL', '6200', 2);
  await remember('RAIL CO', '6500', 1);
  await remember('QUICK PRINT', '6600', 3);
  fake = await startFakeAnthropic();
  agents = agentsDirWith({ [AGENT]: { base: AGENT, config: {} } });
  rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [] },
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
  });
  noKey = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir, anthropic: null },
    events: { retryDelaysMs: [] },
  });
  down = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [] },
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
    activityOverrides: {
      agentCallModel: () => {
        throw ApplicationFailure.nonRetryable('529 overloaded_error', 'ModelApiError');
      },
    },
  });
});
afterAll(async () => {
  await rt?.stop();
  await noKey?.stop();
  await down?.stop();
  await fake?.close();
  await database?.close();
  agents?.cleanup();
});

it('posts a thin line the model agrees on (hybrid) and asks the rest with the suggestion', async () => {
  const before = fake.requests.length;
  fake.replyWith(
    answer([
      { line: 1, code: '6200' },
      { line: 2, code: '6600' },
      { line: 3, code: 'unsure' },
    ]),
  );
  const { run, record, request, lines } = await importLines(rt, [
    'PAPER MILL',
    'RAIL CO',
    'QUICK PRINT',
    'NEW SHOP',
  ]);
  // ONE call, about the three thin lines only — the new merchant is never sent.
  expect(fake.requests.length).toBe(before + 1);
  const sent = fake.requests[before] as {
    model: string;
    max_tokens: number;
    messages: { content: string }[];
  };
  const prompt = sent.messages[0]!.content;
  expect(prompt).toContain('"merchant":"PAPER MILL"');
  expect(prompt).toContain('{"line":3,"date":"2026-03-02","amount":"12.52"');
  expect(prompt).toContain('"6200": "Office supplies"');
  expect(prompt).not.toContain('NEW SHOP');
  // Not the card, not the earlier answers: an independent signal.
  expect(prompt).not.toContain('1111');
  expect(sent.model).toBe('claude-haiku-4-5');
  expect(sent.max_tokens).toBe(64 + 16 * 3);
  expect(record.modelCalls.map((c) => c.status)).toEqual(['recorded']);

  const [agreed, disagreed, unsure, fresh] = lines;
  expect(agreed).toEqual({ status: 'hybrid', posted: accountId(ORG, '6200'), label: undefined });
  expect(disagreed).toMatchObject({ status: 'asked', posted: undefined });
  expect(disagreed!.label).toContain('model suggests 6600, earlier answers 6500');
  expect(unsure).toMatchObject({ status: 'asked', posted: undefined });
  expect(unsure!.label).toContain('model unsure, earlier answers 6600');
  expect(fresh).toMatchObject({ status: 'asked', posted: undefined });
  expect(fresh!.label).not.toContain('model');

  expect(run).toMatchObject({ state: 'waiting_human' });
  expect(run.output).toMatchObject({
    data: {
      autoPosted: 1,
      hybridPosted: 1,
      asked: 3,
      model: { thin: 3, sent: 3, agreed: 1, disagreed: 1, unsure: 1, unavailable: null },
    },
  });
  expect(request?.evidence).toMatchObject({ hybridPosted: 1, model: { agreed: 1 } });
});

it('asks every thin line when the reply is not the JSON form', async () => {
  fake.replyWith([
    { content: [{ type: 'text', text: 'Line 1 looks like office supplies: 6200.' }] },
  ]);
  const { run, lines } = await importLines(rt, ['PAPER MILL', 'RAIL CO']);
  expect(lines.map((l) => [l.status, l.posted])).toEqual([
    ['asked', undefined],
    ['asked', undefined],
  ]);
  expect(lines[0]!.label).not.toContain('model');
  expect(run.state).toBe('waiting_human');
  expect(run.output).toMatchObject({
    data: {
      hybridPosted: 0,
      model: { agreed: 0, unavailable: expect.stringMatching(/^unreadable/) },
    },
  });
});

it('asks the lines, rather than failing the run needs_human, when the budget stops the call before it is made', async () => {
  await setOrgAgentSettings(database.db, {
    orgId: ORG,
    operatorUserId: 'arnold',
    monthlyBudgetMicroUsd: 1n,
  });
  try {
    const before = fake.requests.length;
    fake.replyWith(answer([{ line: 1, code: '6200' }]));
    const { run, record, lines } = await importLines(rt, ['PAPER MILL']);
    expect(fake.requests.length).toBe(before);
    expect(lines[0]).toMatchObject({ status: 'asked', posted: undefined });
    // Waiting for the person answering the request — not failed with needs_human.
    expect(run.state).toBe('waiting_human');
    expect(run.output).toMatchObject({
      data: { model: { unavailable: expect.stringMatching(/^budget: .*monthly limit/) } },
    });
    expect(record.progress.map((p) => p.message)).toContainEqual(
      expect.stringMatching(/^model not consulted: budget/),
    );
  } finally {
    await setOrgAgentSettings(database.db, {
      orgId: ORG,
      operatorUserId: 'arnold',
      monthlyBudgetMicroUsd: null,
    });
  }
});

it('asks the lines, rather than failing the run, when the model call fails', async () => {
  const { run, record, lines } = await importLines(down, ['PAPER MILL']);
  expect(lines[0]).toMatchObject({ status: 'asked', posted: undefined });
  expect(run.state).toBe('waiting_human');
  expect(run.output).toMatchObject({
    data: { model: { unavailable: 'model call failed: 529 overloaded_error' } },
  });
  expect(record.progress.map((p) => p.message)).toContain(
    'model call failed: 529 overloaded_error',
  );
});

it('without a key calls no model and asks the thin lines, as code mode does', async () => {
  const before = fake.requests.length;
  fake.replyWith(answer([{ line: 1, code: '6200' }]));
  const { run, record, request, lines } = await importLines(noKey, ['PAPER MILL', 'NEW SHOP']);
  expect(fake.requests.length).toBe(before);
  expect(record.modelCalls).toHaveLength(0);
  expect(lines.map((l) => [l.status, l.posted])).toEqual([
    ['asked', undefined],
    ['asked', undefined],
  ]);
  expect(lines.every((l) => !l.label!.includes('model'))).toBe(true);
  expect(run.state).toBe('waiting_human');
  expect(run.output).toMatchObject({ data: { autoPosted: 0, hybridPosted: 0, asked: 2 } });
  expect(run.output).not.toHaveProperty('data.model');
  expect(request?.evidence).not.toHaveProperty('model');
  fake.replyWith([]);
});
