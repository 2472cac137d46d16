import type { Database } from '../db/connection';
import { upsertAgentIdentity } from '../db/repositories/credentials';
import { createTestDatabase } from './support/database';
import { ORG, seedOrgs } from './support/fixtures';
import { startFakeAnthropic, type FakeAnthropic } from './support/fake-anthropic';
import {
  agentsDirWith,
  eventually,
  startRuntimeWorker,
  type RuntimeWorker,
} from './agent-runs.fixtures';
import { EventsClient } from '../client/events-client';
import { GatewayClient } from '../client/gateway-client';
import { accountId } from '../db/ledger/default-chart';
import {
  costRollup,
  getRunRecord,
  runsOfEvent,
  setOrgAgentSettings,
} from '../db/repositories/agent-runs';
import { changesByAgentInstance } from '../db/repositories/gateway';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * llm mode through the real Anthropic SDK against the local Messages-API server: tool use,
 * a zero-tool-call "success" failed, a tool outside the allow-list refused, failure patterns,
 * budgets that stop before the call, no key → needs_human, and writes waiting for approval.
 */
let database: Database;
let rt: RuntimeWorker;
let noKey: RuntimeWorker;
let fake: FakeAnthropic;
let agents: { dir: string; cleanup(): void };
let seq = 0;

const BOOKKEEPER = {
  agent_type: 'bookkeeper_test',
  model_tier: 'standard',
  execution_mode: 'llm',
  max_concurrent_runs: 2,
  timeout_minutes: 5,
  allowed_workflows: ['journal.post'],
  allowed_tools: ['master_data_search', 'ap_context', 'submit'],
  trigger_events: ['ledger.test_requested'],
  max_turns: 4,
  max_tokens: 1024,
  budgets: { per_run_usd: '1.00' },
};

const text = (t: string) => ({ type: 'text', text: t });
const use = (name: string, input: unknown) => ({
  type: 'tool_use',
  id: `toolu_${name}_${++seq}`,
  name,
  input,
});

async function runEvent(type = 'ledger.test_requested', client: EventsClient = rt.events) {
  const a = await client.acceptEvent({
    orgId: ORG,
    type,
    source: 'rule',
    payload: { n: ++seq },
  });
  const done = await client.result(a.workflowId);
  const [run] = await runsOfEvent(database.db, ORG, a.eventId);
  return {
    accepted: a,
    event: done,
    run: run!,
    record: (await getRunRecord(database.db, ORG, run!.id))!,
  };
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
  await seedDefaultChart(database.db, ORG);
  await ensureUser(database.db, {
    id: 'paula',
    email: 'paula@acme.example',
    displayName: 'Paula Approver',
    orgId: ORG,
    roles: ['approver'],
  });
  await setOrgAgentSettings(database.db, { orgId: ORG, operatorUserId: 'arnold' });
  // The gateway trusts the stored agent record, never the submission: an admin registers the
  // agent in the org (`npm run cli -- agents register`) with its operator and write kinds.
  await upsertAgentIdentity(database.db, {
    orgId: ORG,
    by: 'test-admin',
    agentId: 'bookkeeper_test',
    operatorUserId: 'arnold',
    allowedWorkflows: ['journal.post'],
  });
  fake = await startFakeAnthropic();
  agents = agentsDirWith({
    bookkeeper_test: { config: BOOKKEEPER, prompt: 'You keep the books through the gateway.' },
    frugal_test: {
      config: {
        ...BOOKKEEPER,
        agent_type: 'frugal_test',
        allowed_workflows: [],
        allowed_tools: ['master_data_search'],
        trigger_events: ['budget.test_requested'],
        budgets: { per_run_usd: '0.01' },
      },
    },
  });
  rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [] },
    env: { ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: fake.url },
  });
  noKey = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir, anthropic: null },
    events: { retryDelaysMs: [] },
  });
});
afterAll(async () => {
  await rt?.stop();
  await noKey?.stop();
  await fake?.close();
  await database?.close();
  agents?.cleanup();
});

describe('an llm-mode agent', () => {
  it('calls its tools through activities, completes, and records tokens and cost per call', async () => {
    const before = fake.requests.length;
    fake.replyWith([
      {
        content: [use('master_data_search', { entity: 'account', query: 'supplies' })],
        stop_reason: 'tool_use',
      },
      { content: [text('Office supplies is account 6200.')] },
    ]);
    const { event, run, record } = await runEvent();
    expect(event.state).toBe('completed');
    expect(run).toMatchObject({ state: 'completed', outcome: 'succeeded' });
    expect(run.output).toMatchObject({ summary: 'Office supplies is account 6200.' });
    // The model saw exactly the allowed tools.
    const req = fake.requests[before] as {
      tools: { name: string }[];
      system: string;
      model: string;
    };
    expect(req.tools.map((t) => t.name).sort()).toEqual([
      'ap_context',
      'master_data_search',
      'submit',
    ]);
    expect(req.system).toBe('You keep the books through the gateway.');
    expect(req.model).toBe('claude-sonnet-4-5');
    // The tool result went back to the model.
    const second = fake.requests[before + 1] as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(second.messages[2])).toContain(accountId(ORG, '6200'));
    // 1,200 input tokens at $3/MTok + 60 output at $15/MTok = $0.0045 a call.
    expect(
      record.modelCalls.map((c) => [c.status, c.inputTokens, c.outputTokens, c.costMicroUsd]),
    ).toEqual([
      ['recorded', 1200, 60, 4500n],
      ['recorded', 1200, 60, 4500n],
    ]);
    const [byRun] = await costRollup(database.db, 'run', { orgId: ORG });
    expect(byRun).toMatchObject({ key: run.id, calls: 2, costMicroUsd: 9000n });
    expect(record.transitions.map((t) => t.state)).toEqual(['pending', 'running', 'completed']);
  });

  it('fails a run that claims success with zero tool calls', async () => {
    fake.replyWith([{ content: [text('All done: I posted every entry.')] }]);
    const { event, run } = await runEvent();
    expect(event.state).toBe('failed');
    expect(run).toMatchObject({
      state: 'failed',
      outcome: 'failed',
      reason: 'claimed success with zero tool calls',
    });
  });

  it('refuses a tool outside the allow-list and tells the model so', async () => {
    const before = fake.requests.length;
    fake.replyWith([
      { content: [use('trial_balance', {})], stop_reason: 'tool_use' },
      { content: [use('master_data_search', { entity: 'vendor' })], stop_reason: 'tool_use' },
      { content: [text('No vendors yet.')] },
    ]);
    const { run, record } = await runEvent();
    expect(run.state).toBe('completed');
    expect(record.progress.map((p) => p.message)).toContain(
      'refused tool trial_balance: not in the allow-list',
    );
    const second = fake.requests[before + 1] as { messages: { content: unknown }[] };
    expect(JSON.stringify(second.messages[2])).toContain(
      'Refused: tool trial_balance is not allowed',
    );
  });

  it('fails a run whose only tool calls were refused', async () => {
    fake.replyWith([
      { content: [use('bash', { command: 'psql -c "update accounts"' })], stop_reason: 'tool_use' },
      { content: [text('Updated the accounts.')] },
    ]);
    const { run } = await runEvent();
    expect(run).toMatchObject({
      state: 'failed',
      reason: 'claimed success with zero successful tool calls (1 refused)',
    });
  });

  it('fails a run whose final answer carries a failure pattern', async () => {
    fake.replyWith([
      { content: [use('master_data_search', { entity: 'tax_code' })], stop_reason: 'tool_use' },
      { content: [text('Could not post: tool not found for VAT returns.')] },
    ]);
    const { run } = await runEvent();
    expect(run.state).toBe('failed');
    expect(run.reason).toBe(`the model's final answer reports a failure ("tool not found")`);
  });

  it('stops at the turn limit', async () => {
    fake.replyWith(
      Array.from({ length: 4 }, () => ({
        content: [use('master_data_search', { entity: 'vendor' })],
        stop_reason: 'tool_use',
      })),
    );
    const { run, record } = await runEvent();
    expect(run).toMatchObject({ state: 'failed', reason: 'turn limit of 4 reached' });
    expect(record.modelCalls).toHaveLength(4);
  });
});

describe('writes through the gateway', () => {
  // The first posting to an account, or an amount from 5,000.00 up, needs one approval.
  const write = (amount: string) => ({
    kind: 'journal.post',
    payload: {
      entryDate: '2025-06-15',
      memo: 'Office supplies',
      lines: [
        { accountId: accountId(ORG, '6200'), currency: 'USD', debit: amount },
        { accountId: accountId(ORG, '1010'), currency: 'USD', credit: amount },
      ],
    },
  });
  const gateway = () => new GatewayClient(rt.client, database.db, rt.taskQueue);
  const keyOf = (submissionId: string) => submissionId.slice(`gateway:${ORG}:`.length);

  async function startWriteRun(amount: string) {
    fake.replyWith([
      { content: [use('submit', write(amount))], stop_reason: 'tool_use' },
      { content: [text('Submitted the entry for approval.')] },
    ]);
    const a = await rt.events.acceptEvent({
      orgId: ORG,
      type: 'ledger.test_requested',
      source: 'rule',
      payload: { n: ++seq },
    });
    const run = await eventually(async () => {
      const [r] = await runsOfEvent(database.db, ORG, a.eventId);
      return r?.state === 'waiting_approval' ? r : undefined;
    });
    const record = (await getRunRecord(database.db, ORG, run.id))!;
    expect(record.submissions).toHaveLength(1);
    return { a, run, submissionId: record.submissions[0]!.submissionId };
  }

  it('waits for approval, and the approver completes the run; run and submission name each other', async () => {
    const { a, run, submissionId } = await startWriteRun('1250');
    await gateway().settle(ORG, keyOf(submissionId));
    await gateway().approve(ORG, keyOf(submissionId), 'paula');
    expect((await rt.events.result(a.workflowId)).state).toBe('completed');
    const record = (await getRunRecord(database.db, ORG, run.id))!;
    expect(record.run).toMatchObject({ state: 'completed', outcome: 'succeeded' });
    expect(record.transitions.map((t) => t.state)).toEqual([
      'pending',
      'running',
      'waiting_approval',
      'completed',
    ]);
    expect(record.submissions.map((s) => [s.submissionId, s.kind, s.outcome])).toEqual([
      [submissionId, 'journal.post', 'applied'],
    ]);
    const changes = await changesByAgentInstance(database.db, run.id, ORG);
    expect(changes.map((c) => c.submissionId)).toEqual([submissionId]);
  });

  it('fails the run when the approver rejects its write', async () => {
    const { a, run, submissionId } = await startWriteRun('700000');
    await gateway().settle(ORG, keyOf(submissionId));
    await gateway().reject(ORG, keyOf(submissionId), 'paula', 'wrong account');
    expect((await rt.events.result(a.workflowId)).state).toBe('failed');
    const record = (await getRunRecord(database.db, ORG, run.id))!;
    expect(record.run).toMatchObject({
      state: 'failed',
      outcome: 'rejected',
      reason: 'write(s) not applied: journal.post rejected',
    });
  });

  it('tells the model when the gateway refuses a write, with the issue path', async () => {
    const before = fake.requests.length;
    fake.replyWith([
      {
        content: [use('submit', { kind: 'vendor.create', payload: { name: 'Acme Paper' } })],
        stop_reason: 'tool_use',
      },
      { content: [text('The gateway refused the vendor.')] },
    ]);
    const { run } = await runEvent();
    const second = fake.requests[before + 1] as { messages: { content: unknown }[] };
    expect(JSON.stringify(second.messages[2])).toContain('WriteNotPermitted');
    expect(run.state).toBe('completed');
  });
});

describe('budgets and keys', () => {
  it('stops a run before a call that could pass its per-run budget, paying nothing', async () => {
    const before = fake.requests.length;
    const { event, run, record } = await runEvent('budget.test_requested');
    expect(fake.requests.length).toBe(before);
    expect(event.state).toBe('failed');
    expect(run.outcome).toBe('needs_human');
    expect(run.reason).toMatch(
      /^budget: this call may cost up to 0\.0\d{3} USD; the run limit is 0\.0100 USD/,
    );
    expect(record.modelCalls).toHaveLength(0);
  });

  it("stops a run before a call that could pass the org's monthly budget", async () => {
    await setOrgAgentSettings(database.db, {
      orgId: ORG,
      operatorUserId: 'arnold',
      monthlyBudgetMicroUsd: 20_000n,
    });
    try {
      const before = fake.requests.length;
      const { run } = await runEvent();
      expect(fake.requests.length).toBe(before);
      expect(run.outcome).toBe('needs_human');
      expect(run.reason).toContain("the org's monthly limit is 0.0200 USD");
    } finally {
      await setOrgAgentSettings(database.db, {
        orgId: ORG,
        operatorUserId: 'arnold',
        monthlyBudgetMicroUsd: null,
      });
    }
  });

  it('hands the work to a person when no API key is configured, without faking the model', async () => {
    const before = fake.requests.length;
    const client = new EventsClient(noKey.client, database.db, {
      taskQueue: noKey.taskQueue,
      retryDelaysMs: [60_000],
    });
    const { event, run } = await runEvent('ledger.test_requested', client);
    expect(fake.requests.length).toBe(before);
    // needs_human is not retried: a key has to be configured first.
    expect(event).toMatchObject({ state: 'failed', attempts: 1 });
    expect(run).toMatchObject({
      state: 'failed',
      outcome: 'needs_human',
      reason: 'no ANTHROPIC_API_KEY is configured: a person must do this work',
    });
  });
});
