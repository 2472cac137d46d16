import { randomBytes } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import {
  AGENT_RUN_WORKFLOW,
  CsAgentType,
  agentRunStateQuery,
  slotGrantedSignal,
  type AgentRunInput,
  type AgentRunResult,
  type SlotRequest,
} from '../workflows/agent-runs/contract';
import type { CreateRequestInput } from '../workflows/requests/contract';
import type { BillExtraction } from '../workflows/bills/extraction';
import { workflowBundle } from './support/worker';
import { startTimeSkippingEnv } from './support/time-skipping';
import { domainTaskQueue } from '../workflows/task-queue';
import { CsOrg, CsOutcome, CsState } from '../workflows/search-attributes';

/**
 * A run triggered by a request's callback gets one chance (SPEC B, loop defences): the real
 * bill processor handler in an agent run on the time-skipping server, every side effect
 * stubbed at the activity seam. The same bill from an unknown vendor is delegated to master
 * data on a normal trigger, but on a callback trigger the runtime refuses the delegation and
 * the handler asks a person instead; and a callback run that fails is never retried, while
 * the same failure on a normal trigger is.
 */
let testEnv: TestWorkflowEnvironment;
const taskQueue = `agent-callback-${randomBytes(4).toString('hex')}`;
const created: CreateRequestInput[] = [];
let readFails = false;

const EXTRACTION: BillExtraction = {
  outcome: 'ready',
  reasons: [],
  issuer: 'Quillmark Stationers Ltd',
  invoiceNumber: 'QS-1042',
  issueDate: '2031-02-03',
  dueDate: '2031-03-05',
  currency: 'GBP',
  amount: '120.00',
  amountUntaxed: '100.00',
  amountTax: '20.00',
  minor: { gross: '12000', net: '10000', tax: '2000' },
  taxRatePercent: '20',
  lines: [{ description: 'Paper', amount: '100.00' }],
  linesBasis: 'net',
  checks: [],
  candidates: { invoiceNumber: ['QS-1042'], gross: ['120.00'], issueDate: [], currency: ['GBP'] },
  contacts: { emails: [], taxIds: [] },
  language: 'en',
};

const activities = {
  async agentRunRecord(): Promise<void> {},
  async agentRunProgress(): Promise<void> {},
  async agentRunTransition(): Promise<void> {},
  async agentRequestSlot(r: { scope: string; request: SlotRequest }): Promise<void> {
    await testEnv.client.workflow
      .getHandle(r.request.holder)
      .signal(slotGrantedSignal, { requestId: r.request.requestId });
  },
  async agentReleaseSlot(): Promise<void> {},
  async agentReadTool(c: { name: string; input: { documentId?: string } }): Promise<unknown> {
    if (readFails) throw ApplicationFailure.nonRetryable('document store unavailable', 'TestFault');
    if (c.name === 'bill_read') return { documentId: c.input.documentId, ...EXTRACTION };
    if (c.name === 'master_data_search') return { entity: 'vendor', rows: [] };
    throw new Error(`unexpected tool ${c.name}`);
  },
  async requestCreate(c: { input: CreateRequestInput }) {
    created.push(c.input);
    return {
      requestId: `hr_${created.length}`,
      workflowId: `request:${c.input.orgId}:hr_${created.length}`,
      deduplicated: false,
    };
  },
};

const input = (payload: Record<string, unknown>): AgentRunInput => ({
  orgId: 'acme',
  attempt: 1,
  agent: {
    agentType: 'bill_processor',
    modelTier: 'fast',
    executionMode: 'code',
    maxConcurrentRuns: 1,
    timeoutMinutes: 30,
    allowedTools: ['bill_read', 'master_data_search', 'ap_context', 'submit', 'emit_event'],
    allowedWorkflows: ['bill.post'],
    maxTurns: 2,
    maxTokens: 256,
    perRunBudgetMicroUsd: 1_000_000,
    settings: { tax_line_description: 'Input tax' },
  },
  trigger: {
    eventId: `evt_${randomBytes(3).toString('hex')}`,
    eventType: 'bill.received',
    source: 'rule',
    payload,
    hop: 0,
  },
  limits: {
    orgMaxConcurrentRuns: 1,
    globalLlmConcurrency: 1,
    llmAvailable: false,
    operatorUserId: null,
  },
  slotDeadlineMs: Date.now() + 7 * 86_400_000,
});

let workers: Worker[] = [];
let running: Promise<unknown>;
// The run lives on the agents domain's queue; the requests it creates go to the requests'.
const agentsQueue = domainTaskQueue(taskQueue, 'agents');

/**
 * Starts a run and reads its result from the run's own query: on the time-skipping server the
 * result long-poll of a run that completes within milliseconds did not always return.
 */
async function run(payload: Record<string, unknown>): Promise<AgentRunResult> {
  const h = await testEnv.client.workflow.start(AGENT_RUN_WORKFLOW, {
    workflowId: `run-${randomBytes(4).toString('hex')}`,
    taskQueue: agentsQueue,
    args: [input(payload)],
  });
  for (let i = 0; i < 600; i++) {
    const view = await h.query(agentRunStateQuery).catch(() => null);
    if (view?.result) return view.result;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${h.workflowId} has no result`);
}

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  testEnv = await startTimeSkippingEnv([CsOrg, CsState, CsOutcome, CsAgentType]);
  // One worker per queue for every run of the file.
  workers = await Promise.all(
    [agentsQueue, domainTaskQueue(taskQueue, 'requests')].map((q) =>
      Worker.create({
        connection: testEnv.nativeConnection,
        namespace: testEnv.namespace ?? 'default',
        taskQueue: q,
        workflowBundle: workflowBundle(),
        activities,
      }),
    ),
  );
  running = Promise.all(workers.map((w) => w.run()));
}, 120_000);

afterAll(async () => {
  for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  await running;
  await testEnv?.teardown();
});

beforeEach(() => {
  created.length = 0;
  readFails = false;
});

describe('a callback-triggered run gets one chance', () => {
  it('delegates an unknown vendor on a normal trigger', async () => {
    const r = await run({ documentId: 'doc-1' });
    expect(r.state).toBe('waiting_human');
    expect(created.map((c) => [c.type, c.delegateAgentType])).toEqual([
      ['delegation', 'master_data'],
    ]);
  });

  it('never re-delegates from a callback run: the runtime refuses, a person is asked', async () => {
    const r = await run({ documentId: 'doc-1', requestCallback: true });
    expect(r.state).toBe('waiting_human');
    expect(created.map((c) => c.type)).toEqual(['review']);
    expect(created[0]!.question).toMatch(/delegation refused: .*loop breaker/);
  });

  it('is not retried when it fails; the same failure on a normal trigger is', async () => {
    readFails = true;
    const normal = await run({ documentId: 'doc-2' });
    const callback = await run({ documentId: 'doc-2', requestCallback: true });
    expect(normal).toMatchObject({ state: 'failed' });
    expect(callback).toMatchObject({ state: 'failed', retryable: false });
    expect(normal.retryable).toBe(true);
  });
});
