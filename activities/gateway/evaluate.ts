import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { memberships, organizations, type Role } from '../../db/schema';
import {
  accountsWithoutPostings,
  periodStatus,
  type EntryDraft,
  type Q,
} from '../../db/repositories/ledger';
import { existingIds, type EntityType } from '../../db/repositories/master-data';
import {
  getRiskSettings,
  insertEffects,
  listVotes,
  lockSubmission,
  setSubmissionStatus,
} from '../../db/repositories/gateway';
import { ErrorType } from '../../workflows/errors';
import { scoreRisk, type RiskAssessment, type RiskFacts } from '../../workflows/gateway/risk';
import {
  parseWrite,
  formatIssues,
  type GatewayWrite,
  type WriteIssue,
  type WritePayload,
  type WriteKind,
} from '../../workflows/gateway/writes';
import type { Effect, EntryPreview } from '../../workflows/gateway.contract';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import { WRITE_KINDS_REGISTRY } from './kinds';
import type { PayeeAccount, Plan, PlanContext } from './kind-def';
import { GatewayRefusal, refusalFromDb } from './refusal';
import { getAgentIdentity } from '../../db/repositories/credentials';
import { insertOutboxEvent } from '../../db/repositories/event-outbox';
import { writeAppliedEvent } from '../events/emit';
import {
  currentPlanRevision,
  insertPlanRevision,
  planVotes,
} from '../../db/repositories/gateway-plans';
import { LANES, type Lane } from '../../workflows/gateway/risk';
import { planHash } from './plan-hash';

export interface Evaluation {
  plan: Plan;
  risk: RiskAssessment;
  preview: EntryPreview[];
  payee: PayeeAccount | null;
  amounts: { currency: string; amountMinor: string }[];
}

/** The plan hash of an evaluation at a lane (the lane a revision keeps can only rise). */
export function hashOf(ev: Evaluation, lane: Lane): string {
  return planHash({ entries: ev.preview, payee: ev.payee, amounts: ev.amounts, lane });
}

export const higherLane = (a: Lane, b: Lane): Lane =>
  LANES.indexOf(a) >= LANES.indexOf(b) ? a : b;

export function previewOf(entries: EntryDraft[]): EntryPreview[] {
  return entries.map((e) => ({
    entryId: e.id,
    entryDate: e.entryDate,
    memo: e.memo,
    reversalOf: e.reversalOf,
    lines: e.lines.map((l) => ({
      accountId: l.accountId,
      currency: l.currency,
      debit: l.debit.toString(),
      credit: l.credit.toString(),
      memo: l.memo,
    })),
  }));
}

async function rolesIn(q: Q, orgId: string, userId: string): Promise<Role[]> {
  const rows = await q
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.orgId, orgId), eq(memberships.userId, userId)));
  return rows.map((r) => r.role);
}

/**
 * Humans by role. Agents by their stored record (agent_identities), never by what the
 * submission claims: registered and enabled in the org, the kind among its allowed
 * workflows, the named operator its recorded one, and that operator holding a role the kind
 * requires of a person.
 */
async function checkPermission(q: Q, w: GatewayWrite): Promise<void> {
  const needed = WRITE_KINDS_REGISTRY[w.kind].submitRoles;
  if (w.submitter.kind === 'user') {
    const roles = await rolesIn(q, w.orgId, w.submitter.userId);
    if (!roles.some((r) => needed.includes(r))) {
      throw new GatewayRefusal(
        ErrorType.WriteNotPermitted,
        `User ${w.submitter.userId} may not submit ${w.kind} in org ${w.orgId} (needs one of: ${needed.join(', ')})`,
        [{ path: 'submitter.userId', message: 'missing role' }],
      );
    }
    return;
  }
  const a = w.submitter;
  const agent = await getAgentIdentity(q, w.orgId, a.agentType);
  if (!agent || !agent.enabled)
    throw new GatewayRefusal(
      ErrorType.WriteNotPermitted,
      `Agent ${a.agentType} is not a registered, enabled agent of org ${w.orgId}`,
      [{ path: 'submitter.agentType', message: 'unknown or disabled agent' }],
    );
  if (!agent.allowedWorkflows.includes(w.kind))
    throw new GatewayRefusal(
      ErrorType.WriteNotPermitted,
      `Agent ${a.agentType} (${a.instanceId}) may not submit ${w.kind}; allowed: ${agent.allowedWorkflows.join(', ') || 'none'}`,
      [{ path: 'kind', message: `${w.kind} not among the agent's allowed workflows` }],
    );
  if (agent.operatorUserId !== a.operatorUserId)
    throw new GatewayRefusal(
      ErrorType.WriteNotPermitted,
      `Agent ${a.agentType} is operated by ${agent.operatorUserId}, not ${a.operatorUserId}`,
      [{ path: 'submitter.operatorUserId', message: "not the agent's recorded operator" }],
    );
  const roles = await rolesIn(q, w.orgId, agent.operatorUserId);
  if (!roles.some((r) => needed.includes(r)))
    throw new GatewayRefusal(
      ErrorType.WriteNotPermitted,
      `Operator ${agent.operatorUserId} of agent ${a.agentType} may not submit ${w.kind} in org ${w.orgId} (needs one of: ${needed.join(', ')})`,
      [{ path: 'submitter.operatorUserId', message: 'operator lacks the role' }],
    );
}

/** Every referenced id must exist in the submitting org; a missing one is named with its path. */
async function checkReferences(q: Q, w: GatewayWrite): Promise<void> {
  const def = WRITE_KINDS_REGISTRY[w.kind] as {
    refs(p: unknown): { path: string; entity: EntityType; id: string }[];
  };
  const refs = def.refs(w.payload);
  const byEntity = new Map<EntityType, string[]>();
  for (const r of refs) byEntity.set(r.entity, [...(byEntity.get(r.entity) ?? []), r.id]);
  const found = new Map<EntityType, Set<string>>();
  for (const [entity, ids] of byEntity)
    found.set(entity, await existingIds(q, entity, w.orgId, ids));
  const missing = refs.filter((r) => !found.get(r.entity)?.has(r.id));
  if (missing.length > 0) {
    const issues: WriteIssue[] = missing.map((m) => ({
      path: m.path,
      message: `unknown ${m.entity} id ${m.id} in org ${w.orgId}`,
    }));
    throw new GatewayRefusal(
      ErrorType.UnknownEntity,
      `Unknown id(s) in org ${w.orgId}: ${missing.map((m) => `${m.entity} ${m.id} (${m.path})`).join(', ')}`,
      issues,
    );
  }
}

/**
 * Validates a parsed write against the database and scores it: org, permission, references,
 * the kind's plan (its own checks), open period, then the risk rules. Reads only.
 */
export async function evaluateWrite(
  q: Q,
  w: GatewayWrite,
  submissionId: string,
): Promise<Evaluation> {
  const [org] = await q
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, w.orgId));
  if (!org)
    throw new GatewayRefusal(ErrorType.UnknownOrganization, `Unknown organization "${w.orgId}"`, [
      { path: 'orgId', message: 'unknown organization' },
    ]);
  await checkPermission(q, w);
  await checkReferences(q, w);
  const ctx: PlanContext = {
    q,
    orgId: w.orgId,
    submissionId,
    entryKey: gatewayWorkflowId(w.orgId, w.idempotencyKey),
    sourceRef: w.source ? `${w.source.type}:${w.source.id}` : null,
  };
  const def = WRITE_KINDS_REGISTRY[w.kind] as {
    plan(c: PlanContext, p: WritePayload<WriteKind>): Promise<Plan>;
  };
  const plan = await def.plan(ctx, w.payload as WritePayload<WriteKind>);
  if (plan.postingDate) {
    const period = plan.postingDate.date.slice(0, 7);
    if ((await periodStatus(q, w.orgId, period)) === 'closed') {
      throw new GatewayRefusal(
        ErrorType.PeriodClosed,
        `Period ${period} is closed for org ${w.orgId}`,
        [{ path: plan.postingDate.path, message: `period ${period} is closed` }],
      );
    }
  }
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
    // A kind that scores its entries itself has done this query already.
    firstPostingAccounts:
      plan.facts.reversal || plan.risk
        ? []
        : await accountsWithoutPostings(
            q,
            w.orgId,
            plan.entries.flatMap((e) => e.lines.map((l) => l.accountId)),
          ),
    reversal: false,
    periodChange: null,
    newMasterData: false,
    ...plan.facts,
  };
  const risk = plan.risk ?? scoreRisk(facts, await getRiskSettings(q, w.orgId));
  return {
    plan,
    risk,
    preview: previewOf(plan.entries),
    payee: plan.payee ?? null,
    amounts: facts.amounts,
  };
}

export interface DryRunResult {
  valid: boolean;
  refusal: { type: string; message: string; issues: WriteIssue[] } | null;
  risk: RiskAssessment | null;
  lane: RiskAssessment['lane'] | null;
  entries: EntryPreview[];
  /** A batch kind's parts that would go to their own submissions (their keys). */
  splitOut?: string[];
}

/**
 * What a submission would do, without doing it: runs in a READ ONLY transaction that is
 * rolled back, so not even a period row is created.
 */
export async function dryRunWrite(db: Db, raw: unknown): Promise<DryRunResult> {
  const parsed = parseWrite(raw);
  if (!parsed.ok)
    return {
      valid: false,
      refusal: {
        type: ErrorType.InvalidWrite,
        message: `Invalid write: ${formatIssues(parsed.issues)}`,
        issues: parsed.issues,
      },
      risk: null,
      lane: null,
      entries: [],
    };
  const w = parsed.write;
  const rollback = new Error('dry run rollback');
  let out: DryRunResult | undefined;
  try {
    await db.transaction(async (tx) => {
      await tx.execute(sql`set transaction read only`);
      try {
        const ev = await evaluateWrite(tx, w, gatewayWorkflowId(w.orgId, w.idempotencyKey));
        out = {
          valid: true,
          refusal: null,
          risk: ev.risk,
          lane: ev.risk.lane,
          entries: ev.preview,
          ...(ev.plan.splitOut?.length
            ? { splitOut: ev.plan.splitOut.map((s) => s.entryKey) }
            : {}),
        };
      } catch (err) {
        if (!(err instanceof GatewayRefusal)) throw err;
        out = {
          valid: false,
          refusal: { type: err.type, message: err.message, issues: err.issues },
          risk: null,
          lane: null,
          entries: [],
        };
      }
      throw rollback;
    });
  } catch (err) {
    if (err !== rollback) throw err;
  }
  return out as DryRunResult;
}

export interface ReplannedRevision {
  revision: number;
  planHash: string;
  risk: RiskAssessment;
  preview: EntryPreview[];
  payee: PayeeAccount | null;
}

export type ApplyOutcome =
  | { status: 'applied'; effects: Effect[]; entryIds: string[]; alreadyApplied: boolean }
  | ({ status: 'replanned' } & ReplannedRevision);

/**
 * Applies a registered submission in ONE transaction: lock its row (a concurrent or retried
 * apply waits, then finds it applied), check the votes on the current plan revision satisfy
 * its lane, re-plan against the current state and compare the plan hash with the one the
 * approvers signed. A different plan is not applied: it becomes a new revision (its lane
 * and approvals never below the old ones), audited, and goes back for approval — unless
 * it needs none. The journal entries' unique idempotency key is the last line of defence
 * against a double post.
 */
export async function applySubmission(db: Db, submissionId: string): Promise<ApplyOutcome> {
  try {
    return await db.transaction(async (tx): Promise<ApplyOutcome> => {
      const row = await lockSubmission(tx, submissionId);
      if (!row)
        throw new GatewayRefusal(ErrorType.ApprovalNotOpen, `No submission ${submissionId}`);
      if (row.status === 'applied') {
        const r = row.result as { effects: Effect[]; entryIds: string[] };
        return { status: 'applied', ...r, alreadyApplied: true };
      }
      if (row.status !== 'awaiting_approval' && row.status !== 'approved') {
        throw new GatewayRefusal(
          ErrorType.ApprovalNotOpen,
          `Submission ${submissionId} is ${row.status}; it cannot be applied`,
        );
      }
      const current = await currentPlanRevision(tx, submissionId);
      const required = current?.requiredApprovals ?? row.requiredApprovals;
      const votes = current
        ? (await planVotes(tx, submissionId, current.revision)).map((v) => ({
            decision: v.decision,
            approverUserId: v.approverUserId,
          }))
        : await listVotes(tx, submissionId);
      const self = new Set(
        [row.submitterUserId, row.operatorUserId].filter((x): x is string => x !== null),
      );
      const approvals = votes.filter(
        (v) => v.decision === 'approve' && !self.has(v.approverUserId),
      ).length;
      const rejected = votes.some((v) => v.decision === 'reject');
      if (rejected || approvals < required) {
        throw new GatewayRefusal(
          ErrorType.ApprovalNotOpen,
          `Submission ${submissionId} has ${approvals} of ${required} approvals${rejected ? ' and a rejection' : ''}`,
        );
      }
      const parsed = parseWrite({
        orgId: row.orgId,
        idempotencyKey: row.idempotencyKey,
        submitter: row.submitter,
        kind: row.kind,
        payload: row.payload,
        ...(row.sourceRef ? { source: sourceOf(row.sourceRef) } : {}),
      });
      if (!parsed.ok)
        throw new GatewayRefusal(
          ErrorType.InvalidWrite,
          `Stored write no longer parses: ${formatIssues(parsed.issues)}`,
          parsed.issues,
        );
      const ev = await evaluateWrite(tx, parsed.write, submissionId);
      if (current) {
        const lane = higherLane(current.lane, ev.risk.lane);
        const hash = hashOf(ev, lane);
        if (hash !== current.planHash) {
          const next: ReplannedRevision = {
            revision: current.revision + 1,
            planHash: hash,
            risk: {
              ...ev.risk,
              lane,
              requiredApprovals: Math.max(current.requiredApprovals, ev.risk.requiredApprovals),
            },
            preview: ev.preview,
            payee: ev.payee,
          };
          await insertPlanRevision(tx, {
            submissionId,
            revision: next.revision,
            planHash: hash,
            lane,
            requiredApprovals: next.risk.requiredApprovals,
            risk: next.risk,
            plan: { entries: ev.preview, payee: ev.payee, amounts: ev.amounts },
          });
          // The database audits the new revision (replanned:N) in this transaction.
          // Approved means applied as approved: a changed plan goes back to the approvers.
          if (next.risk.requiredApprovals > 0) return { status: 'replanned', ...next };
        }
      }
      const effects = await ev.plan.write(tx);
      await insertEffects(tx, submissionId, effects);
      const entryIds = ev.plan.entries.map((e) => e.id);
      await setSubmissionStatus(tx, submissionId, 'applied', { result: { effects, entryIds } });
      // The write's event commits with it (the outbox): it cannot be lost after the apply.
      const { eventId, envelope } = writeAppliedEvent({
        orgId: row.orgId,
        submissionId,
        kind: row.kind,
        effects,
        entryIds,
      });
      await insertOutboxEvent(tx, { ...envelope, eventId, origin: submissionId });
      return { status: 'applied', effects, entryIds, alreadyApplied: false };
    });
  } catch (err) {
    const refusal = err instanceof GatewayRefusal ? err : refusalFromDb(err);
    if (!refusal) throw err;
    // Not approved (yet) is no verdict on the write itself: leave the submission as it is.
    if (refusal.type === ErrorType.ApprovalNotOpen) throw refusal;
    // A permanent refusal at apply time (the period closed while approvals were pending, ...):
    // recorded on the submission, then reported as a typed failure.
    await setSubmissionStatus(db, submissionId, 'failed', {
      error: { type: refusal.type, message: refusal.message, issues: refusal.issues },
    });
    throw refusal;
  }
}

/** Registers the first plan revision (what the approvers will be shown and sign). */
export async function registerFirstRevision(
  q: Q,
  submissionId: string,
  ev: Evaluation,
  risk: RiskAssessment,
): Promise<string> {
  const hash = hashOf(ev, risk.lane);
  await insertPlanRevision(q, {
    submissionId,
    revision: 0,
    planHash: hash,
    lane: risk.lane,
    requiredApprovals: risk.requiredApprovals,
    risk,
    plan: { entries: ev.preview, payee: ev.payee, amounts: ev.amounts },
  });
  return hash;
}

function sourceOf(ref: string): { type: 'document' | 'event' | 'manual'; id: string } {
  const i = ref.indexOf(':');
  return { type: ref.slice(0, i) as 'document' | 'event' | 'manual', id: ref.slice(i + 1) };
}
