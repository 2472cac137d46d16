import { ensureOrganization, ensureUser } from '../../db/repositories/organizations';
import { accountId, seedDefaultChart } from '../../db/ledger/default-chart';
import { GatewayClient } from '../../client/gateway-client';
import type { GatewayWriteInput } from '../../workflows/gateway.contract';
import type { ChaosPlatform } from './harness';

export interface ChaosOrg {
  org: string;
  gw: GatewayClient;
  /** A balanced low-risk posting of `cents` (expense against cash), keyed by `key`. */
  write(key: string, cents: number): GatewayWriteInput;
}

/**
 * A fresh org for one scenario: default chart, a clerk who submits and an approver, and the
 * two accounts' first posting approved up front (a first posting waits for one approval), so
 * every write the scenario measures flows in the low lane.
 */
export async function seedChaosOrg(p: ChaosPlatform, tag: string): Promise<ChaosOrg> {
  const org = `chaos-${tag}-${Date.now().toString(36)}`;
  const db = p.database.db;
  await ensureOrganization(db, { id: org, name: `Chaos ${tag}` });
  await seedDefaultChart(db, org);
  const clerk = `${org}-clerk`;
  const approver = `${org}-approver`;
  for (const [id, role] of [
    [clerk, 'analyst'],
    [approver, 'approver'],
  ] as const)
    await ensureUser(db, {
      id,
      email: `${id}@chaos.example`,
      displayName: id,
      orgId: org,
      roles: [role],
    });
  const gw = new GatewayClient(p.client, db, p.taskQueue, {
    decisionSecret: p.cfg.DECISION_SIGNING_SECRET,
  });
  const write = (key: string, cents: number): GatewayWriteInput => ({
    orgId: org,
    idempotencyKey: key,
    submitter: { kind: 'user', userId: clerk },
    kind: 'journal.post',
    payload: {
      entryDate: '2025-06-15',
      memo: `chaos ${key}`,
      lines: [
        { accountId: accountId(org, '6200'), currency: 'USD', debit: String(cents) },
        { accountId: accountId(org, '1010'), currency: 'USD', credit: String(cents) },
      ],
    },
  });
  await gw.submit(write('warm-up', 100));
  await gw.settle(org, 'warm-up');
  await gw.approve(org, 'warm-up', approver, 'warm-up');
  await gw.result(org, 'warm-up');
  return { org, gw, write };
}
