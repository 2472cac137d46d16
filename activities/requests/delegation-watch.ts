import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connection';
import { agentRuns, humanRequests, vendors } from '../../db/schema';
import { recentDuplicate, requestsOfRun, runsInState } from '../../db/repositories/requests';
import type { RequestsEntryPoint } from '../../workflows/requests/entry-point';
import { delegationLost, forgottenDelegationOutcome } from '../../workflows/requests/loop-defences';

/**
 * The delegation watch: two scans an operator schedule (or a test) runs over an org. Each
 * is idempotent; what it decides is a pure function in workflows/requests/loop-defences.ts.
 */

/**
 * Runs waiting on a delegation whose callback never came (no open request, none completed
 * in the last 30 minutes) are re-escalated to a person — exactly once per run: the
 * escalation's dedup key and request id are the run's, and an earlier one, open or closed,
 * stops a second.
 */
export async function reescalateLostDelegations(
  deps: { db: Db; requests: RequestsEntryPoint },
  orgId: string,
  nowMs = Date.now(),
): Promise<string[]> {
  const created: string[] = [];
  for (const run of await runsInState(deps.db, orgId, ['waiting_human'])) {
    const delegations = (await requestsOfRun(deps.db, run.id)).filter(
      (r) => r.type === 'delegation',
    );
    const lost = delegationLost(
      delegations.map((d) => ({ status: d.status, closedAtMs: d.closedAt?.getTime() ?? null })),
      nowMs,
    );
    if (!lost) continue;
    const dedupKey = `reescalate:${run.id}`;
    if (
      await recentDuplicate(deps.db, { orgId, type: 'verification', dedupKey, since: new Date(0) })
    )
      continue;
    const digest = createHash('sha256').update(run.id).digest('hex').slice(0, 24);
    const r = await deps.requests.createRequest(
      {
        orgId,
        requestId: `hr_reesc_${digest}`,
        type: 'verification',
        title: `Delegation lost: ${run.agentType} is still waiting`,
        question: `Agent run ${run.id} delegated work (${delegations.map((d) => `${d.id}: ${d.status}`).join(', ')}) and no callback came. Is the work done?`,
        answerSchema: {
          fields: [
            { name: 'done', label: 'The delegated work is done', kind: 'boolean' },
            { name: 'note', label: 'Note', kind: 'text', required: false },
          ],
        },
        evidence: { runId: run.id, delegations: delegations.map((d) => d.id) },
        createdBy: { runId: run.id, agentType: run.agentType },
        dedupKey,
      },
      nowMs,
    );
    if (!r.deduplicated) created.push(r.requestId);
  }
  return created;
}

/**
 * Open delegations whose delegate agent's run already completed (it forgot to close them):
 * completed with the entity's real id when the entity named in the evidence really exists
 * (a vendor by id or name), otherwise failed — never completed on the agent's word.
 */
export async function closeForgottenDelegations(
  deps: { db: Db; requests: RequestsEntryPoint },
  orgId: string,
): Promise<{ requestId: string; status: 'completed' | 'failed'; entityId: string | null }[]> {
  const open = await deps.db
    .select()
    .from(humanRequests)
    .where(
      and(
        eq(humanRequests.orgId, orgId),
        eq(humanRequests.type, 'delegation'),
        eq(humanRequests.status, 'open'),
      ),
    );
  const out: { requestId: string; status: 'completed' | 'failed'; entityId: string | null }[] = [];
  for (const req of open) {
    const finished = await deps.db
      .select({ id: agentRuns.id })
      .from(agentRuns)
      .where(
        and(
          eq(agentRuns.orgId, orgId),
          eq(agentRuns.state, 'completed'),
          sql`${agentRuns.trigger} -> 'payload' ->> 'delegationRequestId' = ${req.id}`,
        ),
      );
    if (finished.length === 0) continue; // the delegate is still at work (or never ran)
    const entity = (req.evidence as { entity?: { kind?: string; id?: string; name?: string } })
      .entity;
    let found: { id: string } | null = null;
    if (entity?.kind === 'vendor' && (entity.id || entity.name)) {
      const rows = await deps.db
        .select({ id: vendors.id })
        .from(vendors)
        .where(
          and(
            eq(vendors.orgId, orgId),
            entity.id ? eq(vendors.id, entity.id) : eq(vendors.name, entity.name ?? ''),
          ),
        );
      found = rows[0] ?? null;
    }
    const decision = forgottenDelegationOutcome(found);
    const by = `agent:${req.delegateAgentType ?? 'unknown'}`;
    if (decision.status === 'completed') {
      await deps.requests.answerRequest({
        requestId: req.id,
        orgId,
        answeredBy: by,
        answer: decision.answer,
      });
      out.push({ requestId: req.id, status: 'completed', entityId: decision.answer.entityId });
    } else {
      await deps.requests.failRequest(orgId, req.id, decision.reason, 'delegation-watch');
      out.push({ requestId: req.id, status: 'failed', entityId: null });
    }
  }
  return out;
}
