import fc from 'fast-check';
import { ApplicationFailure } from '@temporalio/common';
import { createTestDatabase } from './support/database';
import type { Database } from '../db/connection';
import { trialBalance } from '../db/repositories/ledger';
import {
  APPROVER_1,
  APPROVER_2,
  APPROVER_3,
  CLERK,
  OWNER,
  ORG,
  acc,
  directGateway,
  seedGatewayOrgs,
} from './gateway.fixtures';
import type { GatewayWriteInput } from '../workflows/gateway.contract';

/**
 * Random sequences of submissions, approvals, rejections, reversals, retries and period
 * closes through the gateway's apply layer (the activity functions the workflow calls):
 * whatever happens, the trial balance nets to zero per currency, no key posts twice and no
 * posted entry changes.
 */
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await seedGatewayOrgs(database.db);
});
afterAll(async () => database?.close());

const ACCOUNTS = ['1010', '6200', '6300', '4000', '2000', '1100'];
const MONTHS = ['2025-01', '2025-02', '2025-03'];
const APPROVERS = [APPROVER_1, APPROVER_2, APPROVER_3];

const lineArb = fc.record({
  account: fc.constantFrom(...ACCOUNTS),
  amount: fc.bigInt({ min: 1n, max: 5_000_000n }),
});
const opArb = fc.oneof(
  fc.record({
    op: fc.constant('post' as const),
    currency: fc.constantFrom('USD', 'EUR', 'JPY'),
    legs: fc.array(lineArb, { minLength: 1, maxLength: 3 }),
    month: fc.constantFrom(...MONTHS),
    counter: fc.constantFrom(...ACCOUNTS),
  }),
  fc.record({
    op: fc.constant('approve' as const),
    target: fc.nat(),
    approver: fc.nat({ max: 2 }),
  }),
  fc.record({ op: fc.constant('reject' as const), target: fc.nat(), approver: fc.nat({ max: 2 }) }),
  fc.record({ op: fc.constant('apply' as const), target: fc.nat() }),
  fc.record({ op: fc.constant('reverse' as const), target: fc.nat() }),
  fc.record({ op: fc.constant('close' as const), month: fc.constantFrom(...MONTHS) }),
);

async function snapshot() {
  const r = await database.pool.query(
    `select e.id, e.idempotency_key, e.entry_date::text, e.memo, e.reversal_of, e.posted_at, json_agg(json_build_array(l.line_no, l.account_id, l.currency, l.debit::text, l.credit::text) order by l.line_no) as lines
    from journal_entries e join journal_lines l on l.entry_id = e.id where e.org_id = $1 and e.status = 'posted' group by e.id`,
    [ORG],
  );
  return new Map(r.rows.map((row: { id: string }) => [row.id, JSON.stringify(row)]));
}

let run = 0;
it('random gateway sequences keep the books balanced, single-posted and immutable', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
      const g = directGateway(database.db);
      const r = ++run;
      const subs: string[] = [];
      const applied = new Set<string>();
      let n = 0;
      const keyOf = () => `p${r}-${++n}`;
      const tolerate = async (p: Promise<unknown>) => {
        try {
          await p;
        } catch (err) {
          // Refusals are expected outcomes of random sequences; anything else is a bug.
          if (!(err instanceof ApplicationFailure) || !err.type) throw err;
        }
      };
      const before = await snapshot();
      for (const o of ops) {
        if (o.op === 'post') {
          const total = o.legs.reduce((s, l) => s + l.amount, 0n);
          const write: GatewayWriteInput = {
            orgId: ORG,
            idempotencyKey: keyOf(),
            submitter: { kind: 'user', userId: CLERK },
            kind: 'journal.post',
            payload: {
              entryDate: `${o.month}-10`,
              memo: 'prop',
              lines: [
                ...o.legs.map((l) => ({
                  accountId: acc(l.account),
                  currency: o.currency,
                  debit: l.amount.toString(),
                })),
                { accountId: acc(o.counter), currency: o.currency, credit: total.toString() },
              ],
            },
          };
          await tolerate(g.evaluate(write).then((ev) => subs.push(ev.submissionId)));
        } else if (o.op === 'close') {
          const write: GatewayWriteInput = {
            orgId: ORG,
            idempotencyKey: keyOf(),
            submitter: { kind: 'user', userId: OWNER },
            kind: 'period.close',
            payload: { period: o.month },
          };
          await tolerate(
            g.evaluate(write).then(async (ev) => {
              await g.vote(ev.submissionId, APPROVER_1, 'approve');
              await g.apply(ev.submissionId);
            }),
          );
        } else if (subs.length > 0) {
          const target = subs[o.target % subs.length] as string;
          if (o.op === 'approve')
            await tolerate(g.vote(target, APPROVERS[o.approver] as string, 'approve'));
          else if (o.op === 'reject')
            await tolerate(g.vote(target, APPROVERS[o.approver] as string, 'reject'));
          else if (o.op === 'apply') {
            // Applying twice (a retried activity, a replayed workflow) must be a no-op the second time.
            await tolerate(g.apply(target).then(() => applied.add(target)));
            await tolerate(g.apply(target));
          } else if (o.op === 'reverse' && applied.size > 0) {
            const entry = await database.pool.query(
              `select id, entry_date::text as d from journal_entries where submission_id = $1`,
              [[...applied][o.target % applied.size]],
            );
            if (entry.rows[0]) {
              const write: GatewayWriteInput = {
                orgId: ORG,
                idempotencyKey: keyOf(),
                submitter: { kind: 'user', userId: CLERK },
                kind: 'journal.reverse',
                payload: { entryId: entry.rows[0].id, reversalDate: '2025-04-01', reason: 'prop' },
              };
              await tolerate(
                g.evaluate(write).then(async (ev) => {
                  await g.vote(ev.submissionId, APPROVER_2, 'approve');
                  await g.apply(ev.submissionId);
                }),
              );
            }
          }
        }
      }
      const tb = await trialBalance(database.db, ORG);
      for (const t of tb.totals) expect(t).toMatchObject({ net: '0', debits: t.credits });
      const dup = await database.pool.query(
        `select idempotency_key, count(*) from journal_entries group by 1 having count(*) > 1`,
      );
      expect(dup.rows).toEqual([]);
      const perSubmission = await database.pool.query(
        `select s.id, s.status, count(e.id)::int as n from gateway_submissions s left join journal_entries e on e.submission_id = s.id where s.org_id = $1 group by s.id, s.status`,
        [ORG],
      );
      for (const row of perSubmission.rows as { status: string; n: number }[])
        expect(row.n).toBeLessThanOrEqual(row.status === 'applied' ? 1 : 0);
      const after = await snapshot();
      for (const [id, snap] of before) expect(after.get(id)).toBe(snap);
    }),
    { numRuns: 25 },
  );
});
