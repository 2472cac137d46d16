import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import type { ToolOutput } from '../../workflows/agent-runs/tools';
import { companyKey, searchTerm } from '../../workflows/bills/company-name';
import { decimalToMinor } from '../../workflows/bills/minor-units';
import { BIC, IBAN, splitIdempotencyKey } from '../../workflows/gateway/writes';
import { gatewayWorkflowId } from '../../workflows/gateway.contract';

/**
 * The bill processor (code mode). For each bill document of the trigger — an upload
 * (`bill.received`) or the attachments of an email (`email.received`) — it reads and checks the
 * bill, finds its vendor, takes the vendor's AP context, and posts `bill.post` through the
 * gateway — or, for a structured credit note or a correction with a negative total,
 * `bill.credit` (a vendor credit reversing the bill). Outcomes per document: `posted` (the
 * gateway accepted the write: applied or in an approval lane), `human_review` (a check failed or a field is missing: the reasons go to a
 * person), `vendor_unknown` (handed to master data with the bill's evidence; the bill resumes
 * with a new `bill.received` once the vendor exists), `duplicate` (the vendor already has this
 * invoice number: refused).
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

type Extraction = ToolOutput<'bill_read'>;
export interface BillOutcome {
  documentId: string;
  /** not_a_bill: nothing bill-like was read (no number, no amount): handed to triage. */
  outcome: 'posted' | 'human_review' | 'vendor_unknown' | 'duplicate' | 'not_a_bill';
  reasons: string[];
  vendorId: string | null;
  submissionId: string | null;
  /** The request asking a person (review) or master data (delegation). */
  requestId: string | null;
  extraction: Extraction | null;
  /** For vendor_unknown: what master data needs to create the vendor. */
  delegation: {
    agentType: 'master_data';
    entity: 'vendor';
    name: string;
    emails: string[];
    taxIds: string[];
    /** The one account a structured invoice asks to be paid to (BT-84/BT-86), if it states one. */
    bankAccount?: { iban: string; bic?: string; currency: string };
    sourceDocumentId: string;
  } | null;
}

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

/** One bill: read, checked and, when it passes, posted on its own. */
async function processBill(
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
async function processBatch(
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
/** An invoice number as compared for duplicates: no spaces, no leading #, upper case. */
const billNumberKey = (n: string) => n.replace(/\s+/g, '').replace(/^#/, '').toUpperCase();

/** A bill that passed every check: the write that posts it. */
interface ReadyBill {
  ready: true;
  base: Omit<BillOutcome, 'outcome' | 'reasons' | 'extraction'>;
  ex: Extraction;
  documentId: string;
  write: { kind: string; payload: Record<string, unknown> };
  vendorName: string;
}

/**
 * The run's reads of master data, each asked once: a batch of one vendor's bills searches the
 * vendor and reads its AP context once, not once per bill.
 */
interface Lookups {
  vendors(query: string): Promise<ToolOutput<'master_data_search'>>;
  ap(vendorId: string): Promise<ToolOutput<'ap_context'>>;
}
function lookupsFor(ctx: AgentContext): Lookups {
  const vendors = new Map<string, Promise<ToolOutput<'master_data_search'>>>();
  const ap = new Map<string, Promise<ToolOutput<'ap_context'>>>();
  const once = <T>(m: Map<string, Promise<T>>, key: string, read: () => Promise<T>) => {
    const hit = m.get(key);
    if (hit) return hit;
    const p = read();
    m.set(key, p);
    return p;
  };
  return {
    vendors: (query) =>
      once(vendors, query, () =>
        ctx.tool('master_data_search', { entity: 'vendor', query, limit: 50 }),
      ),
    ap: (vendorId) => once(ap, vendorId, () => ctx.tool('ap_context', { vendorId })),
  };
}

/** Reads and checks one bill: an outcome for a person or master data, or the write to post. */
async function prepareBill(
  ctx: AgentContext,
  documentId: string,
  vendorHint: string | undefined,
  taxDescription: string,
  lookups: Lookups,
): Promise<BillOutcome | ReadyBill> {
  const base = {
    documentId,
    vendorId: null,
    submissionId: null,
    delegation: null,
    requestId: null,
  };
  const ex = await ctx.tool('bill_read', { documentId });
  await ctx.log(`read ${documentId}: ${ex.outcome}`, {
    invoiceNumber: ex.invoiceNumber,
    amount: ex.amount,
    currency: ex.currency,
    reasons: ex.reasons,
  });
  // Nothing bill-like at all: not this agent's document. Triage finds its owner.
  if (ex.outcome !== 'ready' && !ex.invoiceNumber && !ex.amount)
    return { ...base, outcome: 'not_a_bill', reasons: ex.reasons, extraction: ex };
  if (
    ex.outcome !== 'ready' ||
    !ex.minor ||
    !ex.issuer ||
    !ex.invoiceNumber ||
    !ex.issueDate ||
    !ex.currency
  )
    return { ...base, outcome: 'human_review', reasons: ex.reasons, extraction: ex };

  // The vendor: an exact match of the name without legal form, or the one the resume names.
  let vendorId = vendorHint ?? null;
  if (!vendorId) {
    const found = await lookups.vendors(searchTerm(ex.issuer));
    const key = companyKey(ex.issuer);
    const same = found.rows.filter((r) => companyKey(r.label) === key);
    if (same.length > 1)
      return {
        ...base,
        outcome: 'human_review',
        reasons: [
          `vendor: ${same.length} vendors are named ${ex.issuer} (${same.map((r) => r.id).join(', ')})`,
        ],
        extraction: ex,
      };
    if (same.length === 0) {
      await ctx.log(`vendor ${ex.issuer} is unknown: handed to master data`);
      return {
        ...base,
        outcome: 'vendor_unknown',
        reasons: [`vendor: no vendor named ${ex.issuer}`],
        extraction: ex,
        delegation: {
          agentType: 'master_data',
          entity: 'vendor',
          name: ex.issuer,
          emails: ex.contacts.emails,
          taxIds: ex.contacts.taxIds,
          ...(payeeAccountOf(ex) ? { bankAccount: payeeAccountOf(ex) } : {}),
          sourceDocumentId: documentId,
        },
      };
    }
    vendorId = same[0]!.id;
  }

  const ap = await lookups.ap(vendorId);
  // A credit note is numbered apart from the vendor's invoices: bill.credit refuses its own
  // duplicates (per vendor and credit-note number).
  const credit = ex.documentKind === 'credit';
  const dup = credit
    ? undefined
    : ap.openBills.find((b) => billNumberKey(b.billNumber) === billNumberKey(ex.invoiceNumber!));
  if (dup)
    return {
      ...base,
      vendorId,
      outcome: 'duplicate',
      reasons: [`duplicate: ${ap.vendor.name} already has bill ${dup.billNumber} (${dup.id})`],
      extraction: ex,
    };

  // Lines: the printed lines when they add up to the net, else one line for the net; the tax on
  // its own line to the input-tax account. Every amount is checked against the gross again.
  const gross = BigInt(ex.minor.gross);
  const tax = ex.minor.tax === null ? 0n : BigInt(ex.minor.tax);
  const net = ex.minor.net === null ? gross - tax : BigInt(ex.minor.net);
  const inputTax = ap.accounts.find((a) => a.systemRole === 'input_tax');
  if (credit && !ex.structured)
    return {
      ...base,
      vendorId,
      outcome: 'human_review',
      reasons: ['credit: only a structured credit note is posted as a vendor credit'],
      extraction: ex,
    };
  if (tax > 0n && !inputTax)
    return {
      ...base,
      vendorId,
      outcome: 'human_review',
      reasons: ['tax: the org has no input-tax account'],
      extraction: ex,
    };
  if (ex.structured) {
    // A structured e-invoice posts from its VAT breakdown: net per rate, input VAT per rate. A
    // correction with a negative total states the credit's amounts negated.
    const lines = structuredLines(
      ex,
      inputTax?.id ?? null,
      taxDescription,
      credit && gross < 0n ? -1n : 1n,
    );
    if ('error' in lines)
      return {
        ...base,
        vendorId,
        outcome: 'human_review',
        reasons: [`lines: ${lines.error}`],
        extraction: ex,
      };
    return {
      ready: true,
      base: { ...base, vendorId },
      ex,
      documentId,
      write: credit ? creditWrite(ex, vendorId, lines.lines) : billWrite(ex, vendorId, lines.lines),
      vendorName: ap.vendor.name,
    };
  }
  const printed =
    ex.linesBasis === 'net'
      ? ex.lines.map((l) => ({ description: l.description, minor: toMinor(l.amount) }))
      : [];
  const usable =
    printed.length > 0 &&
    printed.every((l) => l.minor !== null && l.minor >= 0n) &&
    printed.reduce((a, l) => a + (l.minor ?? 0n), 0n) === net &&
    ex.currency !== null &&
    minorIsCents(ex.minor.gross, ex.amount);
  const lines = (
    usable
      ? printed.filter((l) => l.minor! > 0n)
      : [{ description: `Bill ${ex.invoiceNumber} (net)`, minor: net }]
  ).map((l) => ({
    description: l.description.slice(0, 500) || 'line',
    amountMinor: l.minor!.toString(),
  }));
  if (tax > 0n)
    lines.push({
      description: `${taxDescription}${ex.taxRatePercent ? ` ${ex.taxRatePercent}%` : ''}`,
      amountMinor: tax.toString(),
      accountId: inputTax!.id,
    } as (typeof lines)[number]);
  const total = lines.reduce((a, l) => a + BigInt(l.amountMinor), 0n);
  if (total !== gross || lines.some((l) => BigInt(l.amountMinor) <= 0n))
    return {
      ...base,
      vendorId,
      outcome: 'human_review',
      reasons: [`lines: the posting would total ${total}, the bill ${gross}`],
      extraction: ex,
    };

  return {
    ready: true,
    base: { ...base, vendorId },
    ex,
    documentId,
    write: billWrite(ex, vendorId, lines),
    vendorName: ap.vendor.name,
  };
}

interface BillLine {
  description: string;
  amountMinor: string;
  accountId?: string;
}

/** A bill to pay: `bill.post`. */
function billWrite(ex: Extraction, vendorId: string, lines: BillLine[]) {
  return {
    kind: 'bill.post',
    payload: {
      vendorId,
      billNumber: ex.invoiceNumber,
      billDate: ex.issueDate,
      ...(ex.dueDate ? { dueDate: ex.dueDate } : {}),
      currency: ex.currency,
      // One IBAN stated by the XML: the gateway compares it with the vendor's stored one.
      ...(payeeIbanOf(ex) ? { payeeIban: payeeIbanOf(ex) } : {}),
      lines,
    },
  };
}

/**
 * A vendor credit: `bill.credit`, naming the invoice it corrects when the XML names exactly
 * one (BT-25); the gateway applies it against that bill when the vendor has it open.
 */
function creditWrite(ex: Extraction, vendorId: string, lines: BillLine[]) {
  const preceding = [...new Set(ex.structured?.invoice.references.precedingInvoices ?? [])];
  return {
    kind: 'bill.credit',
    payload: {
      vendorId,
      creditNumber: ex.invoiceNumber,
      creditDate: ex.issueDate,
      currency: ex.currency,
      ...(preceding.length === 1 ? { precedingBillNumber: preceding[0]!.slice(0, 100) } : {}),
      lines,
    },
  };
}

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

/**
 * The posting lines of a structured e-invoice, from its VAT breakdown (BG-23): one net line per
 * VAT category and rate to the vendor's expense account (the invoice lines named in it), and
 * one input-tax line per rate. A breakdown with a negative group (a document-level allowance
 * in its own category) posts its net as one line; the lines must add up to the gross exactly.
 */
export function structuredLines(
  ex: Extraction,
  inputTaxAccountId: string | null,
  taxDescription: string,
  /** -1n for a correction stated with a negative total: its amounts are the credit's, negated. */
  sign: 1n | -1n = 1n,
): { lines: BillLine[] } | { error: string } {
  const inv = ex.structured!.invoice;
  const currency = ex.currency!;
  const minor = (decimal: string) => {
    const m = decimalToMinor(decimal, currency);
    return m === null ? null : m * sign;
  };
  const gross = BigInt(ex.minor!.gross) * sign;
  const groups = inv.vatBreakdown.map((b) => ({
    ...b,
    taxableMinor: minor(b.taxable),
    taxMinor: minor(b.tax),
  }));
  if (groups.length === 0) return { error: 'the invoice has no VAT breakdown' };
  if (groups.some((g) => g.taxableMinor === null || g.taxMinor === null))
    return { error: `an amount of the VAT breakdown has more decimals than ${currency} allows` };
  if (groups.some((g) => g.taxMinor! < 0n))
    return { error: 'a VAT group has negative tax: a person posts it' };
  const label = (g: (typeof groups)[number]) =>
    `${g.category}${g.ratePercent !== null ? ` ${g.ratePercent}%` : ''}`;
  const namesOf = (g: (typeof groups)[number]) =>
    inv.lines
      .filter((l) => l.vatCategory === g.category && (l.vatRatePercent ?? null) === g.ratePercent)
      .map((l) => l.name)
      .filter(Boolean);
  const lines: BillLine[] = [];
  if (groups.every((g) => g.taxableMinor! >= 0n)) {
    for (const g of groups) {
      if (g.taxableMinor! === 0n) continue;
      const names = namesOf(g);
      lines.push({
        description:
          `${ex.invoiceNumber} net ${label(g)}${names.length ? `: ${names.join(', ')}` : ''}`.slice(
            0,
            500,
          ),
        amountMinor: g.taxableMinor!.toString(),
      });
    }
  } else {
    const net = groups.reduce((a, g) => a + g.taxableMinor!, 0n);
    if (net <= 0n) return { error: 'the net total is not positive' };
    lines.push({
      description:
        `${ex.invoiceNumber} net (${groups.map((g) => `${label(g)} ${g.taxable}`).join(', ')})`.slice(
          0,
          500,
        ),
      amountMinor: net.toString(),
    });
  }
  // Lines a breakdown left out (an invoice that does not claim EN 16931 may: the rules
  // checked the rest): the net beyond the breakdown, outside VAT.
  const netTotal = inv.totals.net === null ? null : minor(inv.totals.net);
  const covered = groups.reduce((a, g) => a + g.taxableMinor!, 0n);
  if (netTotal !== null && netTotal > covered)
    lines.push({
      description: `${ex.invoiceNumber} net outside the VAT breakdown`,
      amountMinor: (netTotal - covered).toString(),
    });
  for (const g of groups) {
    if (g.taxMinor! === 0n) continue;
    if (!inputTaxAccountId) return { error: 'the org has no input-tax account' };
    lines.push({
      description: `${taxDescription} ${label(g)}`,
      amountMinor: g.taxMinor!.toString(),
      accountId: inputTaxAccountId,
    });
  }
  const total = lines.reduce((a, l) => a + BigInt(l.amountMinor), 0n);
  if (lines.length === 0 || total !== gross)
    return {
      error: `the VAT breakdown posts ${total}, the invoice's gross is ${gross} (minor units)`,
    };
  return { lines };
}

/**
 * The payee account a structured invoice states, for a new vendor's master data: its one IBAN,
 * with its BIC when it names exactly one. Stored, it is what the vendor's next invoices are
 * compared with (a different IBAN fires the payee-change rule).
 */
const payeeAccountOf = (ex: Extraction) => {
  const iban = payeeIbanOf(ex);
  if (!iban || !ex.currency) return undefined;
  const bics = [...new Set(ex.structured?.invoice.payment.bics ?? [])].filter((b) => BIC.test(b));
  return { iban, ...(bics.length === 1 ? { bic: bics[0] } : {}), currency: ex.currency };
};

const payeeIbanOf = (ex: Extraction): string | undefined => {
  const ibans = [...new Set(ex.structured?.invoice.payment.ibans ?? [])].filter((i) =>
    IBAN.test(i),
  );
  return ibans.length === 1 ? ibans[0] : undefined;
};

/** "12.50" in hundredths; lines are printed with two decimals. */
function toMinor(decimal: string): bigint | null {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(decimal);
  if (!m) return null;
  const v = BigInt(m[2]!) * 100n + BigInt(m[3]!);
  return m[1] ? -v : v;
}
/** Whether the currency's minor units are hundredths (line amounts are read in hundredths). */
function minorIsCents(grossMinor: string, grossDecimal: string | null): boolean {
  return grossDecimal !== null && toMinor(grossDecimal) === BigInt(grossMinor);
}
