import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import { refused } from './support/refused';
import {
  GatewayConnectionMissing,
  gatewayDbFor,
  openDatabase,
  type Database,
} from '../db/connection';
import { createGatewayActivities } from '../activities/gateway';
import { testConfig } from './support/worker';
import { countEntries } from '../db/repositories/ledger';
import { getSubmission } from '../db/repositories/gateway';
import {
  APPROVER_1,
  CLERK,
  ORG,
  OWNER,
  acc,
  directGateway,
  journalPost,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * Issue 25 item 1, the last gap: the runtime credential (every API, CLI and MCP process holds
 * it) cannot approve a write — not even by a vote row naming a real approver of the org, nor by
 * registering a falsely low-risk submission. Registering submissions, recording votes and
 * applying belong to countersign_gateway, the gateway worker's own role.
 */
let database: Database;
let runtime: PgClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await warmAccounts(database.db, ['6200', '1010']);
  runtime = new PgClient({ connectionString: database.url });
  await runtime.connect();
});
afterAll(async () => {
  await runtime?.end();
  await database?.close();
});

/** A moderate write (a first posting to 6900: one approval), submitted by the owner. */
async function pendingModerate(): Promise<string> {
  const ev = await directGateway(database.db).evaluate(
    journalPost({
      submitter: { kind: 'user', userId: OWNER },
      lines: [
        { accountId: acc('6900'), debit: '50' },
        { accountId: acc('1010'), credit: '50' },
      ],
    }),
  );
  expect(ev.risk.lane).toBe('moderate');
  return ev.submissionId;
}

const denied = (table: string) => ({
  code: '42501',
  message: `permission denied for table ${table}`,
});

describe('the runtime role cannot approve its own writes', () => {
  it('cannot record a vote, even one naming a real approver of the org', async () => {
    const id = await pendingModerate();
    expect(
      await refused(runtime, [
        `insert into gateway_plan_votes (submission_id, revision, plan_hash, approver_user_id, decision, decided_at)
         select submission_id, revision, plan_hash, '${APPROVER_1}', 'approve', now()
           from gateway_plan_revisions where submission_id = '${id}' and revision = 0`,
      ]),
    ).toMatchObject(denied('gateway_plan_votes'));
    expect(await refused(runtime, [`select gateway_begin_apply('${id}')`])).toMatchObject({
      code: '42501',
      message: 'permission denied for function gateway_begin_apply',
    });
    expect((await getSubmission(database.db, id))?.status).toBe('awaiting_approval');
  });

  it('cannot register a low-risk submission or a plan revision of its own', async () => {
    expect(
      await refused(runtime, [
        `insert into gateway_submissions (id, org_id, idempotency_key, workflow_id, run_id, kind, payload, submitter, submitter_kind, submitter_user_id, risk_score, lane, rules_fired, required_approvals, status)
         values ('forged-low', '${ORG}', 'forged-low', 'forged-low', 'forged-low', 'journal.post', '{}', '{}', 'user', '${CLERK}', 0, 'low', '[]', 0, 'approved')`,
      ]),
    ).toMatchObject(denied('gateway_submissions'));
    const id = await pendingModerate();
    expect(
      await refused(runtime, [
        `insert into gateway_plan_revisions (submission_id, revision, plan_hash, lane, required_approvals, risk, plan)
         values ('${id}', 1, 'forged-hash', 'low', 0, '{}', '{}')`,
      ]),
    ).toMatchObject(denied('gateway_plan_revisions'));
    expect(
      await refused(runtime, [
        `update gateway_submissions set status = 'approved' where id = '${id}'`,
      ]),
    ).toMatchObject(denied('gateway_submissions'));
    expect(await getSubmission(database.db, 'forged-low')).toBeUndefined();
  });

  it('cannot call the posting and period functions at all', async () => {
    const before = await countEntries(database.db, ORG);
    for (const call of [
      `select ledger_post_entry('{}'::jsonb, '[]'::jsonb)`,
      `select ledger_post_entries('[]'::jsonb, '[]'::jsonb)`,
      `select ledger_set_period_status('${ORG}', '2025-03', 'closed', 'none')`,
    ])
      expect(await refused(runtime, [call])).toMatchObject({
        code: '42501',
        message: expect.stringMatching(/^permission denied for function ledger_/),
      });
    expect(await countEntries(database.db, ORG)).toBe(before);
  });

  it('cannot write the effects or suspensions the gateway records', async () => {
    const id = await pendingModerate();
    expect(
      await refused(runtime, [
        `insert into gateway_effects (submission_id, entity_type, entity_id, action) values ('${id}', 'account', 'x', 'created')`,
      ]),
    ).toMatchObject(denied('gateway_effects'));
  });
});

describe('the gateway still works through its own role', () => {
  it('evaluates, records a real vote and applies', async () => {
    const id = await pendingModerate();
    const g = directGateway(database.db);
    await g.vote(id, APPROVER_1, 'approve');
    expect((await g.apply(id)).entryIds).toHaveLength(1);
    expect((await getSubmission(database.db, id))?.status).toBe('applied');
  });
});

describe('a process holding only the runtime credential', () => {
  it('cannot open the gateway’s connection, so it cannot serve the gateway domain', async () => {
    // What the API, CLI and MCP get in a deployment: the runtime role's URL, no owner URL.
    const runtimeOnly = await openDatabase(testConfig(database));
    try {
      expect(runtimeOnly.gatewayUrl).toBeUndefined();
      expect(() => gatewayDbFor(runtimeOnly.db)).toThrow(GatewayConnectionMissing);
      expect(() => createGatewayActivities({ db: runtimeOnly.db })).toThrow(
        /holds only the countersign_runtime credential/,
      );
      await expect(openDatabase(testConfig(database), { as: 'gateway' })).rejects.toThrow(
        GatewayConnectionMissing,
      );
    } finally {
      await runtimeOnly.close();
    }
  });
});
