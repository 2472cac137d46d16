import type { Database } from '../db/connection';
import { createTestDatabase } from './support/database';
import { ORG, OTHER_ORG, seedOrgs } from './support/fixtures';
import { agentsDirWith, startRuntimeWorker, type RuntimeWorker } from './agent-runs.fixtures';
import { setOrgAgentSettings } from '../db/repositories/agent-runs';
import { eventsByState } from '../db/repositories/events';
import { AgentConfigError } from '../activities/agent-runs/agent-files';
import { createWorker } from '../worker';
import { testConfig, workflowBundle } from './support/worker';
import { slotsStateQuery, slotsWorkflowId } from '../workflows/agent-runs/contract';

/**
 * Concurrency caps defer, never drop: a burst for one org completes in full with the org cap
 * never exceeded, and a single-instance agent really runs one at a time. The analysis is
 * replaced at the activity seam by a fake that counts how many run at once.
 */
let database: Database;
const inFlight = new Map<string, number>();
const maxInFlight = new Map<string, number>();

async function countingAnalyze(c: { orgId: string; input: { docIds: string[] } }) {
  const now = (inFlight.get(c.orgId) ?? 0) + 1;
  inFlight.set(c.orgId, now);
  maxInFlight.set(c.orgId, Math.max(maxInFlight.get(c.orgId) ?? 0, now));
  await new Promise((r) => setTimeout(r, 25));
  inFlight.set(c.orgId, (inFlight.get(c.orgId) ?? 1) - 1);
  return { requestId: 'fake', outcome: 'delivered', answer: c.input.docIds[0] ?? null };
}

async function burst(rt: RuntimeWorker, orgId: string, n: number, tag: string) {
  const accepted = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      rt.events.acceptEvent({
        orgId,
        type: 'document.received',
        source: 'connector',
        payload: { documentId: `${tag}-${i}` },
      }),
    ),
  );
  expect(accepted.every((a) => a.status === 'accepted')).toBe(true);
  return Promise.all(accepted.map((a) => rt.events.result(a.workflowId)));
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seedOrgs(database.db);
});
afterAll(async () => {
  await database?.close();
});

it('a bad agent config stops the worker with the file and field named', async () => {
  const bad = agentsDirWith({
    document_analyst: { base: 'document_analyst', config: { max_concurrent_runs: 0 } },
  });
  try {
    const err = await createWorker({
      cfg: testConfig(database),
      database,
      taskQueue: 'never-started',
      workflowBundle: workflowBundle(),
      agentRuntime: { agentsDir: bad.dir },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AgentConfigError);
    expect((err as AgentConfigError).fieldPath).toBe('max_concurrent_runs');
    expect((err as AgentConfigError).file).toMatch(/\/document_analyst\/config\.yaml$/);
  } finally {
    bad.cleanup();
  }
});

// 40 events keep the suite short; the events bench sends 1,000 (npm run bench -- events).
// Four times the org cap: enough to queue most of the burst behind the semaphore (the 1,000-
// event burst is the events bench's).
const BURST = 16;

it(`a burst of ${BURST} events for one org all complete, never above the org cap`, async () => {
  await setOrgAgentSettings(database.db, { orgId: ORG, maxConcurrentRuns: 4 });
  const agents = agentsDirWith({
    document_analyst: { base: 'document_analyst', config: { max_concurrent_runs: 6 } },
  });
  const rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [] },
    activityOverrides: { agentAnalyzeDocument: countingAnalyze as never },
  });
  try {
    const results = await burst(rt, ORG, BURST, 'burst');
    expect(results.filter((r) => r.state === 'completed')).toHaveLength(BURST);
    expect(await eventsByState(database.db, ORG)).toEqual({ completed: BURST });
    // Never above the cap; whether four analyses overlap in time depends on the machine, but
    // the semaphore granting four at once does not.
    expect(maxInFlight.get(ORG)).toBeLessThanOrEqual(4);
    const view = await rt.client.workflow
      .getHandle(slotsWorkflowId(rt.taskQueue, `org:${ORG}`))
      .query(slotsStateQuery);
    expect(view).toMatchObject({ capacity: 4, held: 0, waiting: 0, maxHeld: 4, granted: BURST });
  } finally {
    await rt.stop();
    agents.cleanup();
  }
}, 600_000);

it('a single-instance agent runs one instance at a time', async () => {
  const agents = agentsDirWith({
    document_analyst: { base: 'document_analyst', config: { max_concurrent_runs: 1 } },
  });
  const rt = await startRuntimeWorker(database, {
    agentRuntime: { agentsDir: agents.dir },
    events: { retryDelaysMs: [] },
    activityOverrides: { agentAnalyzeDocument: countingAnalyze as never },
  });
  try {
    const results = await burst(rt, OTHER_ORG, 8, 'single');
    expect(results.every((r) => r.state === 'completed')).toBe(true);
    expect(maxInFlight.get(OTHER_ORG)).toBe(1);
  } finally {
    await rt.stop();
    agents.cleanup();
  }
}, 300_000);
