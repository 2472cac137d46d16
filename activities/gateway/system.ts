import { and, eq } from 'drizzle-orm';
import { seedingDbFor, type Db } from '../../db/connection';
import { gatewaySubmissions } from '../../db/schema';
import {
  getRiskSettings,
  insertEffects,
  lockSubmission,
  setSubmissionStatus,
} from '../../db/repositories/gateway';
import { accountsWithoutPostings } from '../../db/repositories/ledger';
import { scoreRisk, type RiskFacts } from '../../workflows/gateway/risk';
import {
  WRITE_SCHEMAS,
  formatIssues,
  type WriteKind,
  type WritePayload,
} from '../../workflows/gateway/writes';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import { WRITE_KINDS_REGISTRY } from './kinds';
import type { Plan, PlanContext } from './kind-def';

/** The platform's own identity: it bootstraps an org (default chart, first grants). */
export const SYSTEM_ACTOR = 'system';

export interface SystemWrite {
  orgId: string;
  /** Stable per bootstrap step (e.g. system:chart:1000), so seeding twice applies nothing twice. */
  idempotencyKey: string;
  kind: WriteKind;
  payload: unknown;
}

/**
 * Applies bootstrap writes through the gateway's apply layer as the system identity, all in one
 * transaction: each is planned and risk-scored like any submission, registered (so the database
 * audits "submitted" with its score), applied under the database's gateway context and audited
 * "applied". There is no approver yet when an org is created, so these carry no approvals; the
 * schema's submission checks allow that for the system submitter only, and the audit chain
 * shows every such write as the system's. Not reachable through the gateway workflow (the
 * submitter schema has no system kind), only from code that bootstraps orgs — and it runs on
 * the database owner's connection for `db` (seedingDbFor): the database refuses system
 * submissions from the runtime role (migration 0020), which could otherwise approve its own
 * writes by calling them system writes.
 */
export async function applySystemWrites(
  db: Db,
  writes: SystemWrite[],
): Promise<{ applied: string[]; skipped: string[] }> {
  const applied: string[] = [];
  const skipped: string[] = [];
  await seedingDbFor(db).transaction(async (tx) => {
    for (const w of writes) {
      const parsed = WRITE_SCHEMAS[w.kind].safeParse(w.payload);
      if (!parsed.success)
        throw new Error(
          `system write ${w.idempotencyKey} (${w.kind}) is invalid: ${formatIssues(
            parsed.error.issues.map((i) => ({
              path: ['payload', ...i.path].join('.'),
              message: i.message,
            })),
          )}`,
        );
      const id = gatewayWorkflowId(w.orgId, w.idempotencyKey);
      const [existing] = await tx
        .select({ status: gatewaySubmissions.status })
        .from(gatewaySubmissions)
        .where(
          and(
            eq(gatewaySubmissions.orgId, w.orgId),
            eq(gatewaySubmissions.idempotencyKey, w.idempotencyKey),
          ),
        );
      if (existing?.status === 'applied') {
        skipped.push(w.idempotencyKey);
        continue;
      }
      if (existing)
        throw new Error(`system write ${w.idempotencyKey} is ${existing.status}, not applied`);
      const ctx: PlanContext = {
        q: tx,
        orgId: w.orgId,
        submissionId: id,
        entryKey: id,
        sourceRef: null,
      };
      const def = WRITE_KINDS_REGISTRY[w.kind] as {
        plan(c: PlanContext, p: WritePayload<WriteKind>): Promise<Plan>;
      };
      const plan = await def.plan(ctx, parsed.data as WritePayload<WriteKind>);
      const gross = new Map<string, bigint>();
      for (const e of plan.entries)
        for (const l of e.lines) gross.set(l.currency, (gross.get(l.currency) ?? 0n) + l.debit);
      const facts: RiskFacts = {
        kind: w.kind,
        amounts: [...gross].map(([currency, n]) => ({ currency, amountMinor: n.toString() })),
        irreversible: false,
        payeeBankDetails: null,
        payeeBankDetailsRecentlyChanged: false,
        placeholderContacts: [],
        firstPostingAccounts: await accountsWithoutPostings(
          tx,
          w.orgId,
          plan.entries.flatMap((e) => e.lines.map((l) => l.accountId)),
        ),
        reversal: false,
        periodChange: null,
        newMasterData: false,
        ...plan.facts,
      };
      const risk = scoreRisk(facts, await getRiskSettings(tx, w.orgId));
      await tx.insert(gatewaySubmissions).values({
        id,
        orgId: w.orgId,
        idempotencyKey: w.idempotencyKey,
        workflowId: id,
        runId: SYSTEM_ACTOR,
        kind: w.kind,
        payload: parsed.data,
        submitter: { kind: 'system' },
        submitterKind: 'system',
        riskScore: risk.score,
        lane: risk.lane,
        rulesFired: risk.rules,
        requiredApprovals: 0,
        status: 'approved',
      });
      await lockSubmission(tx, id);
      const effects = await plan.write(tx);
      await insertEffects(tx, id, effects);
      await setSubmissionStatus(tx, id, 'applied', {
        result: { effects, entryIds: plan.entries.map((e) => e.id) },
      });
      applied.push(w.idempotencyKey);
    }
  });
  return { applied, skipped };
}
