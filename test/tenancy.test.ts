import { and, eq } from 'drizzle-orm';
import { createTestDatabase } from './support/database';
import type { Database } from '../db/connection';
import { getResult, recordDecision, recordRequest, storeResult } from '../db/repositories/analysis';
import { auditTrail, verifyAuditChain } from '../db/repositories/audit';
import { DuplicateDocumentIdError, getDocument, storeDocument } from '../db/repositories/documents';
import { getSubmission } from '../db/repositories/gateway';
import { getAccounts, getEntry, periodStatus } from '../db/repositories/ledger';
import { getVendor } from '../db/repositories/master-data';
import { ensureUser } from '../db/repositories/organizations';
import { customers, reviewDecisions } from '../db/schema';
import type { GatewayWriteInput } from '../workflows/gateway.contract';
import {
  APPROVER_1,
  OTHER_ORG,
  ORG,
  OUTSIDER,
  OWNER,
  directGateway,
  journalPost,
  seedGatewayOrgs,
} from './gateway.fixtures';

/**
 * Two orgs using the same ids for every entity: each org sees and changes only its own row,
 * and neither can overwrite the other's.
 */
let database: Database;
const OTHER_APPROVER = 'gabe';
const SAME = 'same-id';

beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
  await ensureUser(database.db, {
    id: OTHER_APPROVER,
    email: 'gabe@globex.example',
    displayName: 'Gabe',
    orgId: OTHER_ORG,
    roles: ['approver'],
  });
});
afterAll(async () => {
  await database?.close();
});

const ORGS = [
  { org: ORG, owner: OWNER, approver: APPROVER_1 },
  { org: OTHER_ORG, owner: OUTSIDER, approver: OTHER_APPROVER },
] as const;

/** Submits the same write (same key) in both orgs, approves it there, applies it. */
async function inBothOrgs(make: (org: string) => Omit<GatewayWriteInput, 'orgId' | 'submitter'>) {
  const g = directGateway(database.db);
  const out: { org: string; submissionId: string; entryIds: string[] }[] = [];
  for (const { org, owner, approver } of ORGS) {
    const ev = await g.evaluate({
      ...make(org),
      orgId: org,
      submitter: { kind: 'user', userId: owner },
    });
    for (let i = 0; i < ev.risk.requiredApprovals; i++)
      await g.vote(ev.submissionId, approver, 'approve');
    const applied = await g.apply(ev.submissionId);
    out.push({ org, submissionId: ev.submissionId, entryIds: applied.entryIds });
  }
  return out;
}

describe('two orgs, identical ids', () => {
  it('analysis requests, results and review decisions are keyed by (org, request id)', async () => {
    for (const { org } of ORGS) {
      await recordRequest(database.db, {
        requestId: SAME,
        orgId: org,
        workflowId: `analysis:${org}:${SAME}`,
        queryType: 'extract_metric',
        request: { org },
      });
      await storeResult(database.db, {
        requestId: SAME,
        orgId: org,
        outcome: org === ORG ? 'delivered' : 'awaiting_review',
        confidence: org === ORG ? 0.95 : 0.55,
        result: { answer: org },
        validation: {},
        decision: null,
      });
    }
    // The second org's upsert did not overwrite the first org's result, and vice versa.
    expect(await getResult(database.db, ORG, SAME)).toMatchObject({
      outcome: 'delivered',
      result: { answer: ORG },
    });
    expect(await getResult(database.db, OTHER_ORG, SAME)).toMatchObject({
      outcome: 'awaiting_review',
      result: { answer: OTHER_ORG },
    });
    for (const { org } of ORGS)
      await recordDecision(database.db, {
        requestId: SAME,
        orgId: org,
        decision: org === ORG ? 'approve' : 'reject',
        reviewerId: `${org}-reviewer`,
        note: null,
        corrections: null,
        decidedAt: new Date(),
      });
    const decisions = await database.db
      .select({ orgId: reviewDecisions.orgId, decision: reviewDecisions.decision })
      .from(reviewDecisions)
      .where(eq(reviewDecisions.requestId, SAME))
      .orderBy(reviewDecisions.orgId);
    expect(decisions).toEqual([
      { orgId: ORG, decision: 'approve' },
      { orgId: OTHER_ORG, decision: 'reject' },
    ]);
    for (const { org } of ORGS)
      expect(
        (await auditTrail(database.db, org, 'analysis_request', SAME)).map((r) => [
          r.event,
          r.actor,
        ]),
      ).toEqual([['review_decision', `user:${org}-reviewer`]]);
  });

  it('the same idempotency key is one submission per org, each posting its own entry', async () => {
    const [a, b] = await inBothOrgs((org) => ({
      ...journalPost({ key: SAME, org, amount: '25' }),
    }));
    expect(a?.submissionId).not.toBe(b?.submissionId);
    for (const r of [a, b]) {
      expect((await getSubmission(database.db, r?.submissionId ?? ''))?.orgId).toBe(r?.org);
      const entry = await getEntry(database.db, r?.org ?? '', r?.entryIds[0] ?? '');
      expect(entry).toMatchObject({ orgId: r?.org, status: 'posted' });
    }
  });

  it('accounts, vendors and customers with the same id live side by side', async () => {
    await inBothOrgs((org) => ({
      idempotencyKey: 'acc-same',
      kind: 'account.create',
      payload: { accountId: SAME, code: '6999', name: `Shared name ${org}`, type: 'expense' },
    }));
    await inBothOrgs((org) => ({
      idempotencyKey: 'ven-same',
      kind: 'vendor.create',
      payload: { vendorId: SAME, name: `Vendor of ${org}` },
    }));
    await inBothOrgs((org) => ({
      idempotencyKey: 'cus-same',
      kind: 'customer.create',
      payload: { customerId: SAME, name: `Customer of ${org}` },
    }));
    for (const { org } of ORGS) {
      expect(await getAccounts(database.db, org, [SAME])).toMatchObject([
        { orgId: org, name: `Shared name ${org}` },
      ]);
      expect(await getVendor(database.db, org, SAME)).toMatchObject({ name: `Vendor of ${org}` });
      expect(
        await database.db
          .select({ name: customers.name })
          .from(customers)
          .where(and(eq(customers.orgId, org), eq(customers.id, SAME))),
      ).toEqual([{ name: `Customer of ${org}` }]);
    }
    // Updating one org's vendor leaves the other's alone.
    const g = directGateway(database.db);
    const ev = await g.evaluate({
      orgId: ORG,
      idempotencyKey: 'ven-same-rename',
      submitter: { kind: 'user', userId: OWNER },
      kind: 'vendor.update',
      payload: { vendorId: SAME, changes: { name: 'Renamed in acme' } },
    });
    for (let i = 0; i < ev.risk.requiredApprovals; i++)
      await g.vote(ev.submissionId, APPROVER_1, 'approve');
    await g.apply(ev.submissionId);
    expect((await getVendor(database.db, ORG, SAME))?.name).toBe('Renamed in acme');
    expect((await getVendor(database.db, OTHER_ORG, SAME))?.name).toBe(`Vendor of ${OTHER_ORG}`);
  });

  it('closing a period in one org leaves the same period open in the other', async () => {
    const g = directGateway(database.db);
    const ev = await g.evaluate({
      orgId: ORG,
      idempotencyKey: 'close-same',
      submitter: { kind: 'user', userId: OWNER },
      kind: 'period.close',
      payload: { period: '2025-02' },
    });
    await g.vote(ev.submissionId, APPROVER_1, 'approve');
    await g.apply(ev.submissionId);
    expect(await periodStatus(database.db, ORG, '2025-02')).toBe('closed');
    expect(await periodStatus(database.db, OTHER_ORG, '2025-02')).toBe('open');
  });

  it('each org has its own audit chain, numbered from 1 and intact', async () => {
    for (const { org } of ORGS) {
      const v = await verifyAuditChain(database.db, org);
      expect(v).toMatchObject({ orgId: org, ok: true, firstBreak: null });
      const first = (
        await auditTrail(database.db, org, 'gateway_submission', `gateway:${org}:system:chart:1000`)
      )[0];
      expect(first?.orgSeq).toBe(1);
      expect(first?.prevHash).toBe('0'.repeat(64));
    }
  });

  it('documents: an id another org uses is refused, never overwritten or shared', async () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    const a = await storeDocument(database.db, {
      id: SAME,
      idIsExplicit: true,
      orgId: ORG,
      title: 'A',
      docType: null,
      mimeType: 'text/plain',
      bytes: bytes('acme only'),
    });
    expect(a.created).toBe(true);
    await expect(
      storeDocument(database.db, {
        id: SAME,
        idIsExplicit: true,
        orgId: OTHER_ORG,
        title: 'B',
        docType: null,
        mimeType: 'text/plain',
        bytes: bytes('globex only'),
      }),
    ).rejects.toBeInstanceOf(DuplicateDocumentIdError);
    expect(await getDocument(database.db, OTHER_ORG, SAME)).toBeUndefined();
    expect((await getDocument(database.db, ORG, SAME))?.title).toBe('A');
  });
});
