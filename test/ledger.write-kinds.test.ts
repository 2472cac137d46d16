import { and, eq } from 'drizzle-orm';
import { createTestDatabase } from './support/database';
import { startTestWorker, type TestWorker } from './support/worker';
import type { Database } from '../db/connection';
import { GatewayClient, WriteRefusedError } from '../client/gateway-client';
import { auditTrail } from '../db/repositories/audit';
import { getRiskSettings } from '../db/repositories/gateway';
import { getAccounts } from '../db/repositories/ledger';
import { rolesInOrg } from '../db/repositories/organizations';
import { auditLog, gatewaySubmissions } from '../db/schema';
import { DEFAULT_CHART, DEFAULT_PAYMENT_TERMS } from '../db/ledger/default-chart';
import type { GatewayWriteInput } from '../workflows/gateway.contract';
import {
  APPROVER_1,
  APPROVER_2,
  APPROVER_3,
  CLERK,
  ORG,
  OWNER,
  acc,
  key,
  seedGatewayOrgs,
} from './gateway.fixtures';
import { ensureUser } from '../activities/gateway/org-bootstrap';

/**
 * The chart of accounts, role grants and risk settings change only through the gateway: each
 * is a write kind that is risk-scored (grants and settings at least moderate), approved,
 * applied and audited like any posting — end to end on the dev server.
 */
let database: Database;
let worker: TestWorker;
let gw: GatewayClient;

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await ensureUser(database.db, {
    id: 'nina',
    email: 'nina@acme.example',
    displayName: 'Nina New',
    orgId: ORG,
    roles: [],
  });
  worker = await startTestWorker(database);
  gw = new GatewayClient(worker.client, database.db, worker.taskQueue);
});
afterAll(async () => {
  await worker?.stop();
  await database?.close();
});

const write = (kind: string, payload: unknown, userId = OWNER): GatewayWriteInput => ({
  orgId: ORG,
  idempotencyKey: key(kind.replace('.', '-')),
  submitter: { kind: 'user', userId },
  source: { type: 'manual', id: 'settings-page' },
  kind,
  payload,
});

/** Submits, checks the lane and rules, collects the approvals, returns the applied result. */
async function throughGateway(
  w: GatewayWriteInput,
  lane: 'moderate' | 'high',
  rules: string[],
  approvers: string[],
) {
  await gw.submit(w);
  const view = await gw.settle(ORG, w.idempotencyKey);
  expect(view.status).toBe('awaiting_approval');
  expect(view.risk?.lane).toBe(lane);
  expect(view.risk?.rules.map((r) => r.rule)).toEqual(rules);
  for (const a of approvers) await gw.approve(ORG, w.idempotencyKey, a);
  const r = await gw.result(ORG, w.idempotencyKey);
  expect(r.outcome).toBe('applied');
  const trail = await auditTrail(database.db, ORG, 'gateway_submission', r.submissionId);
  expect(trail.map((t) => t.event)).toEqual([
    'submitted',
    ...approvers.map(() => 'vote'),
    'applied',
  ]);
  return r;
}

describe('chart, grants and risk settings through the gateway', () => {
  it('the default chart and first grants were seeded by the system identity, audited', async () => {
    const seeded = await database.db
      .select({ kind: gatewaySubmissions.kind, status: gatewaySubmissions.status })
      .from(gatewaySubmissions)
      .where(
        and(eq(gatewaySubmissions.orgId, ORG), eq(gatewaySubmissions.submitterKind, 'system')),
      );
    expect(seeded.filter((s) => s.kind === 'account.create')).toHaveLength(DEFAULT_CHART.length);
    expect(seeded.filter((s) => s.kind === 'payment_terms.create')).toHaveLength(
      DEFAULT_PAYMENT_TERMS.length,
    );
    expect(seeded.some((s) => s.kind === 'membership.grant')).toBe(true);
    expect(seeded.every((s) => s.status === 'applied')).toBe(true);
    const systemRows = await database.db
      .select({ event: auditLog.event })
      .from(auditLog)
      .where(and(eq(auditLog.orgId, ORG), eq(auditLog.actor, 'system')));
    expect(systemRows.length).toBe(seeded.length);
    // Seeding again applies nothing twice.
    await seedGatewayOrgs(database.db);
    const again = await database.db
      .select({ id: gatewaySubmissions.id })
      .from(gatewaySubmissions)
      .where(
        and(eq(gatewaySubmissions.orgId, ORG), eq(gatewaySubmissions.submitterKind, 'system')),
      );
    expect(again).toHaveLength(seeded.length);
  });

  it('account.create: moderate, one approval, the account exists afterwards', async () => {
    const w = write('account.create', {
      accountId: acc('6950'),
      code: '6950',
      name: 'Training',
      type: 'expense',
    });
    const r = await throughGateway(w, 'moderate', ['chart_of_accounts_change'], [APPROVER_1]);
    expect(r.effects).toEqual([
      { entityType: 'account', entityId: acc('6950'), action: 'created' },
    ]);
    expect(await getAccounts(database.db, ORG, [acc('6950')])).toMatchObject([
      { code: '6950', name: 'Training', type: 'expense', active: true, systemRole: null },
    ]);
  });

  it('account.create refuses a code the org already has, naming the field', async () => {
    const w = write('account.create', { code: '6200', name: 'Again', type: 'expense' });
    await gw.submit(w);
    const err = await gw.result(ORG, w.idempotencyKey).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WriteRefusedError);
    expect(err).toMatchObject({
      type: 'DuplicateEntity',
      issues: [{ path: 'payload.code', message: `already used by account ${acc('6200')}` }],
    });
  });

  it('account.update: a rename is moderate; moving a system role is high (two approvals)', async () => {
    await throughGateway(
      write('account.update', { accountId: acc('6950'), changes: { name: 'Staff training' } }),
      'moderate',
      ['chart_of_accounts_change'],
      [APPROVER_1],
    );
    await throughGateway(
      write('account.update', {
        accountId: acc('6950'),
        changes: { systemRole: 'training_expense' },
      }),
      'high',
      ['system_account_remapped'],
      [APPROVER_1, APPROVER_2],
    );
    expect(await getAccounts(database.db, ORG, [acc('6950')])).toMatchObject([
      { name: 'Staff training', systemRole: 'training_expense' },
    ]);
  });

  it('membership.grant: moderate for a reviewer role, high for admin; audited as a grant', async () => {
    const r = await throughGateway(
      write('membership.grant', { userId: 'nina', role: 'reviewer' }),
      'moderate',
      ['role_grant'],
      [APPROVER_1],
    );
    expect(r.effects).toEqual([
      { entityType: 'membership', entityId: 'nina:reviewer', action: 'granted' },
    ]);
    await throughGateway(
      write('membership.grant', { userId: 'nina', role: 'admin' }),
      'high',
      ['privileged_role_grant'],
      [APPROVER_1, APPROVER_2],
    );
    expect((await rolesInOrg(database.db, ORG, 'nina')).sort()).toEqual(['admin', 'reviewer']);
    const grants = await auditTrail(database.db, ORG, 'membership', 'nina');
    expect(grants.map((g) => [g.event, (g.payload as { role: string }).role])).toEqual([
      ['granted', 'reviewer'],
      ['granted', 'admin'],
    ]);
  });

  it('membership.revoke: moderate; the role is gone and the revocation audited', async () => {
    await throughGateway(
      write('membership.revoke', {
        userId: 'nina',
        role: 'admin',
        reason: 'temporary cover ended',
      }),
      'moderate',
      ['role_revoke'],
      [APPROVER_1],
    );
    expect(await rolesInOrg(database.db, ORG, 'nina')).toEqual(['reviewer']);
    const trail = await auditTrail(database.db, ORG, 'membership', 'nina');
    expect(trail.at(-1)).toMatchObject({ event: 'revoked', payload: { role: 'admin' } });
  });

  it('a clerk may not grant roles: refused before anything is written', async () => {
    const w = write('membership.grant', { userId: CLERK, role: 'owner' }, CLERK);
    await gw.submit(w);
    const err = await gw.result(ORG, w.idempotencyKey).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'WriteNotPermitted' });
    expect(await rolesInOrg(database.db, ORG, CLERK)).toEqual(['analyst']);
  });

  it('risk_settings.update: tightening is moderate, loosening is high; both audited with before/after', async () => {
    await throughGateway(
      write('risk_settings.update', {
        moderateAmountMinor: '100000',
        highAmountMinor: '1000000',
        highLaneApprovals: 3,
      }),
      'moderate',
      ['risk_settings_change'],
      [APPROVER_1],
    );
    expect(await getRiskSettings(database.db, ORG)).toEqual({
      moderateAmountMinor: '100000',
      highAmountMinor: '1000000',
      highLaneApprovals: 3,
    });
    // Loosening needs the high lane, which now takes three approvers.
    await throughGateway(
      write('risk_settings.update', {
        moderateAmountMinor: '500000',
        highAmountMinor: '2500000',
        highLaneApprovals: 2,
      }),
      'high',
      ['risk_settings_loosened'],
      [APPROVER_1, APPROVER_2, APPROVER_3],
    );
    const changes = await auditTrail(database.db, ORG, 'risk_settings', ORG);
    expect(changes.map((c) => c.payload)).toMatchObject([
      {
        before: null,
        after: { moderateAmountMinor: '100000', highAmountMinor: '1000000', highLaneApprovals: 3 },
      },
      {
        before: { moderateAmountMinor: '100000', highAmountMinor: '1000000', highLaneApprovals: 3 },
        after: { moderateAmountMinor: '500000', highAmountMinor: '2500000', highLaneApprovals: 2 },
      },
    ]);
  });

  it('risk_settings.update refuses a high threshold below the moderate one, by issue path', async () => {
    const w = write('risk_settings.update', {
      moderateAmountMinor: '500000',
      highAmountMinor: '100',
      highLaneApprovals: 2,
    });
    await expect(gw.submit(w)).rejects.toMatchObject({
      issues: [
        {
          path: 'payload.highAmountMinor',
          message: 'the high threshold is at least the moderate one',
        },
      ],
    });
  });
});
