import { ensureOrganization } from '../../db/repositories/organizations';
import { accountId } from '../../db/ledger/default-chart';
import { ApprovalRefusedError, GatewayClient } from '../../client/gateway-client';
import type { GatewayWriteInput } from '../../workflows/gateway.contract';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import type { ChaosPlatform } from './harness';
import type { SignedDecision } from './invariants';
import { ensureUser, seedDefaultChart } from '../../activities/gateway/org-bootstrap';

export interface ChaosOrg {
  org: string;
  gw: GatewayClient;
  /** The org's approver (never the submitter). */
  approver: string;
  /** A balanced posting of `cents` (expense against cash), keyed by `key`. */
  write(key: string, cents: number): GatewayWriteInput;
  /**
   * The approver decides `key` through the gateway client (which signs the decision's proof),
   * and the decision is recorded for the approvals invariant — once, even when a fault made
   * the call throw after the vote was taken and it is sent again.
   */
  decide(key: string, decision: 'approve' | 'reject'): Promise<void>;
  /** Every decision made through `decide`. */
  decisions: SignedDecision[];
}

/** Amounts that land in each lane under the default risk settings. */
export const LOW_CENTS = 1500;
export const MODERATE_CENTS = 600_000; // 6,000.00 ≥ the default moderate threshold: one approval

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
  const decisions: SignedDecision[] = [];
  const decide = async (key: string, decision: 'approve' | 'reject') => {
    const submissionId = gatewayWorkflowId(org, key);
    if (!decisions.some((d) => d.submissionId === submissionId))
      decisions.push({ submissionId, approverUserId: approver, decision });
    for (let attempt = 1; ; attempt++) {
      try {
        await gw.decide(org, key, {
          decision,
          approver: { userId: approver, orgId: org },
          ...(await gw.currentPlan(org, key)),
          note: `chaos ${decision}`,
        });
        return;
      } catch (err) {
        // The vote was taken before a fault cut the reply: sent again, it is refused as a
        // second vote, and the first one stands.
        if (
          attempt > 1 &&
          err instanceof ApprovalRefusedError &&
          ['DuplicateApproval', 'ApprovalNotOpen'].includes(err.type)
        )
          return;
        if (attempt >= 30) throw err;
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };
  await gw.submit(write('warm-up', 100));
  await gw.settle(org, 'warm-up');
  await decide('warm-up', 'approve');
  await gw.result(org, 'warm-up');
  return { org, gw, approver, write, decide, decisions };
}
