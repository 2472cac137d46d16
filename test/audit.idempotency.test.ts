import { Client as PgClient } from 'pg';
import { createTestDatabase } from './support/database';
import type { Database } from '../db/connection';
import { appendAudit, auditTrail, verifyAuditChain } from '../db/repositories/audit';
import { getSubmission } from '../db/repositories/gateway';
import { countEntries } from '../db/repositories/ledger';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import {
  ORG,
  OTHER_ORG,
  directGateway,
  journalPost,
  key,
  seedGatewayOrgs,
  warmAccounts,
} from './gateway.fixtures';

/**
 * Issue 25 item 2: an audit row cannot be suppressed by pre-claiming its idempotency key. Keys
 * are unique per org, so another org's row never stands in for this org's; inside one org a
 * key that already holds a different row makes the audited change fail as a whole, and only an
 * identical retry is a no-op. The runtime role (the app's pool, database.url) may append audit
 * rows, so it is the one that tries.
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

/** As the runtime role: a raw audit row under a chosen key, as an attacker would write it. */
async function preClaim(org: string, idempotencyKey: string): Promise<void> {
  await runtime.query(
    `insert into audit_log (org_id, subject_type, subject_id, event, idempotency_key, actor, payload)
     values ($1, 'decoy', 'decoy', 'decoy', $2, 'system', '{}'::jsonb)`,
    [org, idempotencyKey],
  );
}

describe('audit idempotency keys', () => {
  it("keeps an org's audit row when another org pre-claimed the same key", async () => {
    const write = journalPost({ amount: '12' });
    const submissionId = gatewayWorkflowId(ORG, write.idempotencyKey);
    await preClaim(OTHER_ORG, `${submissionId}:submitted`);
    await preClaim(OTHER_ORG, `${submissionId}:applied`);
    const g = directGateway(database.db);
    await g.evaluate(write);
    await g.apply(submissionId);
    const events = (await auditTrail(database.db, ORG, 'gateway_submission', submissionId)).map(
      (r) => [r.event, r.idempotencyKey],
    );
    expect(events).toEqual([
      ['submitted', `${submissionId}:submitted`],
      ['applied', `${submissionId}:applied`],
    ]);
    expect((await verifyAuditChain(database.db, ORG)).ok).toBe(true);
  });

  it('fails the audited change when its key in the org already holds a different row', async () => {
    const write = journalPost({ amount: '13' });
    const submissionId = gatewayWorkflowId(ORG, write.idempotencyKey);
    await preClaim(ORG, `${submissionId}:applied`);
    const g = directGateway(database.db);
    await g.evaluate(write);
    const entriesBefore = await countEntries(database.db, ORG);
    // A non-retryable failure: retrying cannot make the key free again.
    await expect(g.apply(submissionId)).rejects.toMatchObject({
      name: 'ApplicationFailure',
      type: 'DuplicateEntity',
      nonRetryable: true,
      message: expect.stringContaining('audit_log_org_idempotency_key'),
    });
    // Nothing of the apply committed: no entry, and the submission is failed, not applied.
    expect(await countEntries(database.db, ORG)).toBe(entriesBefore);
    expect((await getSubmission(database.db, submissionId))?.status).toBe('failed');
    const events = (await auditTrail(database.db, ORG, 'gateway_submission', submissionId)).map(
      (r) => r.event,
    );
    expect(events).toEqual(['submitted', 'failed']);
  });

  it('refuses a registration whose "submitted" key is pre-claimed, writing no submission', async () => {
    const write = journalPost({ amount: '14' });
    const submissionId = gatewayWorkflowId(ORG, write.idempotencyKey);
    await preClaim(ORG, `${submissionId}:submitted`);
    await expect(directGateway(database.db).evaluate(write)).rejects.toMatchObject({
      cause: { code: '23505', constraint: 'audit_log_org_idempotency_key' },
    });
    expect(await getSubmission(database.db, submissionId)).toBeUndefined();
  });

  it('treats an identical retry as a no-op and a different row under the key as an error', async () => {
    const row = {
      orgId: ORG,
      subjectType: 'test',
      subjectId: 's-1',
      event: 'checked',
      idempotencyKey: key('audit-retry'),
      actor: 'workflow',
      payload: { n: 1, note: 'same' },
    };
    expect(await appendAudit(database.db, row)).toBe(true);
    expect(await appendAudit(database.db, row)).toBe(false);
    // The same key in another org is that org's own row.
    expect(await appendAudit(database.db, { ...row, orgId: OTHER_ORG })).toBe(true);
    await expect(
      appendAudit(database.db, { ...row, payload: { n: 2, note: 'other' } }),
    ).rejects.toMatchObject({
      cause: { code: '23505', constraint: 'audit_log_org_idempotency_key' },
    });
    // Inside a transaction the conflict aborts everything written before it.
    const kept = key('audit-aborted');
    await expect(
      database.db.transaction(async (tx) => {
        await appendAudit(tx, { ...row, idempotencyKey: kept });
        await appendAudit(tx, { ...row, event: 'other' });
      }),
    ).rejects.toBeDefined();
    expect(await auditTrail(database.db, ORG, 'test', 's-1')).toHaveLength(1);
  });
});
