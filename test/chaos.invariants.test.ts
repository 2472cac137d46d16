import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import type { Database } from '../db/connection';
import { appendAudit } from '../db/repositories/audit';
import { ensureOrganization } from '../db/repositories/organizations';
import {
  checkScenarioInvariants,
  invariantViolations,
  type SignedDecision,
} from '../scripts/chaos/invariants';
import {
  APPROVER_1,
  APPROVER_2,
  ORG,
  directGateway,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * The checks every fault scenario ends with must be able to fail: each is shown holding on
 * a clean org, then catching the one thing it exists for — a vote nobody signed, a signed
 * decision missing from the log, an edited audit row, an event left pending.
 */
let database: Database;
let owner: PgClient;
let signed: SignedDecision[];

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  owner = new PgClient({ connectionString: database.ownerUrl });
  await owner.connect();
  // The warm-up's votes were cast by the fixture: the decisions "signed" so far.
  signed = (
    await owner.query<{ submission_id: string; approver_user_id: string; decision: string }>(
      'select submission_id, approver_user_id, decision from gateway_plan_votes',
    )
  ).rows.map((r) => ({
    submissionId: r.submission_id,
    approverUserId: r.approver_user_id,
    decision: r.decision as 'approve' | 'reject',
  }));
});
afterAll(async () => {
  await owner?.end();
  await database?.close();
});

async function approvedWrite(approver: string): Promise<string> {
  const g = directGateway(database.db);
  const ev = await g.evaluate(journalPost({ amount: '600000' }));
  expect(ev.risk.requiredApprovals).toBe(1);
  await g.vote(ev.submissionId, approver, 'approve');
  await g.apply(ev.submissionId);
  return ev.submissionId;
}

describe('the invariants a fault scenario ends with', () => {
  it('hold on books written as planned, with every vote signed', async () => {
    const id = await approvedWrite(APPROVER_1);
    signed.push({ submissionId: id, approverUserId: APPROVER_1, decision: 'approve' });
    const inv = await checkScenarioInvariants(database.db, { orgs: [ORG], decisions: signed });
    expect(invariantViolations(inv)).toEqual([]);
    expect(inv.approvalsChecked).toBe(signed.length);
    expect(inv.auditChainsVerified).toBe(1);
  });

  it('catch a vote no signed decision accounts for, and a signed one the log lacks', async () => {
    const forged = await approvedWrite(APPROVER_2);
    const lost: SignedDecision = {
      submissionId: forged,
      approverUserId: APPROVER_1,
      decision: 'approve',
    };
    const inv = await checkScenarioInvariants(database.db, {
      orgs: [ORG],
      decisions: [...signed, lost],
    });
    expect(inv.unmatchedApprovals).toEqual([
      {
        subject: `${forged} by ${APPROVER_2}`,
        detail: 'a approve vote no signed decision accounts for',
      },
      {
        subject: `${forged} by ${APPROVER_1}`,
        detail: 'a signed approve that never reached the log',
      },
    ]);
    signed.push({ submissionId: forged, approverUserId: APPROVER_2, decision: 'approve' });
  });

  it('catch an edited audit row and an event left pending', async () => {
    const org = 'inv-tamper';
    await ensureOrganization(database.db, { id: org, name: org });
    for (let i = 1; i <= 3; i++)
      await appendAudit(database.db, {
        orgId: org,
        subjectType: 'test',
        subjectId: `s-${i}`,
        event: `event-${i}`,
        idempotencyKey: `${org}-${i}`,
        actor: 'test',
        payload: { i },
      });
    expect(
      invariantViolations(await checkScenarioInvariants(database.db, { orgs: [org] })),
    ).toEqual([]);
    await owner.query('begin');
    await owner.query('alter table audit_log disable trigger audit_log_no_update');
    await owner.query(
      `update audit_log set payload = '{"i": 9}' where org_id = $1 and org_seq = 2`,
      [org],
    );
    await owner.query('alter table audit_log enable trigger audit_log_no_update');
    await owner.query('commit');
    await owner.query(
      `insert into events (id, org_id, type, source, payload, dedup_key, workflow_id, state, accepted_at)
       values ('evt-left', $1, 'test.left', 'connector', '{}', 'k', 'wf-left', 'pending', now())`,
      [org],
    );
    // No worker runs here, so the pending event cannot settle: nothing to wait for.
    const inv = await checkScenarioInvariants(database.db, { orgs: [org], eventsSettleMs: 0 });
    expect(inv.auditChainsBroken).toEqual([
      { orgId: org, detail: expect.stringMatching(/^row \d+ \(#2/) },
    ]);
    expect(inv.eventsUnsettled).toBe(1);
    expect(invariantViolations(inv)).toEqual([
      expect.stringMatching(/^audit chain of inv-tamper: /),
      '1 events neither terminal nor waiting',
    ]);
  });
});
