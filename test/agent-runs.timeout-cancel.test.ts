import { randomBytes } from 'node:crypto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
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
import { workflowBundle } from './support/worker';
import { startTimeSkippingEnv } from './support/time-skipping';
import { domainTaskQueue } from '../workflows/task-queue';
import { CsOrg, CsOutcome, CsState } from '../workflows/search-attributes';

/**
 * An agent run's timeout_minutes and cancel paths on the time-skipping server, with the
 * bookkeeping stubbed at the activity seam. The run is an llm-mode run whose model slot is
 * never granted: its work waits inside the workflow, so only the timeout or a cancel ends it.
 */
let testEnv: TestWorkflowEnvironment;
const taskQueue = `agent-timeout-${randomBytes(4).toString('hex')}`;
const transitions: { runId: string; state: string; outcome?: string }[] = [];
let modelCalls = 0;

const activities = {
  async agentRunRecord(): Promise<void> {},
  async agentRunProgress(): Promise<void> {},
  async agentRunTransition(t: { runId: string; state: string; outcome?: string }): Promise<void> {
    transitions.push({ runId: t.runId, state: t.state, outcome: t.outcome });
  },
  /** Grants agent and org slots at once; the model slot (scope llm) never. */
  async agentRequestSlot(r: { scope: string; request: SlotRequest }): Promise<void> {
    if (r.scope === 'llm') return;
    await testEnv.client.workflow
      .getHandle(r.request.holder)
      .signal(slotGrantedSignal, { requestId: r.request.requestId });
  },
  async agentCallModel(): Promise<never> {
    modelCalls += 1;
    throw new Error('no model call may happen in this test');
  },
};

const input = (orgId: string, timeoutMinutes: number): AgentRunInput => ({
  orgId,
  attempt: 1,
  agent: {
    agentType: 'waiter_test',
    modelTier: 'fast',
    executionMode: 'llm',
    maxConcurrentRuns: 1,
    timeoutMinutes,
    allowedTools: [],
    allowedWorkflows: [],
    maxTurns: 2,
    maxTokens: 256,
    perRunBudgetMicroUsd: 1_000_000,
    settings: {},
  },
  trigger: { eventId: 'evt_test', eventType: 'test.waited', source: 'rule', payload: {}, hop: 0 },
  limits: {
    orgMaxConcurrentRuns: 1,
    globalLlmConcurrency: 1,
    llmAvailable: true,
    operatorUserId: null,
  },
  slotDeadlineMs: Date.now() + 7 * 86_400_000,
});

async function withWorker<R>(fn: () => Promise<R>): Promise<R> {
  const worker = await Worker.create({
    connection: testEnv.nativeConnection,
    namespace: testEnv.namespace ?? 'default',
    taskQueue: domainTaskQueue(taskQueue, 'agents'),
    workflowBundle: workflowBundle(),
    activities,
  });
  return worker.runUntil(fn);
}

const start = (id: string, i: AgentRunInput) =>
  testEnv.client.workflow.start(AGENT_RUN_WORKFLOW, {
    workflowId: id,
    taskQueue: domainTaskQueue(taskQueue, 'agents'),
    args: [i],
  });

/** Waits (in skipped time too) until the run's state is the one given. */
async function untilState(id: string, state: string): Promise<void> {
  const handle = testEnv.client.workflow.getHandle(id);
  for (let i = 0; i < 200; i++) {
    const view = await handle.query(agentRunStateQuery).catch(() => null);
    if (view?.state === state) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${id} never reached ${state}`);
}

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  testEnv = await startTimeSkippingEnv([CsOrg, CsState, CsOutcome, CsAgentType]);
}, 120_000);

afterAll(async () => {
  await testEnv?.teardown();
});

describe('agent run timeout and cancel (time-skipping server)', () => {
  it('ends a run still working at timeout_minutes as timeout (retryable), without a model call', async () => {
    const id = `run-timeout-${randomBytes(3).toString('hex')}`;
    const r = (await withWorker(async () => {
      const h = await start(id, input('acme', 30));
      return h.result();
    })) as AgentRunResult;
    expect(r).toMatchObject({
      state: 'timeout',
      outcome: 'timeout',
      reason: 'no result within 30 minute(s)',
      retryable: true,
    });
    expect(transitions.filter((t) => t.runId === id).map((t) => t.state)).toEqual([
      'running',
      'timeout',
    ]);
    expect(modelCalls).toBe(0);
  });

  it('ends a running run cancelled by an operator as cancelled, not retried', async () => {
    const id = `run-cancel-${randomBytes(3).toString('hex')}`;
    const r = (await withWorker(async () => {
      const h = await start(id, input('acme', 30));
      await untilState(id, 'running');
      await h.cancel();
      return h.result();
    })) as AgentRunResult;
    expect(r).toMatchObject({
      state: 'cancelled',
      outcome: 'cancelled',
      reason: 'cancelled by an operator',
      retryable: false,
    });
    expect(transitions.filter((t) => t.runId === id).map((t) => t.state)).toEqual([
      'running',
      'cancelled',
    ]);
  });
});
