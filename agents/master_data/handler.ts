import { z } from 'zod';
import type { AgentContext, HandlerResult } from '../../workflows/agent-runs/context';
import { companyKey, searchTerm } from '../../workflows/bills/company-name';
import { BIC, CurrencySchema, IBAN } from '../../workflows/gateway/writes';

/**
 * The master data agent (code mode): creates a vendor or customer from evidence through the
 * gateway. An existing record of the same name (legal form ignored) is returned, never
 * duplicated. Contact data comes only from the evidence; a missing email becomes a placeholder
 * on a reserved domain, flagged in `placeholderFields`, and the run names the fields a person
 * must complete.
 */
const Evidence = z.object({
  name: z.string().trim().min(1).max(200),
  emails: z.array(z.string().max(320)).max(50).default([]),
  taxIds: z.array(z.string().max(50)).max(20).default([]),
  /** The account a structured invoice asks to be paid to: becomes the vendor's bank details. */
  bankAccount: z
    .object({
      iban: z.string().regex(IBAN),
      bic: z.string().regex(BIC).optional(),
      currency: CurrencySchema,
    })
    .optional(),
  sourceDocumentId: z.string().min(1).max(200).optional(),
});
/** A delegation's work order (requests: `delegation.master_data`). */
const Delegation = z.object({
  delegationRequestId: z.string().min(1).max(300),
  evidence: z.record(z.string(), z.unknown()),
});
const Settings = z.object({
  placeholder_email_domain: z
    .string()
    .regex(/\.invalid$/, 'a domain under the reserved .invalid TLD'),
});

export interface MasterDataOutcome {
  entity: 'vendor' | 'customer';
  id: string;
  name: string;
  existed: boolean;
  submissionId: string | null;
  lane: string | null;
  /** Fields that hold a placeholder (exactly these; a person must complete them). */
  placeholderFields: string[];
  email: string | null;
  taxId: string | null;
  /** The delegation this run works for, and the answer that closes it. */
  delegation: {
    requestId: string;
    answer: { vendor_id: string; document_id: string } | null;
  } | null;
  /** The request asking a person to complete the placeholder fields. */
  reviewRequestId: string | null;
}

export async function handle(ctx: AgentContext): Promise<HandlerResult> {
  const entity = ctx.trigger.eventType === 'master_data.customer_requested' ? 'customer' : 'vendor';
  const settings = Settings.parse(ctx.settings);
  const delegated = Delegation.safeParse(ctx.trigger.payload);
  const delegationId = delegated.success ? delegated.data.delegationRequestId : null;
  const ev = Evidence.safeParse(delegated.success ? delegated.data.evidence : ctx.trigger.payload);
  const closing = (id: string) =>
    delegationId
      ? {
          requestId: delegationId,
          answer:
            entity === 'vendor' && ev.success && ev.data.sourceDocumentId
              ? { vendor_id: id, document_id: ev.data.sourceDocumentId }
              : null,
        }
      : null;
  if (!ev.success)
    return {
      status: 'failed',
      summary: `evidence invalid: ${ev.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    };
  const { name, emails, taxIds, bankAccount, sourceDocumentId } = ev.data;
  const key = companyKey(name);
  if (key.length === 0) return { status: 'needs_human', summary: `no usable name in "${name}"` };

  const found = await ctx.tool('master_data_search', {
    entity,
    query: searchTerm(name),
    limit: 50,
  });
  const same = found.rows.filter((r) => companyKey(r.label) === key);
  if (same.length > 1)
    return {
      status: 'needs_human',
      summary: `${same.length} ${entity}s are already named ${name}: a person must choose`,
    };
  if (same.length === 1) {
    const out: MasterDataOutcome = {
      entity,
      id: same[0]!.id,
      name,
      existed: true,
      submissionId: null,
      lane: null,
      placeholderFields: [],
      email: null,
      taxId: null,
      delegation: closing(same[0]!.id),
      reviewRequestId: null,
    };
    await ctx.log(`${entity} ${name} already exists as ${same[0]!.id}`);
    return { status: 'succeeded', summary: `${entity} ${name} exists (${same[0]!.id})`, data: out };
  }

  // An email is the counterparty's only when its domain carries a word of its name.
  const words = key.split(' ').filter((w) => w.length >= 3);
  const own = [...new Set(emails.map((e) => e.toLowerCase()))].filter((e) => {
    const domain = (e.split('@')[1] ?? '').replace(/[^a-z0-9.]/g, '');
    const letters = domain.replace(/[^a-z0-9]/g, '');
    return /^[^@\s]+@[a-z0-9.-]+\.[a-z]{2,}$/.test(e) && words.some((w) => letters.includes(w));
  });
  const slug = key.replace(/\s+/g, '-').slice(0, 60);
  const placeholderFields: ('email' | 'phone')[] = [];
  let email: string;
  const ownDomains = new Set(own.map((e) => e.split('@')[1]));
  // Several addresses of the counterparty's one domain: the first printed is a real contact.
  if (own.length > 0 && ownDomains.size === 1) email = own[0]!;
  else {
    email = `unknown-contact@${slug}.${settings.placeholder_email_domain}`;
    placeholderFields.push('email');
  }
  const taxId = taxIds.length === 1 ? taxIds[0]! : null;
  const id = `${entity === 'vendor' ? 'ven' : 'cus'}-${slug}`.slice(0, 100);
  const payload: Record<string, unknown> = {
    [entity === 'vendor' ? 'vendorId' : 'customerId']: id,
    name,
    email,
    ...(taxId ? { taxId } : {}),
    ...(placeholderFields.length > 0 ? { placeholderFields } : {}),
    // A vendor's bank details as its own document states them (new bank details are a
    // high-risk write: people approve them before anything can be paid there).
    ...(entity === 'vendor' && bankAccount
      ? { bankAccount: { holderName: name, ...bankAccount } }
      : {}),
  };
  const sub = await ctx.tool('submit', {
    kind: `${entity}.create`,
    payload,
    ...(sourceDocumentId ? { sourceDocumentId } : {}),
  });
  if (sub.status === 'refused')
    return {
      status: 'needs_human',
      summary: `${entity}.create refused: ${sub.detail ?? ''}`,
      data: { payload },
    };
  let reviewRequestId: string | null = null;
  if (placeholderFields.length > 0) {
    await ctx.log(
      `${entity} ${name}: placeholder ${placeholderFields.join(', ')} — a person must complete it`,
      { placeholderFields },
    );
    const r = await ctx.request({
      type: 'master_data',
      title: `Complete ${entity} ${name}`,
      question: `${entity} ${name} (${id}) was created from a document with placeholder ${placeholderFields.join(', ')}: nothing is ever sent there. Give the real contact data.`,
      answerSchema: {
        fields: placeholderFields.map((f) => ({
          name: f,
          label: f === 'email' ? 'Email address' : 'Phone number',
          kind: 'text' as const,
        })),
      },
      evidence: {
        entity,
        id,
        name,
        placeholderFields,
        emails,
        taxIds,
        sourceDocumentId: sourceDocumentId ?? null,
      },
    });
    reviewRequestId = r.requestId;
  }
  const out: MasterDataOutcome = {
    entity,
    id,
    name,
    existed: false,
    submissionId: sub.submissionId,
    lane: sub.detail,
    placeholderFields,
    email,
    taxId,
    delegation: closing(id),
    reviewRequestId,
  };
  return {
    status: 'succeeded',
    summary: `${entity} ${name} submitted as ${id} (${sub.detail ?? ''})${placeholderFields.length ? `; placeholders: ${placeholderFields.join(', ')}` : ''}`,
    data: out,
  };
}
