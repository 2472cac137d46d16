import type { AgentContext } from '../../workflows/agent-runs/context';
import { splitIdempotencyKey } from '../../workflows/gateway/writes';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';
import type { BillOutcome, Extraction } from './outcome';
import { billNumberKey, lookupsFor, prepareBill, type ReadyBill } from './prepare';

/**
 * Bills through the gateway: one bill as its own `bill.post` (or `bill.credit`), a batch as one
 * `bill.post_batch`, and what the gateway answered as each bill's outcome.
 */
/** One bill: read, checked and, when it passes, posted on its own. */
export async function processBill(
  ctx: AgentContext,
  documentId: string,
  vendorHint: string | undefined,
  taxDescription: string,
): Promise<BillOutcome> {
  const p = await prepareBill(ctx, documentId, vendorHint, taxDescription, lookupsFor(ctx));
  return 'ready' in p ? submitWrite(ctx, p.base, p.ex, p.documentId, p.write, p.vendorName) : p;
}

/** Bills read side by side in a batch (each read is an activity of its own). */
const READS_IN_FLIGHT = 20;

/**
 * A batch of bills (one event carrying several documents, or an email with several bill
 * attachments): read side by side, each checked as on its own, master data read once per
 * vendor, and the bills that pass posted together as one `bill.post_batch` — each bill still
 * planned, risk-scored and, when it needs a person, approved on its own by the gateway. A bill
 * the gateway refuses is named by its index: it goes to a person (or is a duplicate) and the
 * rest are submitted again. A refusal that names no bill sends each bill on its own, so every
 * one gets its own verdict. Credits are always submitted on their own.
 */
export async function processBatch(
  ctx: AgentContext,
  docs: { documentId: string; vendorId?: string }[],
  taxDescription: string,
): Promise<BillOutcome[]> {
  const lookups = lookupsFor(ctx);
  const prepared: (BillOutcome | ReadyBill)[] = [];
  for (let i = 0; i < docs.length; i += READS_IN_FLIGHT)
    prepared.push(
      ...(await Promise.all(
        docs
          .slice(i, i + READS_IN_FLIGHT)
          .map((d) => prepareBill(ctx, d.documentId, d.vendorId, taxDescription, lookups)),
      )),
    );
  const out: BillOutcome[] = [];
  const batch: { at: number; bill: ReadyBill }[] = [];
  const numbers = new Map<string, ReadyBill>();
  for (const p of prepared) {
    const at = out.length;
    out.push(p as BillOutcome);
    if (!('ready' in p)) continue;
    if (p.write.kind !== 'bill.post') {
      out[at] = await submitWrite(ctx, p.base, p.ex, p.documentId, p.write, p.vendorName);
      continue;
    }
    // The same invoice twice in one batch: the first is posted, the second is its duplicate.
    const number = `${p.base.vendorId}\u0000${billNumberKey(p.ex.invoiceNumber!)}`;
    const first = numbers.get(number);
    if (first) {
      out[at] = {
        ...p.base,
        outcome: 'duplicate',
        reasons: [
          `duplicate: bill ${p.ex.invoiceNumber} of ${p.vendorName} is also document ${first.documentId} of this batch`,
        ],
        extraction: p.ex,
      };
      continue;
    }
    numbers.set(number, p);
    batch.push({ at, bill: p });
  }
  let todo = batch;
  for (let attempt = 0; todo.length > 1 && attempt < 2; attempt++) {
    const entries = todo.map(({ bill }) => ({
      key: billEntryKeyOf(bill.documentId),
      sourceDocumentId: bill.documentId,
      ...bill.write.payload,
    }));
    const sub = await ctx.tool('submit', { kind: 'bill.post_batch', payload: { entries } });
    if (sub.status === 'started') {
      const split = new Set(sub.splitOut ?? []);
      for (const [i, { at, bill }] of todo.entries()) {
        const key = entries[i]!.key;
        out[at] = {
          ...bill.base,
          submissionId: split.has(key)
            ? gatewayWorkflowId(ctx.orgId, splitIdempotencyKey(key))
            : sub.submissionId,
          outcome: 'posted',
          reasons: [],
          extraction: bill.ex,
        };
      }
      await ctx.log(
        `posted ${todo.length} bills as one bill.post_batch (${split.size} on their own for approval): ${sub.detail ?? ''}`,
        { submissionId: sub.submissionId },
      );
      todo = [];
      break;
    }
    // The refused bills, by the index their issue paths name.
    const named = new Map<number, string[]>();
    for (const issue of sub.issues ?? []) {
      const m = /^payload\.entries\.(\d+)(?:\.|$)/.exec(issue.path);
      if (m && Number(m[1]) < todo.length)
        named.set(Number(m[1]), [...(named.get(Number(m[1])) ?? []), issue.message]);
    }
    if (named.size === 0) break;
    for (const [i, messages] of named) {
      const { at, bill } = todo[i]!;
      out[at] = {
        ...bill.base,
        submissionId: sub.submissionId,
        outcome: messages.every((m) => m.startsWith('DuplicateEntity'))
          ? 'duplicate'
          : 'human_review',
        reasons: messages.map((m) => `gateway: ${m}`),
        extraction: bill.ex,
      };
    }
    todo = todo.filter((_, i) => !named.has(i));
  }
  for (const { at, bill } of todo)
    out[at] = await submitWrite(
      ctx,
      bill.base,
      bill.ex,
      bill.documentId,
      bill.write,
      bill.vendorName,
    );
  return out;
}

/** A bill's key in a batch: its document, so the same document never posts twice. */
const billEntryKeyOf = (documentId: string) =>
  `doc:${documentId.replace(/[^A-Za-z0-9._:-]/g, '_')}`.slice(0, 150);
/** Posts a bill or a vendor credit through the gateway: posted, or a duplicate / refusal for a person. */
async function submitWrite(
  ctx: AgentContext,
  base: Omit<BillOutcome, 'outcome' | 'reasons' | 'extraction'>,
  ex: Extraction,
  documentId: string,
  write: { kind: string; payload: Record<string, unknown> },
  vendorName: string,
): Promise<BillOutcome> {
  const vendorId = base.vendorId!;
  const sub = await ctx.tool('submit', { ...write, sourceDocumentId: documentId });
  if (sub.status === 'refused') {
    const duplicate = /already posted|duplicate/i.test(sub.detail ?? '');
    return {
      ...base,
      vendorId,
      submissionId: sub.submissionId,
      outcome: duplicate ? 'duplicate' : 'human_review',
      reasons: [`gateway: ${sub.detail ?? 'refused'}`],
      extraction: ex,
    };
  }
  await ctx.log(`posted ${write.kind} ${ex.invoiceNumber} of ${vendorName}: ${sub.detail ?? ''}`, {
    submissionId: sub.submissionId,
  });
  return {
    ...base,
    vendorId,
    submissionId: sub.submissionId,
    outcome: 'posted',
    reasons: [],
    extraction: ex,
  };
}
