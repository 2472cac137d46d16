import { and, eq, inArray } from 'drizzle-orm';
import type { Database } from '../db/connection';
import { createTestDatabase } from './support/database';
import { seedBankAgentOrg } from './bank-transactions.fixtures';
import { ORG } from './support/fixtures';
import {
  agentsDirWith,
  eventually,
  startRuntimeWorker,
  type RuntimeWorker,
} from './agent-runs.fixtures';
import { GatewayClient } from '../client/gateway-client';
import { accountId } from '../db/ledger/default-chart';
import { getRunRecord, runsOfEvent } from '../db/repositories/agent-runs';
import { applySystemWrites } from '../activities/gateway/system';
import { bankLineClassifications, journalLines } from '../db/schema';
import { batchEntryId } from '../activities/gateway/journal-batch';
import { gatewayWorkflowId } from '../workflows/gateway.contract';
import { CARD_LINES_EVENT } from '../agents/bank_transaction_processor/handler';
import { resolveTax, taxOfGross, type OrgTaxCode } from '../agents/bank_transaction_processor/tax';

/**
 * Tax codes on bank and card lines. The org maps the feed's VAT descriptors to its own tax
 * codes; a mapped line's gross splits into net and the tax a VAT-inclusive amount holds, the
 * tax on the code's account; an unmapped descriptor posts the gross as before; a descriptor
 * whose code is not in effect on the line's date is asked, never split on a guess.
 */
const CODES: OrgTaxCode[] = [
  {
    id: 't-std',
    code: 'VAT20-IN',
    rateBasisPoints: 2000,
    effectiveFrom: '2020-01-01',
    effectiveTo: null,
    accountId: 'acc-1400',
  },
  {
    id: 't-old',
    code: 'VAT15-IN',
    rateBasisPoints: 1500,
    effectiveFrom: '2009-01-01',
    effectiveTo: '2010-01-01',
    accountId: 'acc-1400',
  },
  {
    id: 't-zero',
    code: 'VAT0-IN',
    rateBasisPoints: 0,
    effectiveFrom: '2020-01-01',
    effectiveTo: null,
    accountId: 'acc-1400',
  },
];
const MAP = { VR: 'VAT20-IN', vo: 'VAT15-IN', VZ: 'VAT0-IN' };

describe('tax code resolution and the VAT fraction (pure)', () => {
  it('maps descriptors only as configured, whatever their case, on the line date', () => {
    expect(resolveTax('vr', '2026-03-02', MAP, CODES)).toMatchObject({
      kind: 'split',
      taxCodeId: 't-std',
      rateBasisPoints: 2000,
    });
    expect(resolveTax(' VR ', '2026-03-02', MAP, CODES).kind).toBe('split');
    expect(resolveTax('VE', '2026-03-02', MAP, CODES)).toEqual({ kind: 'none' }); // unmapped
    expect(resolveTax(null, '2026-03-02', MAP, CODES)).toEqual({ kind: 'none' });
    expect(resolveTax('VZ', '2026-03-02', MAP, CODES)).toEqual({ kind: 'none' }); // zero rate
    // Mapped to a code that has ended: asked, with the reason.
    expect(resolveTax('VO', '2026-03-02', MAP, CODES)).toEqual({
      kind: 'unresolved',
      reason: 'tax code VAT15-IN (for VO) is not in effect on 2026-03-02',
    });
    expect(resolveTax('VO', '2009-06-30', MAP, CODES).kind).toBe('split');
    expect(resolveTax('VO', '2010-01-01', MAP, CODES).kind).toBe('unresolved'); // end exclusive
    expect(resolveTax('VR', '2026-03-02', { VR: 'NOPE' }, CODES).kind).toBe('unresolved');
  });

  it('takes the tax out of a tax-inclusive gross, half up to the minor unit', () => {
    expect(taxOfGross(12000n, 2000)).toBe(2000n); // 120.00 at 20% holds 20.00
    expect(taxOfGross(1000n, 2000)).toBe(167n); // 166.67 → 1.67
    expect(taxOfGross(3n, 2000)).toBe(1n); // 0.5 → 1
    expect(taxOfGross(2n, 2000)).toBe(0n); // 0.33 → 0
    expect(taxOfGross(10500n, 500)).toBe(500n); // 5%
    expect(taxOfGross(123456789n, 1900)).toBe(19711588n); // 19%: 19711588.16
    expect(() => taxOfGross(0n, 2000)).toThrow();
  });
});

describe('the bank processor posts the VAT split (dev server, PostgreSQL)', () => {
  let database: Database;
  let rt: RuntimeWorker;
  let agents: { dir: string; cleanup(): void };
  const AGENT = 'bank_transaction_processor';

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedBankAgentOrg(database.db);
    await applySystemWrites(database.db, [
      {
        orgId: ORG,
        idempotencyKey: 'tax:vat20',
        kind: 'tax_code.create',
        payload: {
          code: 'VAT20-IN',
          name: 'Input VAT 20%',
          kind: 'vat',
          rateBasisPoints: 2000,
          effectiveFrom: '2020-01-01',
          accountId: accountId(ORG, '1400'),
        },
      },
    ]);
    agents = agentsDirWith({
      [AGENT]: {
        base: AGENT,
        config: {
          execution_mode: 'code',
          settings: {
            credit_account_role: 'bank',
            rules: [{ match: 'harbour fuel', account_code: '6100' }],
            tax_codes: { VR: 'VAT20-IN', VX: 'VAT-RETIRED' },
          },
        },
      },
    });
    rt = await startRuntimeWorker(database, {
      agentRuntime: { agentsDir: agents.dir },
      events: { retryDelaysMs: [] },
    });
  }, 120_000);

  afterAll(async () => {
    await rt?.stop();
    agents?.cleanup();
    await database?.close();
  });

  it('splits a mapped line, posts an unmapped one gross, and asks about one it cannot resolve', async () => {
    const lines = [
      { id: 't.1', amountMinor: '6000', taxCode: 'VR' }, // 60.00 gross: 50.00 + 10.00
      { id: 't.2', amountMinor: '-1200', taxCode: 'VR' }, // a 12.00 refund: reversed split
      { id: 't.3', amountMinor: '4500', taxCode: 'VE' }, // unmapped: gross
      { id: 't.4', amountMinor: '3000', taxCode: 'VX' }, // mapped to a code that does not exist
    ];
    const a = await rt.events.acceptEvent({
      orgId: ORG,
      type: CARD_LINES_EVENT,
      source: 'connector',
      payload: {
        feedId: 'card',
        batchId: 'tax-1',
        currency: 'GBP',
        lines: lines.map((l) => ({
          ...l,
          date: '2026-03-02',
          merchant: 'HARBOUR FUEL 0042',
          card: '4000 0000 0000 1111',
        })),
      },
    });
    const gw = new GatewayClient(rt.client, database.db, rt.taskQueue);
    const voted = new Set<string>();
    const run = await eventually(async () => {
      const [r] = await runsOfEvent(database.db, ORG, a.eventId);
      if (r?.state === 'waiting_approval') {
        for (const s of (await getRunRecord(database.db, ORG, r.id))?.submissions ?? []) {
          const key = s.submissionId.slice(gatewayWorkflowId(ORG, '').length);
          const view = await gw.state(ORG, key).catch(() => null);
          if (view?.status !== 'awaiting_approval' || voted.has(key)) continue;
          voted.add(key);
          await gw.approve(ORG, key, 'paula');
        }
        return undefined;
      }
      return r && ['waiting_human', 'completed', 'failed'].includes(r.state) ? r : undefined;
    }, 60_000);
    expect(run.state).toBe('waiting_human');

    const entry = async (id: string) =>
      (
        await database.db
          .select({
            accountId: journalLines.accountId,
            debit: journalLines.debit,
            credit: journalLines.credit,
          })
          .from(journalLines)
          .where(
            and(
              eq(journalLines.orgId, ORG),
              eq(journalLines.entryId, batchEntryId(ORG, `card:${id}`)),
            ),
          )
      )
        .map((l) => [l.accountId.slice(-4), String(l.debit), String(l.credit)])
        .sort();
    const acc = (code: string) => accountId(ORG, code).slice(-4);
    expect(await entry('t.1')).toEqual(
      [
        [acc('6100'), '5000', '0'],
        [acc('1400'), '1000', '0'],
        [acc('1010'), '0', '6000'],
      ].sort(),
    );
    expect(await entry('t.2')).toEqual(
      [
        [acc('1010'), '1200', '0'],
        [acc('6100'), '0', '1000'],
        [acc('1400'), '0', '200'],
      ].sort(),
    );
    expect(await entry('t.3')).toEqual(
      [
        [acc('6100'), '4500', '0'],
        [acc('1010'), '0', '4500'],
      ].sort(),
    );
    expect(await entry('t.4')).toEqual([]);
    const [asked] = await database.db
      .select()
      .from(bankLineClassifications)
      .where(
        and(
          eq(bankLineClassifications.orgId, ORG),
          inArray(bankLineClassifications.lineKey, ['card:t.4']),
        ),
      );
    expect(asked?.status).toBe('asked');
  });
});
