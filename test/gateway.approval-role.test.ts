import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import type { Database } from '../db/connection';
import { ApprovalRefusedError, GatewayClient } from '../client/gateway-client';
import { loadConfig } from '../config/env';
import { decisionSecret } from '../activities/identity/decision-secret';
import { signDecisionProof } from '../activities/identity/secrets';
import { approvalUpdate, gatewayWorkflowId } from '../workflows/gateway.contract';
import {
  APPROVER_1,
  ORG,
  acc,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/**
 * Issue 25 item 5 (first half): a member who may not approve cannot put anything into a
 * write's history. The client every decision goes through (API route, CLI, inbox) checks the
 * role before it sends the Update, and the Update's validator checks the role the signed proof
 * claims — so a refused vote, even one sent straight to Temporal, adds no event.
 */
let database: Database;
let worker: TestWorker;
let gw: GatewayClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  for (const [id, role] of [
    ['vic', 'viewer'],
    ['ana', 'analyst'],
  ] as const)
    await ensureUser(database.db, {
      id,
      email: `${id}@acme.example`,
      displayName: id,
      orgId: ORG,
      roles: [role],
    });
  worker = await startTestWorker(database);
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

/** A moderate write (first posting to 6600: one approval) waiting for its approver. */
async function waitingWrite(): Promise<{ key: string; workflowId: string }> {
  const w = journalPost({
    lines: [
      { accountId: acc('6600'), debit: '10' },
      { accountId: acc('1010'), credit: '10' },
    ],
  });
  await gw.submit(w);
  expect((await gw.settle(ORG, w.idempotencyKey)).status).toBe('awaiting_approval');
  return { key: w.idempotencyKey, workflowId: gatewayWorkflowId(ORG, w.idempotencyKey) };
}

async function historyLength(workflowId: string): Promise<number> {
  const h = await worker.client.workflow.getHandle(workflowId).fetchHistory();
  return h.events?.length ?? 0;
}

/**
 * The history's length once the workflow is idle: `settle` answers when the write awaits
 * approval, while the workflow still opens its inbox request, reads its run settings and
 * starts its reminder timer. Idle is that timer started, nothing pending after it (between
 * two activities, on a loaded machine, a quiet history is not yet an idle one).
 */
async function idleHistoryLength(workflowId: string): Promise<number> {
  const handle = worker.client.workflow.getHandle(workflowId);
  for (let i = 0; i < 200; i++) {
    const events = (await handle.fetchHistory()).events ?? [];
    const pending = (await handle.describe()).raw.pendingActivities?.length ?? 0;
    if (pending === 0 && events.at(-1)?.timerStartedEventAttributes) return events.length;
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${workflowId} did not become idle`);
}

describe('approval Updates from members who may not approve', () => {
  it('refuses a viewer and an analyst before the Update: the history does not grow', async () => {
    const { key, workflowId } = await waitingWrite();
    const before = await idleHistoryLength(workflowId);
    for (const userId of ['vic', 'ana']) {
      const err: unknown = await gw.approve(ORG, key, userId).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApprovalRefusedError);
      expect(err).toMatchObject({
        type: 'ApproverNotAuthorized',
        message: `User ${userId} may not approve writes in org ${ORG}`,
      });
    }
    for (let i = 0; i < 20; i++)
      await expect(gw.reject(ORG, key, 'vic', 'flood')).rejects.toMatchObject({
        type: 'ApproverNotAuthorized',
      });
    expect(await historyLength(workflowId)).toBe(before);
    expect((await gw.state(ORG, key)).votes).toEqual([]);
  });

  it('refuses in the validator an Update sent straight to Temporal whose proof claims no approving role', async () => {
    const { key, workflowId } = await waitingWrite();
    const before = await idleHistoryLength(workflowId);
    const handle = worker.client.workflow.getHandle(workflowId);
    const secret = decisionSecret(loadConfig());
    const plan = await gw.currentPlan(ORG, key);
    const claims = {
      purpose: 'approval' as const,
      orgId: ORG,
      subjectId: workflowId,
      userId: 'vic',
      decision: 'approve' as const,
      ...plan,
    };
    for (const proof of [
      signDecisionProof(secret, { ...claims, roles: ['viewer'] }),
      signDecisionProof(secret, claims),
    ]) {
      await expect(
        handle.executeUpdate(approvalUpdate, {
          args: [{ decision: 'approve', approver: { userId: 'vic', orgId: ORG }, ...plan, proof }],
        }),
      ).rejects.toMatchObject({
        cause: {
          type: 'ApproverNotAuthorized',
          message: `User vic may not approve writes in org ${ORG}`,
        },
      });
    }
    // An approving role claimed for someone else does not lend it to vic.
    await expect(
      handle.executeUpdate(approvalUpdate, {
        args: [
          {
            decision: 'approve',
            approver: { userId: 'vic', orgId: ORG },
            ...plan,
            proof: signDecisionProof(secret, {
              ...claims,
              userId: APPROVER_1,
              roles: ['approver'],
            }),
          },
        ],
      }),
    ).rejects.toMatchObject({
      cause: {
        type: 'DecisionProofInvalid',
        message: `Decision proof refused (mismatch): the proof is for userId "${APPROVER_1}", not "vic"`,
      },
    });
    expect(await historyLength(workflowId)).toBe(before);
  });

  it('still takes an approver’s vote and applies the write', async () => {
    const { key } = await waitingWrite();
    await expect(gw.approve(ORG, key, APPROVER_1)).resolves.toMatchObject({
      accepted: true,
      approvals: 1,
      required: 1,
    });
    expect((await gw.result(ORG, key)).outcome).toBe('applied');
  });
});
