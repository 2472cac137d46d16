import type { Db } from '../db/connection';
import { ensureOrganization } from '../db/repositories/organizations';
import { accountId } from '../db/ledger/default-chart';
import { createGatewayActivities } from '../activities/gateway';
import { upsertAgentIdentity } from '../db/repositories/credentials';
import { gatewayWorkflowId, type GatewayWriteInput } from '../workflows/gateway.contract';
import { ensureUser, seedDefaultChart } from '../activities/gateway/org-bootstrap';

/** Orgs, people and the default chart the gateway tests share. */
export const ORG = 'acme';
export const OTHER_ORG = 'globex';
export const OWNER = 'olga'; // owner: may submit anything and approve
export const CLERK = 'bob'; // analyst: submits bookkeeping writes, cannot approve
export const APPROVER_1 = 'ann';
export const APPROVER_2 = 'abe';
export const APPROVER_3 = 'amy';
export const OPERATOR = 'opal'; // operates the agents; an approver too, which must not help her agents
export const OUTSIDER = 'gus'; // approver in the other org

export const acc = (code: string, org = ORG) => accountId(org, code);

export async function seedGatewayOrgs(db: Db): Promise<void> {
  for (const [id, name] of [
    [ORG, 'Acme Corp'],
    [OTHER_ORG, 'Globex'],
  ] as const) {
    await ensureOrganization(db, { id, name });
    await seedDefaultChart(db, id);
  }
  await ensureUser(db, {
    id: OWNER,
    email: 'olga@acme.example',
    displayName: 'Olga Owner',
    orgId: ORG,
    roles: ['owner'],
  });
  await ensureUser(db, {
    id: CLERK,
    email: 'bob@acme.example',
    displayName: 'Bob Clerk',
    orgId: ORG,
    roles: ['analyst'],
  });
  await ensureUser(db, {
    id: APPROVER_1,
    email: 'ann@acme.example',
    displayName: 'Ann',
    orgId: ORG,
    roles: ['approver'],
  });
  await ensureUser(db, {
    id: APPROVER_2,
    email: 'abe@acme.example',
    displayName: 'Abe',
    orgId: ORG,
    roles: ['approver'],
  });
  await ensureUser(db, {
    id: APPROVER_3,
    email: 'amy@acme.example',
    displayName: 'Amy',
    orgId: ORG,
    roles: ['admin'],
  });
  await ensureUser(db, {
    id: OPERATOR,
    email: 'opal@acme.example',
    displayName: 'Opal Operator',
    orgId: ORG,
    roles: ['approver', 'analyst'],
  });
  await ensureUser(db, {
    id: OUTSIDER,
    email: 'gus@globex.example',
    displayName: 'Gus',
    orgId: OTHER_ORG,
    roles: ['approver', 'owner'],
  });
  // Agents and their permissions are records, operated by Opal; submissions cannot widen them.
  await upsertAgentIdentity(db, {
    orgId: ORG,
    by: 'test-admin',
    agentId: BILL_AGENT,
    operatorUserId: OPERATOR,
    allowedWorkflows: [
      'journal.post',
      'journal.reverse',
      'bill.post',
      'bill.credit',
      'vendor.create',
      'vendor.update',
    ],
  });
  await upsertAgentIdentity(db, {
    orgId: ORG,
    by: 'test-admin',
    agentId: POSTING_AGENT,
    operatorUserId: OPERATOR,
    allowedWorkflows: ['journal.post'],
  });
}

export const BILL_AGENT = 'bill_processor';
export const POSTING_AGENT = 'posting_bot';

let seq = 0;
export const key = (prefix = 'k') => `${prefix}-${Date.now().toString(36)}-${++seq}`;

export function journalPost(
  over: {
    key?: string;
    lines?: { accountId: string; currency?: string; debit?: string; credit?: string }[];
    entryDate?: string;
    submitter?: GatewayWriteInput['submitter'];
    amount?: string;
    org?: string;
  } = {},
): GatewayWriteInput {
  const amount = over.amount ?? '1000';
  return {
    orgId: over.org ?? ORG,
    idempotencyKey: over.key ?? key('jp'),
    submitter: over.submitter ?? { kind: 'user', userId: CLERK },
    source: { type: 'document', id: 'receipt-1' },
    kind: 'journal.post',
    payload: {
      entryDate: over.entryDate ?? '2025-03-15',
      memo: 'office supplies',
      lines: (
        over.lines ?? [
          { accountId: acc('6200', over.org), debit: amount },
          { accountId: acc('1010', over.org), credit: amount },
        ]
      ).map((l) => ({ currency: 'USD', ...l })),
    },
  };
}

/** An agent submitter as an agent run names itself; the gateway checks it against the record. */
export const agent = (
  instanceId: string,
  agentType: string = BILL_AGENT,
  operatorUserId = OPERATOR,
) => ({
  kind: 'agent' as const,
  agentType,
  instanceId,
  operatorUserId,
});

/**
 * The gateway's apply layer without Temporal: the same activity functions the workflow calls
 * (evaluate → register, record votes, apply), for property tests over many sequences.
 */
export function directGateway(db: Db) {
  const a = createGatewayActivities({ db });
  const now = new Date().toISOString();
  return {
    async evaluate(write: GatewayWriteInput) {
      const submissionId = gatewayWorkflowId(write.orgId, write.idempotencyKey);
      const ev = await a.gatewayEvaluate({
        write: write as never,
        submissionId,
        workflowId: submissionId,
        runId: 'direct',
        dueAt: now,
        expiresAt: now,
      });
      return { submissionId, ...ev };
    },
    vote: (submissionId: string, userId: string, decision: 'approve' | 'reject') =>
      a.gatewayRecordVote({
        submissionId,
        vote: {
          userId,
          decision,
          note: decision === 'reject' ? 'no' : null,
          decidedAt: new Date().toISOString(),
        },
      }),
    /** Applies; a plan that changed since approval is an error here (tests of re-routing use gatewayApply). */
    async apply(submissionId: string) {
      const r = await a.gatewayApply({ submissionId });
      if (r.status !== 'applied')
        throw new Error(`${submissionId}: plan changed (revision ${r.revision}), not applied`);
      return r;
    },
    finish: (submissionId: string, status: 'rejected' | 'expired') =>
      a.gatewayFinish({ submissionId, orgId: ORG, status, actor: 'test' }),
  };
}

/** Warms accounts (first postings need an approval) through the apply layer, approved by the owner. */
export async function warmAccounts(
  db: Db,
  codes: string[],
  currency = 'USD',
  org = ORG,
): Promise<void> {
  const g = directGateway(db);
  const lines = codes.flatMap((c) => [
    { accountId: acc(c, org), currency, debit: '1' },
    { accountId: acc('3000', org), currency, credit: '1' },
  ]);
  const write = journalPost({
    lines,
    org,
    submitter: { kind: 'user', userId: CLERK },
    entryDate: '2025-01-02',
  });
  const ev = await g.evaluate(write);
  for (let i = 0; i < ev.risk.requiredApprovals; i++)
    await g.vote(ev.submissionId, [APPROVER_1, APPROVER_2, APPROVER_3][i] as string, 'approve');
  await g.apply(ev.submissionId);
}
