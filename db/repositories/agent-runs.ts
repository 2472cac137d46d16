import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../connection';
import {
  agentRunProgress,
  agentRunSubmissions,
  agentRunTransitions,
  agentRuns,
  agents,
  modelCalls,
  orgAgentSettings,
  type AgentRunState,
} from '../schema';

export type AgentRow = typeof agents.$inferSelect;

/**
 * Writes the file definitions to the agents table. Operators own `enabled` and
 * `apiKeyHash`: inserted with their defaults once, never overwritten here.
 */
export async function syncAgentRows(
  db: Db,
  defs: Omit<typeof agents.$inferInsert, 'enabled' | 'apiKeyHash' | 'syncedAt'>[],
): Promise<void> {
  for (const d of defs) {
    const { agentType: _t, ...rest } = d;
    await db
      .insert(agents)
      .values(d)
      .onConflictDoUpdate({ target: agents.agentType, set: { ...rest, syncedAt: new Date() } });
  }
}

export async function listAgentRows(db: Db): Promise<AgentRow[]> {
  return db.select().from(agents).orderBy(asc(agents.agentType));
}

export async function setAgentEnabled(db: Db, agentType: string, enabled: boolean): Promise<void> {
  await db.update(agents).set({ enabled }).where(eq(agents.agentType, agentType));
}

export async function setAgentApiKeyHash(db: Db, agentType: string, hash: string): Promise<void> {
  await db.update(agents).set({ apiKeyHash: hash }).where(eq(agents.agentType, agentType));
}

/** Enabled agents subscribed to the event type. */
export async function enabledSubscribers(db: Db, type: string): Promise<string[]> {
  const rows = await db
    .select({ agentType: agents.agentType })
    .from(agents)
    .where(and(eq(agents.enabled, true), sql`${agents.triggerEvents} ? ${type}`))
    .orderBy(asc(agents.agentType));
  return rows.map((r) => r.agentType);
}

export async function getOrgAgentSettings(db: Db, orgId: string) {
  const [row] = await db.select().from(orgAgentSettings).where(eq(orgAgentSettings.orgId, orgId));
  return row;
}

export async function setOrgAgentSettings(
  db: Db,
  s: typeof orgAgentSettings.$inferInsert,
): Promise<void> {
  const { orgId: _o, ...rest } = s;
  await db
    .insert(orgAgentSettings)
    .values(s)
    .onConflictDoUpdate({ target: orgAgentSettings.orgId, set: rest });
}

export async function insertRun(
  db: Db,
  r: {
    id: string;
    orgId: string;
    agentType: string;
    eventId: string;
    attempt: number;
    executionMode: string;
    trigger: unknown;
    createdAt: Date;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(agentRuns)
      .values({ ...r, state: 'pending' })
      .onConflictDoNothing({ target: [agentRuns.orgId, agentRuns.id] })
      .returning({ id: agentRuns.id });
    if (inserted.length > 0)
      await tx
        .insert(agentRunTransitions)
        .values({
          orgId: r.orgId,
          runId: r.id,
          seq: 0,
          state: 'pending',
          detail: null,
          at: r.createdAt,
        })
        .onConflictDoNothing();
  });
}

export async function recordRunTransition(
  db: Db,
  t: {
    orgId: string;
    runId: string;
    seq: number;
    state: AgentRunState;
    detail: string | null;
    at: Date;
    outcome?: string;
    reason?: string | null;
    output?: unknown;
  },
): Promise<void> {
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(agentRunTransitions)
      .values({
        orgId: t.orgId,
        runId: t.runId,
        seq: t.seq,
        state: t.state,
        detail: t.detail,
        at: t.at,
      })
      .onConflictDoNothing()
      .returning({ seq: agentRunTransitions.seq });
    if (inserted.length === 0) return;
    const terminal = ['completed', 'failed', 'cancelled', 'timeout', 'waiting_human'].includes(
      t.state,
    );
    await tx
      .update(agentRuns)
      .set({
        state: t.state,
        ...(t.state === 'running' ? { startedAt: t.at } : {}),
        ...(terminal ? { finishedAt: t.at } : {}),
        ...(t.outcome !== undefined ? { outcome: t.outcome } : {}),
        ...(t.reason !== undefined ? { reason: t.reason } : {}),
        ...(t.output !== undefined ? { output: t.output } : {}),
      })
      .where(and(eq(agentRuns.orgId, t.orgId), eq(agentRuns.id, t.runId)));
  });
}

export async function appendRunProgress(
  db: Db,
  p: { orgId: string; runId: string; seq: number; message: string; data: unknown; at: Date },
): Promise<void> {
  await db.insert(agentRunProgress).values(p).onConflictDoNothing();
}

export async function linkRunSubmission(
  db: Db,
  l: {
    orgId: string;
    runId: string;
    submissionId: string;
    kind: string;
    outcome: string | null;
    at: Date;
  },
): Promise<void> {
  await db
    .insert(agentRunSubmissions)
    .values(l)
    .onConflictDoUpdate({
      target: [
        agentRunSubmissions.orgId,
        agentRunSubmissions.runId,
        agentRunSubmissions.submissionId,
      ],
      set: { outcome: l.outcome, at: l.at },
    });
}

/** Everything an operator inspects about one run. */
export async function getRunRecord(db: Db, orgId: string, runId: string) {
  const [run] = await db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.orgId, orgId), eq(agentRuns.id, runId)));
  if (!run) return undefined;
  const [transitions, progress, submissions, calls] = await Promise.all([
    db
      .select()
      .from(agentRunTransitions)
      .where(and(eq(agentRunTransitions.orgId, orgId), eq(agentRunTransitions.runId, runId)))
      .orderBy(asc(agentRunTransitions.seq)),
    db
      .select()
      .from(agentRunProgress)
      .where(and(eq(agentRunProgress.orgId, orgId), eq(agentRunProgress.runId, runId)))
      .orderBy(asc(agentRunProgress.seq)),
    db
      .select()
      .from(agentRunSubmissions)
      .where(and(eq(agentRunSubmissions.orgId, orgId), eq(agentRunSubmissions.runId, runId))),
    db
      .select()
      .from(modelCalls)
      .where(and(eq(modelCalls.orgId, orgId), eq(modelCalls.runId, runId)))
      .orderBy(asc(modelCalls.at)),
  ]);
  return { run, transitions, progress, submissions, modelCalls: calls };
}

export async function runsOfEvent(db: Db, orgId: string, eventId: string) {
  return db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.orgId, orgId), eq(agentRuns.eventId, eventId)))
    .orderBy(asc(agentRuns.createdAt));
}

export async function runsOfOrg(db: Db, orgId: string, states?: AgentRunState[]) {
  return db
    .select()
    .from(agentRuns)
    .where(and(eq(agentRuns.orgId, orgId), states ? inArray(agentRuns.state, states) : undefined));
}

/** Count of the org's agent runs per state. */
export async function runStates(db: Db, orgId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: agentRuns.state, n: sql<number>`count(*)::int` })
    .from(agentRuns)
    .where(eq(agentRuns.orgId, orgId))
    .groupBy(agentRuns.state);
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

// ---- model calls and budgets -------------------------------------------------------------

export type ModelCallRow = typeof modelCalls.$inferSelect;

export async function getModelCall(
  db: Db,
  orgId: string,
  id: string,
): Promise<ModelCallRow | undefined> {
  const [row] = await db
    .select()
    .from(modelCalls)
    .where(and(eq(modelCalls.orgId, orgId), eq(modelCalls.id, id)));
  return row;
}

/** Spent plus reserved (worst case of calls in flight), in micro-dollars. */
const committed = sql<string>`coalesce(sum(case when ${modelCalls.status} = 'reserved' then ${modelCalls.reservedMicroUsd} when ${modelCalls.status} = 'recorded' then ${modelCalls.costMicroUsd} else 0 end), 0)::text`;

export type ReserveOutcome =
  | { ok: true }
  | { ok: false; scope: 'run' | 'org'; limitMicroUsd: bigint; committedMicroUsd: bigint };

/**
 * Reserves a call's worst-case cost if neither the run's nor the org's monthly budget would
 * be passed. One advisory lock per org serialises the check and the reservation, so two
 * concurrent calls cannot both squeeze under the limit.
 */
export async function reserveModelCall(
  db: Db,
  c: {
    id: string;
    runId: string;
    orgId: string;
    agentType: string;
    month: string;
    modelTier: string;
    model: string;
    reservedMicroUsd: bigint;
    runLimitMicroUsd: bigint;
    orgMonthlyLimitMicroUsd: bigint | null;
    at: Date;
  },
): Promise<ReserveOutcome> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`model-budget:${c.orgId}`}))`);
    const [existing] = await tx
      .select()
      .from(modelCalls)
      .where(and(eq(modelCalls.orgId, c.orgId), eq(modelCalls.id, c.id)));
    if (existing) return { ok: true } as const;
    const [run] = await tx
      .select({ v: committed })
      .from(modelCalls)
      .where(and(eq(modelCalls.orgId, c.orgId), eq(modelCalls.runId, c.runId)));
    const runCommitted = BigInt(run?.v ?? '0');
    if (runCommitted + c.reservedMicroUsd > c.runLimitMicroUsd)
      return {
        ok: false,
        scope: 'run',
        limitMicroUsd: c.runLimitMicroUsd,
        committedMicroUsd: runCommitted,
      } as const;
    if (c.orgMonthlyLimitMicroUsd !== null) {
      const [org] = await tx
        .select({ v: committed })
        .from(modelCalls)
        .where(and(eq(modelCalls.orgId, c.orgId), eq(modelCalls.month, c.month)));
      const orgCommitted = BigInt(org?.v ?? '0');
      if (orgCommitted + c.reservedMicroUsd > c.orgMonthlyLimitMicroUsd)
        return {
          ok: false,
          scope: 'org',
          limitMicroUsd: c.orgMonthlyLimitMicroUsd,
          committedMicroUsd: orgCommitted,
        } as const;
    }
    const { runLimitMicroUsd: _r, orgMonthlyLimitMicroUsd: _o, ...row } = c;
    await tx.insert(modelCalls).values({ ...row, status: 'reserved' });
    return { ok: true } as const;
  });
}

export async function recordModelCall(
  db: Db,
  r: {
    orgId: string;
    id: string;
    inputTokens: number;
    outputTokens: number;
    cacheCreationTokens: number;
    cacheReadTokens: number;
    costMicroUsd: bigint;
    response: unknown;
  },
): Promise<void> {
  const { orgId, id, ...rest } = r;
  await db
    .update(modelCalls)
    .set({ ...rest, status: 'recorded' })
    .where(and(eq(modelCalls.orgId, orgId), eq(modelCalls.id, id)));
}

export async function releaseModelCall(db: Db, orgId: string, id: string): Promise<void> {
  await db
    .update(modelCalls)
    .set({ status: 'released' })
    .where(
      and(eq(modelCalls.orgId, orgId), eq(modelCalls.id, id), eq(modelCalls.status, 'reserved')),
    );
}

export interface CostRollupRow {
  key: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  costMicroUsd: bigint;
}

/** Recorded cost grouped by run, agent, org or month (optionally within one org and month). */
export async function costRollup(
  db: Db,
  by: 'run' | 'agent' | 'org' | 'month',
  filter: { orgId?: string; month?: string } = {},
): Promise<CostRollupRow[]> {
  const key = {
    run: modelCalls.runId,
    agent: modelCalls.agentType,
    org: modelCalls.orgId,
    month: modelCalls.month,
  }[by];
  const rows = await db
    .select({
      key,
      calls: sql<number>`count(*)::int`,
      inputTokens: sql<number>`coalesce(sum(${modelCalls.inputTokens}),0)::int`,
      outputTokens: sql<number>`coalesce(sum(${modelCalls.outputTokens}),0)::int`,
      cacheCreationTokens: sql<number>`coalesce(sum(${modelCalls.cacheCreationTokens}),0)::int`,
      cacheReadTokens: sql<number>`coalesce(sum(${modelCalls.cacheReadTokens}),0)::int`,
      cost: sql<string>`coalesce(sum(${modelCalls.costMicroUsd}),0)::text`,
    })
    .from(modelCalls)
    .where(
      and(
        eq(modelCalls.status, 'recorded'),
        filter.orgId ? eq(modelCalls.orgId, filter.orgId) : undefined,
        filter.month ? eq(modelCalls.month, filter.month) : undefined,
      ),
    )
    .groupBy(key)
    .orderBy(asc(key));
  return rows.map(({ cost, ...r }) => ({ ...r, costMicroUsd: BigInt(cost) }));
}
