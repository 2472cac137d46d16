import type { temporal } from '@temporalio/proto';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import type { Database } from '../db/connection';
import { GatewayClient } from '../client/gateway-client';
import { countEntries } from '../db/repositories/ledger';
import { signDecisionProof } from '../activities/identity/secrets';
import { approvalUpdate, gatewayWorkflowId } from '../workflows/gateway.contract';
import {
  APPROVER_1,
  APPROVER_2,
  CLERK,
  ORG,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * Issue 25 item 5 (second half): a vote refused after its validator (here: a proof whose
 * claims read well but whose signature is forged, refused by the proof check) still adds
 * events to the submission's history. A flood of them used to grow one run's history
 * without bound, towards Temporal's limit, where the run is terminated and the write stuck.
 * Now a waiting run continues as new past the worker's limit, carrying its votes, and the
 * write still applies exactly once.
 */
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
const LIMIT = 100;
let database: Database;
let worker: TestWorker;
let gw: GatewayClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  worker = await startTestWorker(database, undefined, {
    GATEWAY_HISTORY_EVENTS_PER_RUN: String(LIMIT),
  });
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

it('a flood of refused and accepted votes: runs stay bounded, votes carry over, the write applies once', async () => {
  const w = journalPost({ amount: '3000000', submitter: { kind: 'user', userId: CLERK } });
  await gw.submit(w);
  const view = await gw.settle(ORG, w.idempotencyKey);
  expect(view.risk).toMatchObject({ lane: 'high', requiredApprovals: 2 });
  const workflowId = gatewayWorkflowId(ORG, w.idempotencyKey);
  const handle = worker.client.workflow.getHandle(workflowId);
  const firstRunId = (await handle.describe()).runId;
  const entriesBefore = await countEntries(database.db, ORG);
  const plan = { revision: view.revision, planHash: view.planHash ?? '' };

  // Readable claims (so the validator lets them through), a signature that is not ours: the
  // handler's proof check refuses each one, after the Update was accepted into history.
  let forged = 0;
  const forgedVote = async (userId: string) => {
    const n = ++forged;
    const proof = signDecisionProof(`forger-${n}-`.padEnd(40, 'x'), {
      purpose: 'approval',
      orgId: ORG,
      subjectId: workflowId,
      userId,
      decision: 'approve',
      roles: ['admin'],
      ...plan,
    });
    const err = (await handle
      .executeUpdate(approvalUpdate, {
        args: [{ decision: 'approve', approver: { userId, orgId: ORG }, ...plan, proof }],
      })
      .catch((e: unknown) => e)) as { cause?: { type?: string } };
    // Refused by the proof check (in history), or, met between two runs, by the validator.
    expect(['DecisionProofInvalid', 'RunHandover']).toContain(err.cause?.type);
  };
  const flood = async (n: number) => {
    for (let i = 0; i < n; i += 5)
      await Promise.all([1, 2, 3, 4, 5].map((k) => forgedVote(`mallory-${k}`)));
  };
  /** A real approval (the client sends it again itself if it meets a handover). */
  const approve = async (userId: string) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await gw.approve(ORG, w.idempotencyKey, userId);
      } catch (err) {
        if (attempt >= 20 || (err as { type?: string }).type !== 'ApprovalNotOpen') throw err;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  };

  await flood(20);
  await expect(approve(APPROVER_1)).resolves.toMatchObject({ accepted: true, approvals: 1 });
  await flood(20);
  // The first approval survived every hand-over: the second one completes the pair.
  await expect(approve(APPROVER_2)).resolves.toMatchObject({ accepted: true, approvals: 2 });

  const result = await gw.result(ORG, w.idempotencyKey);
  expect(result.outcome).toBe('applied');
  expect(result.votes.map((v) => v.userId)).toEqual([APPROVER_1, APPROVER_2]);
  expect(result.entryIds).toHaveLength(1);
  expect(await countEntries(database.db, ORG)).toBe(entriesBefore + 1);

  // The first run handed over; no run's history grew far past the limit.
  const first = await worker.client.workflow.getHandle(workflowId, firstRunId).describe();
  expect(first.status.name).toBe('CONTINUED_AS_NEW');
  let runId: string | undefined = firstRunId;
  let runs = 0;
  while (runId) {
    const history: { events?: HistoryEvent[] | null } = await worker.client.workflow
      .getHandle(workflowId, runId)
      .fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    runs += 1;
    // The limit plus what the handover lets finish: votes already accepted, the suspension
    // records, the continue-as-new itself — a few events per in-flight vote.
    expect(events.length).toBeLessThan(LIMIT + 60);
    runId =
      events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  expect(runs).toBeGreaterThanOrEqual(3);
});
