import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import type { BillOutcome } from './outcome';
import { processBatch, processBill } from './post';

/**
 * The bill processor (code mode). For each bill document of the trigger — an upload
 * (`bill.received`) or the attachments of an email (`email.received`) — it reads and checks the
 * bill, finds its vendor, takes the vendor's AP context, and posts `bill.post` through the
 * gateway — or, for a structured credit note or a correction with a negative total,
 * `bill.credit` (a vendor credit reversing the bill). Outcomes per document: `posted` (the
 * gateway accepted the write: applied or in an approval lane), `human_review` (a check failed or a field is missing: the reasons go to a
 * person), `vendor_unknown` (handed to master data with the bill's evidence; the bill resumes
 * with a new `bill.received` once the vendor exists), `duplicate` (the vendor already has this
 * invoice number: refused). Several documents in one trigger are a batch, posted as one
 * `bill.post_batch`. Reading and checking one bill is prepare.ts; posting, one or a batch, is
 * post.ts; this file reads the trigger and asks people for what is left.
 */

/** Documents one bill.received event may carry (a connector's or an access point's batch). */
export const BILLS_PER_EVENT_MAX = 100;
const BillReceived = z.union([
  z.object({
    documentId: z.string().min(1).max(200),
    /** Set when the bill resumes after master data created its vendor. */
    vendorId: z.string().min(1).max(200).optional(),
  }),
  z.object({
    /** A batch: its bills are read side by side and posted as one bill.post_batch. */
    documentIds: z.array(z.string().min(1).max(200)).min(1).max(BILLS_PER_EVENT_MAX),
  }),
]);
const EmailReceived = z.object({
  documents: z.array(
    z.object({ documentId: z.string(), status: z.string(), filename: z.string().optional() }),
  ),
});
const Settings = z.object({ tax_line_description: z.string().min(1).max(100) });
/** A completed request of this agent: a delegation's answer names the vendor and the bill. */
const Callback = z.object({
  requestCallback: z.literal(true),
  requestId: z.string(),
  requestType: z.string(),
  createdByAgentType: z.string().nullable(),
  answer: z.record(z.string(), z.unknown()).nullable(),
  answeredBy: z.string().nullable(),
});
const DelegationAnswer = z.object({
  vendor_id: z.string().min(1).max(200),
  document_id: z.string().min(1).max(200),
});

export async function handle(ctx: AgentContext): Promise<HandlerResult> {
  const settings = Settings.parse(ctx.settings);
  const docs: { documentId: string; vendorId?: string }[] = [];
  if (ctx.trigger.eventType === 'request.completed') {
    const cb = Callback.safeParse(ctx.trigger.payload);
    if (!cb.success || cb.data.createdByAgentType !== ctx.agentType)
      return { status: 'succeeded', summary: 'a request of another agent: nothing to do' };
    if (cb.data.requestType !== 'delegation') {
      await ctx.log(
        `review ${cb.data.requestId} answered by ${cb.data.answeredBy ?? '?'}`,
        cb.data.answer,
      );
      return {
        status: 'succeeded',
        summary: `review ${cb.data.requestId} closed by ${cb.data.answeredBy ?? '?'}`,
        data: { bills: [], review: cb.data },
      };
    }
    const a = DelegationAnswer.safeParse(cb.data.answer);
    if (!a.success)
      return {
        status: 'needs_human',
        summary: `delegation ${cb.data.requestId} answered without a vendor and bill`,
      };
    await ctx.log(
      `vendor ${a.data.vendor_id} exists (delegation ${cb.data.requestId}): the bill resumes`,
    );
    docs.push({ documentId: a.data.document_id, vendorId: a.data.vendor_id });
  } else if (ctx.trigger.eventType === 'email.received') {
    const p = EmailReceived.safeParse(ctx.trigger.payload);
    if (!p.success)
      return { status: 'failed', summary: `email payload invalid: ${p.error.message}` };
    docs.push(
      ...p.data.documents
        .filter((d) => d.status === 'ready')
        .map((d) => ({ documentId: d.documentId })),
    );
  } else {
    const p = BillReceived.safeParse(ctx.trigger.payload);
    if (!p.success)
      return {
        status: 'failed',
        summary: `trigger payload invalid: ${p.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      };
    if ('documentIds' in p.data)
      docs.push(...[...new Set(p.data.documentIds)].map((documentId) => ({ documentId })));
    else docs.push(p.data);
  }
  if (docs.length === 0)
    return { status: 'succeeded', summary: 'no bill document in the event', data: { bills: [] } };

  const bills =
    docs.length === 1
      ? [
          await processBill(
            ctx,
            docs[0]!.documentId,
            docs[0]!.vendorId,
            settings.tax_line_description,
          ),
        ]
      : await processBatch(ctx, docs, settings.tax_line_description);
  const count = (o: BillOutcome['outcome']) => bills.filter((b) => b.outcome === o).length;
  const summary = `${bills.length} bill(s): ${count('posted')} posted, ${count('human_review')} for review, ${count('vendor_unknown')} waiting for a vendor, ${count('duplicate')} duplicate, ${count('not_a_bill')} handed to triage`;
  for (const b of bills) await ask(ctx, b);
  const open = bills.filter((b) => b.outcome === 'human_review' || b.outcome === 'vendor_unknown');
  const status =
    open.length === 0
      ? 'succeeded'
      : open.every((b) => b.requestId)
        ? 'waiting_human'
        : 'needs_human';
  return { status, summary, data: { bills } };
}

/**
 * A bill that needs someone: its unknown vendor is delegated to master data (a delegation
 * request carrying the bill's evidence; its answer resumes the bill), a failed check goes to a
 * person as a review request with the reasons. A run triggered by a callback may not delegate
 * again: then a person is asked instead.
 */
async function ask(ctx: AgentContext, b: BillOutcome): Promise<void> {
  const ex = b.extraction;
  const what = `bill ${ex?.invoiceNumber ?? '(no number)'}${ex?.issuer ? ` of ${ex.issuer}` : ''} (document ${b.documentId})`;
  if (b.outcome === 'vendor_unknown' && b.delegation) {
    try {
      const r = await ctx.request({
        type: 'delegation',
        delegateAgentType: 'master_data',
        title: `Create vendor ${b.delegation.name}`,
        question: `The ${what} comes from a vendor that is not in master data. Create the vendor from the bill's evidence and answer with its id and the bill's document.`,
        answerSchema: {
          fields: [
            { name: 'vendor_id', label: 'Vendor id', kind: 'text' },
            { name: 'document_id', label: 'Bill document id', kind: 'text' },
          ],
        },
        evidence: { ...b.delegation },
      });
      b.requestId = r.requestId;
      return;
    } catch (err) {
      b.reasons.push(`delegation refused: ${err instanceof Error ? err.message : String(err)}`);
      b.outcome = 'human_review';
    }
  }
  if (b.outcome === 'not_a_bill') {
    const t = await ctx.tool('emit_event', {
      type: 'triage.requested',
      payload: {
        documentId: b.documentId,
        reason:
          `not readable as a supplier bill: ${b.reasons.join('; ') || 'no invoice number and no amount'}`.slice(
            0,
            2000,
          ),
        // Its owner is bill.received whatever brought it here: triage never routes it back.
        from: { agentType: ctx.agentType, eventType: 'bill.received' },
      },
    });
    await ctx.log(`${b.documentId} handed to triage: ${t.status}`, t);
    if (t.status !== 'refused') return;
    b.reasons.push(`triage hand-off refused: ${t.detail ?? 'hop cap'}`);
    b.outcome = 'human_review';
  }
  if (b.outcome !== 'human_review') return;
  const r = await ctx.request({
    type: 'review',
    title: `Review ${what}`,
    question: `The ${what} was not posted: ${b.reasons.join('; ')}. Post it by hand or reject it, and say which.`,
    answerSchema: {
      fields: [
        {
          name: 'decision',
          label: 'What was done',
          kind: 'enum',
          options: ['posted_by_hand', 'rejected'],
        },
        { name: 'note', label: 'Note', kind: 'text', required: false },
      ],
    },
    evidence: {
      documentId: b.documentId,
      reasons: b.reasons,
      fields: ex
        ? {
            issuer: ex.issuer,
            invoiceNumber: ex.invoiceNumber,
            issueDate: ex.issueDate,
            currency: ex.currency,
            amount: ex.amount,
            amountUntaxed: ex.amountUntaxed,
            amountTax: ex.amountTax,
          }
        : null,
      checks: ex?.checks ?? [],
    },
  });
  b.requestId = r.requestId;
}
