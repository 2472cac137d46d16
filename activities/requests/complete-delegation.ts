import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/connection';
import { customers, vendors } from '../../db/schema';
import { getRequestRow } from '../../db/repositories/requests';
import { AnswerRefusedError, type RequestsEntryPoint } from '../../workflows/requests/entry-point';

/**
 * A delegate agent's run completed: the runtime (not the handler) closes the delegation it
 * worked for. The answer counts only when the entity it names really exists in the org (looked
 * up by id); otherwise the request is failed, and the delegation watch re-escalates the waiting
 * run to a person. Idempotent under retry: a request no longer open is reported as it stands.
 */
export const CompleteDelegationSchema = z
  .object({
    orgId: z.string().min(1).max(128),
    requestId: z.string().min(1).max(300),
    /** The delegate agent whose run completed (answers as `agent:<type>`). */
    agentType: z.string().min(1).max(100),
    /** The run's structured answer (its output's `delegation.answer`), null when it gave none. */
    answer: z.record(z.string(), z.unknown()).nullable(),
  })
  .strict();
export type CompleteDelegationInput = z.infer<typeof CompleteDelegationSchema>;

export interface CompleteDelegationResult {
  status: 'completed' | 'failed' | 'not_open' | 'not_delegated';
  requestId: string;
  /** The entity the answer names, when it was found. */
  entity: { kind: 'vendor' | 'customer'; id: string } | null;
  reason: string | null;
}

/** The entity an answer names: a vendor_id or a customer_id (exactly one). */
function namedEntity(
  answer: Record<string, unknown> | null,
): { kind: 'vendor' | 'customer'; id: string } | null {
  if (!answer) return null;
  const vendor = typeof answer.vendor_id === 'string' ? answer.vendor_id : null;
  const customer = typeof answer.customer_id === 'string' ? answer.customer_id : null;
  if (vendor && !customer) return { kind: 'vendor', id: vendor };
  if (customer && !vendor) return { kind: 'customer', id: customer };
  return null;
}

async function entityExists(
  db: Db,
  orgId: string,
  e: { kind: 'vendor' | 'customer'; id: string },
): Promise<boolean> {
  const rows =
    e.kind === 'vendor'
      ? await db
          .select({ id: vendors.id })
          .from(vendors)
          .where(and(eq(vendors.orgId, orgId), eq(vendors.id, e.id)))
      : await db
          .select({ id: customers.id })
          .from(customers)
          .where(and(eq(customers.orgId, orgId), eq(customers.id, e.id)));
  return rows.length > 0;
}

export async function completeDelegation(
  deps: { db: Db; requests: RequestsEntryPoint },
  raw: CompleteDelegationInput,
): Promise<CompleteDelegationResult> {
  const c = CompleteDelegationSchema.parse(raw);
  const row = await getRequestRow(deps.db, c.requestId);
  const base = { requestId: c.requestId, entity: null };
  // Only the delegation addressed to this agent, in this org, is the run's to close.
  if (
    !row ||
    row.orgId !== c.orgId ||
    row.type !== 'delegation' ||
    row.delegateAgentType !== c.agentType
  )
    return {
      ...base,
      status: 'not_delegated',
      reason: `no delegation ${c.requestId} to ${c.agentType} in ${c.orgId}`,
    };
  if (row.status !== 'open')
    return { ...base, status: 'not_open', reason: `request ${c.requestId} is ${row.status}` };
  const by = `agent:${c.agentType}`;
  const entity = namedEntity(c.answer);
  const found = entity ? await entityExists(deps.db, c.orgId, entity) : false;
  const fail = async (reason: string): Promise<CompleteDelegationResult> => {
    await deps.requests.failRequest(c.orgId, c.requestId, reason, by);
    return { ...base, status: 'failed', reason };
  };
  try {
    if (!entity)
      return await fail('the delegate run completed without naming a vendor_id or customer_id');
    if (!found) return await fail(`${entity.kind} ${entity.id} does not exist in ${c.orgId}`);
    try {
      const ack = await deps.requests.answerRequest({
        requestId: c.requestId,
        orgId: c.orgId,
        answeredBy: by,
        answer: c.answer!,
      });
      if (ack.status === 'answered') return { ...base, status: 'completed', entity, reason: null };
      return await fail(
        `the answer did not fill the delegation's form: ${ack.reason ?? ack.status}`,
      );
    } catch (err) {
      // The form refused the answer outright: nothing is completed on a bad answer.
      if (err instanceof AnswerRefusedError && err.type !== 'RequestNotOpen')
        return await fail(`the answer was refused (${err.type}): ${err.message}`);
      throw err;
    }
  } catch (err) {
    // A retry after the request closed (or a person closing it meanwhile): report it as it is.
    const now = await getRequestRow(deps.db, c.requestId);
    if (now && now.status !== 'open')
      return { ...base, status: 'not_open', reason: `request ${c.requestId} is ${now.status}` };
    throw err;
  }
}
