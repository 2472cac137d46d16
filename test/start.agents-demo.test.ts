import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { useSeededWorker } from './support/seeded-worker';
import { runAgentsDemo } from '../scripts/lib/agents-demo';
import { PROJECT_ROOT } from '../scripts/lib/temporal-binaries';
import { accountId } from '../db/ledger/default-chart';
import { GatewayClient } from '../client/gateway-client';
import { ensureOrganization } from '../db/repositories/organizations';
import { bankLines, billSettlements, bills } from '../db/schema';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/**
 * `npm start`'s agent half on the dev server with PostgreSQL, in code mode, from the committed
 * samples: the statement's bill payment is settled by the reconciliation agent, its other lines
 * reach the bank transaction processor, the e-invoice of an unknown supplier is delegated to
 * master data — each run ends completed or waiting for a person, none failed; a second run on
 * the same data adds no second settlement or bill.
 */
const env = useSeededWorker();
const ORG = 'start-demo';
const people = {
  owner: `${ORG}-owner`,
  clerk: `${ORG}-clerk`,
  approvers: [`${ORG}-ann`, `${ORG}-abe`],
};

beforeAll(async () => {
  const { db } = env.deps();
  await ensureOrganization(db, { id: ORG, name: 'Start Demo' });
  await seedDefaultChart(db, ORG);
  for (const [id, roles] of [
    [people.owner, ['owner']],
    [people.clerk, ['analyst']],
    ...people.approvers.map((a) => [a, ['approver']] as const),
  ] as const)
    await ensureUser(db, {
      id,
      email: `${id}@x.example`,
      displayName: id,
      orgId: ORG,
      roles: [...roles],
    });
  // As in `npm start`, the bank account has history before the statement arrives (the
  // workload's earlier postings): a first posting to it would wait for an approver instead.
  const gw = new GatewayClient(env.deps().client, db, env.deps().taskQueue);
  const key = 'opening-balance';
  await gw.submit({
    orgId: ORG,
    idempotencyKey: key,
    submitter: { kind: 'user', userId: people.owner },
    source: { type: 'manual', id: 'test' },
    kind: 'journal.post',
    payload: {
      entryDate: '2026-10-31',
      memo: 'Opening balance',
      lines: [
        { accountId: accountId(ORG, '1010'), currency: 'EUR', debit: '2500000' },
        { accountId: accountId(ORG, '3000'), currency: 'EUR', credit: '2500000' },
      ],
    },
  });
  const view = await gw.settle(ORG, key);
  if (view.status === 'awaiting_approval')
    for (const a of people.approvers.slice(0, view.risk?.requiredApprovals ?? 0))
      await gw.approve(ORG, key, a);
  expect((await gw.result(ORG, key)).outcome).toBe('applied');
});

it('runs the statement and the e-invoice through the agents: settled, asked, delegated, none failed', async () => {
  const deps = env.deps();
  const samplesDir = join(PROJECT_ROOT, 'samples');
  const first = await runAgentsDemo(deps, { orgId: ORG, people, samplesDir, timeoutMs: 90_000 });
  expect(first.unsettledEvents).toBe(0);
  const byAgent = new Map(first.runs.map((r) => [r.agent, r]));
  expect(
    first.runs.every((r) => ['completed', 'waiting_human', 'waiting_approval'].includes(r.state)),
  ).toBe(true);
  expect(byAgent.get('reconciliation')).toMatchObject({
    state: 'completed',
    detail: expect.stringContaining('1 bill(s) settled'),
  });
  expect(byAgent.get('bank_transaction_processor')?.state).toBe('waiting_human');
  expect(byAgent.get('bill_processor')).toMatchObject({
    state: 'waiting_human',
    detail: expect.stringContaining('1 waiting for a vendor'),
  });
  expect(byAgent.get('master_data')).toMatchObject({
    state: 'waiting_approval',
    detail: 'waiting for approval: vendor.create',
  });
  expect(first.openRequests).toBeGreaterThanOrEqual(1);

  const { db } = deps;
  const [kontor] = await db
    .select()
    .from(bills)
    .where(and(eq(bills.orgId, ORG), eq(bills.billNumber, 'KB-2026-311')));
  expect(kontor!.settledAt).not.toBeNull();
  const lines = await db.select().from(bankLines).where(eq(bankLines.orgId, ORG));
  expect(lines).toHaveLength(4);

  // Again on the same data: the master data is found in the books, nothing is settled twice.
  await runAgentsDemo(deps, { orgId: ORG, people, samplesDir, timeoutMs: 90_000 });
  expect(await db.select().from(bills).where(eq(bills.orgId, ORG))).toHaveLength(1);
  expect(
    await db.select().from(billSettlements).where(eq(billSettlements.orgId, ORG)),
  ).toHaveLength(1);
  expect(await db.select().from(bankLines).where(eq(bankLines.orgId, ORG))).toHaveLength(4);
});
