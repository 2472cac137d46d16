import { and, eq, sql } from 'drizzle-orm';
import { createTestDatabase } from './support/database';
import type { Database } from '../db/connection';
import { getResult, recordDecision, recordRequest, storeResult } from '../db/repositories/analysis';
import { auditTrail, verifyAuditChain } from '../db/repositories/audit';
import {
  DuplicateDocumentIdError,
  discardPages,
  getDocument,
  getDocumentBytes,
  loadPage,
  loadPages,
  searchChunks,
  setDocumentStatus,
  storeDocument,
  storePages,
} from '../db/repositories/documents';
import {
  eventTransitionsOf,
  getEvent,
  insertAcceptedEvent,
  recordEventTransition,
} from '../db/repositories/events';
import {
  appendRunProgress,
  getModelCall,
  getRunRecord,
  insertRun,
  linkRunSubmission,
  recordModelCall,
  recordRunTransition,
  releaseModelCall,
  reserveModelCall,
  runsOfEvent,
} from '../db/repositories/agent-runs';
import { getSubmission } from '../db/repositories/gateway';
import { getAccounts, getEntry, periodStatus } from '../db/repositories/ledger';
import { getVendor } from '../db/repositories/master-data';
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
import { ensureUser } from '../activities/gateway/org-bootstrap';

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

  it('documents, their files, pages and chunks: the same id in each org, each its own', async () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    for (const { org } of ORGS) {
      const r = await storeDocument(database.db, {
        id: SAME,
        idIsExplicit: true,
        orgId: org,
        title: `Title of ${org}`,
        docType: null,
        mimeType: 'text/plain',
        bytes: bytes(`revenue of ${org} only`),
      });
      expect(r).toMatchObject({ created: true, document: { id: SAME, orgId: org } });
      const text = `revenue of ${org} only`;
      await storePages(database.db, org, SAME, [
        { page: 0, text, chunks: [{ chunkIndex: 0, charStart: 0, charEnd: text.length, text }] },
      ]);
      await setDocumentStatus(database.db, org, SAME, { status: 'ready', pageCount: 1 });
    }
    // Within one org the id still names one content: another file under it is refused.
    await expect(
      storeDocument(database.db, {
        id: SAME,
        idIsExplicit: true,
        orgId: ORG,
        title: 'Other',
        docType: null,
        mimeType: 'text/plain',
        bytes: bytes('different content'),
      }),
    ).rejects.toBeInstanceOf(DuplicateDocumentIdError);
    for (const { org } of ORGS) {
      const other = org === ORG ? OTHER_ORG : ORG;
      expect(await getDocument(database.db, org, SAME)).toMatchObject({
        title: `Title of ${org}`,
        status: 'ready',
        pagesDone: 1,
      });
      expect((await getDocumentBytes(database.db, org, SAME))?.toString()).toBe(
        `revenue of ${org} only`,
      );
      expect(await loadPages(database.db, org, SAME)).toEqual([
        { page: 0, text: `revenue of ${org} only` },
      ]);
      expect(await loadPage(database.db, org, SAME, 0)).toBe(`revenue of ${org} only`);
      const hits = await searchChunks(database.db, org, [SAME], 'revenue', 10);
      expect(hits.map((h) => h.quote)).toEqual([`revenue of ${org} only`]);
      expect(await searchChunks(database.db, org, [SAME], other, 10)).toEqual([]);
    }
    // A failed re-ingestion in one org discards only that org's pages.
    await discardPages(database.db, ORG, SAME);
    expect(await loadPages(database.db, ORG, SAME)).toEqual([]);
    expect(await loadPages(database.db, OTHER_ORG, SAME)).toHaveLength(1);
    // A page can only point at a document of its own org (composite foreign key).
    await storeDocument(database.db, {
      id: 'globex-only',
      orgId: OTHER_ORG,
      title: 'G',
      docType: null,
      mimeType: 'text/plain',
      bytes: bytes('globex-only content'),
    });
    await expect(
      database.db.execute(
        sql`insert into document_pages (org_id, document_id, page, text) values (${ORG}, 'globex-only', 0, 'x')`,
      ),
    ).rejects.toMatchObject({ cause: { code: '23503' } });
  });

  it('events and their transitions: the same event id in each org, each its own', async () => {
    const at = new Date('2026-01-01T00:00:00Z');
    for (const { org } of ORGS)
      await insertAcceptedEvent(database.db, {
        id: SAME,
        orgId: org,
        type: 'document.received',
        source: 'connector',
        payload: { from: org },
        dedupKey: `dedup-${org}`,
        workflowId: `event:${org}:${SAME}`,
        causation: null,
        acceptedAt: at,
      });
    await recordEventTransition(database.db, {
      orgId: ORG,
      eventId: SAME,
      seq: 2,
      state: 'processing',
      detail: 'acme only',
      at,
      attempts: 1,
    });
    expect(await getEvent(database.db, ORG, SAME)).toMatchObject({
      payload: { from: ORG },
      state: 'processing',
    });
    expect(await getEvent(database.db, OTHER_ORG, SAME)).toMatchObject({
      payload: { from: OTHER_ORG },
      state: 'pending',
    });
    expect((await eventTransitionsOf(database.db, ORG, SAME)).map((t) => t.state)).toEqual([
      'pending',
      'processing',
    ]);
    expect((await eventTransitionsOf(database.db, OTHER_ORG, SAME)).map((t) => t.state)).toEqual([
      'pending',
    ]);
  });

  it('agent runs, their transitions, progress, submissions and model calls: per org', async () => {
    const at = new Date('2026-01-01T00:00:00Z');
    for (const { org } of ORGS) {
      await insertRun(database.db, {
        id: SAME,
        orgId: org,
        agentType: 'document_analyst',
        eventId: SAME,
        attempt: 1,
        executionMode: 'code',
        trigger: { org },
        createdAt: at,
      });
      await appendRunProgress(database.db, {
        orgId: org,
        runId: SAME,
        seq: 1,
        message: `progress of ${org}`,
        data: null,
        at,
      });
      await linkRunSubmission(database.db, {
        orgId: org,
        runId: SAME,
        submissionId: SAME,
        kind: 'bill.post',
        outcome: org === ORG ? 'applied' : null,
        at,
      });
      expect(
        await reserveModelCall(database.db, {
          id: SAME,
          runId: SAME,
          orgId: org,
          agentType: 'document_analyst',
          month: '2026-01',
          modelTier: 'fast',
          model: 'm',
          reservedMicroUsd: 100n,
          runLimitMicroUsd: 1_000n,
          orgMonthlyLimitMicroUsd: null,
          at,
        }),
      ).toEqual({ ok: true });
    }
    await recordRunTransition(database.db, {
      orgId: ORG,
      runId: SAME,
      seq: 1,
      state: 'completed',
      detail: null,
      at,
      outcome: 'succeeded',
    });
    await recordModelCall(database.db, {
      orgId: ORG,
      id: SAME,
      inputTokens: 10,
      outputTokens: 5,
      cacheCreationTokens: 0,
      cacheReadTokens: 0,
      costMicroUsd: 42n,
      response: { from: ORG },
    });
    await releaseModelCall(database.db, OTHER_ORG, SAME);
    const mine = await getRunRecord(database.db, ORG, SAME);
    const theirs = await getRunRecord(database.db, OTHER_ORG, SAME);
    expect(mine?.run).toMatchObject({ orgId: ORG, state: 'completed', trigger: { org: ORG } });
    expect(theirs?.run).toMatchObject({ orgId: OTHER_ORG, state: 'pending' });
    expect(mine?.transitions.map((t) => t.state)).toEqual(['pending', 'completed']);
    expect(theirs?.transitions.map((t) => t.state)).toEqual(['pending']);
    expect(mine?.progress.map((p) => p.message)).toEqual([`progress of ${ORG}`]);
    expect(theirs?.progress.map((p) => p.message)).toEqual([`progress of ${OTHER_ORG}`]);
    expect(mine?.submissions.map((x) => x.outcome)).toEqual(['applied']);
    expect(theirs?.submissions.map((x) => x.outcome)).toEqual([null]);
    expect(await getModelCall(database.db, ORG, SAME)).toMatchObject({
      status: 'recorded',
      costMicroUsd: 42n,
    });
    expect(await getModelCall(database.db, OTHER_ORG, SAME)).toMatchObject({
      status: 'released',
      costMicroUsd: 0n,
    });
    expect((await runsOfEvent(database.db, OTHER_ORG, SAME)).map((r) => r.orgId)).toEqual([
      OTHER_ORG,
    ]);
  });
});
